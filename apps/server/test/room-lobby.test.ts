/**
 * A game room driven directly, before the deal and step by step: GameRoom with its Lobby and StepRunner
 * on fake deps and a manual clock (helpers/room-harness.ts). No server, no database, no sockets, no real
 * time: each test names one behaviour and fails when it breaks. A game in play: room-unit.test.ts.
 */
import { DISCONNECT_GRACE_MS } from '@memeslam/engine';
import { COUNTDOWN_DURATION_MS } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { type Rules, sha256Hex } from '../src/games/types.ts';
import { GAME_ID, SEED, alice, bob, carol, ONE_TO_WIN, harness, dealt } from './helpers/room-harness.ts';

describe('the lobby', () => {
  it('start: host only, everyone ready; the countdown runs on the clock, then the deal is written and told', async () => {
    const h = harness();
    const room = await h.open();
    await room.setReady(bob.id, true).done;
    expect(room.start(bob.id).outcome).toMatchObject({ ok: false, code: 'NOT_HOST' });
    expect(room.start(alice.id).outcome).toMatchObject({ ok: false, code: 'PLAYERS_NOT_READY' });
    await room.setReady(alice.id, true).done;
    const before = h.delivered.length;
    const started = room.start(alice.id);
    expect(started.outcome).toEqual({ ok: true, data: { status: 'starting' } });
    await started.done;
    expect(h.events(before)).toEqual(['gameStarting', 'gameStateChanged']);
    expect(h.writes.at(-1)?.row?.status).toBe('starting');

    h.clock.advance(COUNTDOWN_DURATION_MS - 1);
    await room.settled();
    expect(room.status).toBe('starting');
    expect(h.events()).not.toContain('gameStarted');

    h.clock.advance(1);
    await room.settled();
    expect(room.status).toBe('active');
    expect(room.startedAt).toBe(COUNTDOWN_DURATION_MS);
    const deal = h.writes.find((w) => w.row?.header);
    expect(deal?.row).toMatchObject({ seedCommitment: sha256Hex(SEED), startedAt: COUNTDOWN_DURATION_MS });
    expect(h.delivered.filter((d) => d.event === 'handDealt').map((d) => d.to)).toEqual([alice.id, bob.id]);
    expect(h.delivered.find((d) => d.event === 'gameStarted')?.payload).toMatchObject({
      gameId: GAME_ID,
      seedCommitment: sha256Hex(SEED),
    });
  });

  it('join: a full lobby refuses, a started one refuses', async () => {
    const h = harness();
    const room = await h.open([alice, bob, carol, { id: 'user-dan', username: 'dan' }]);
    expect(room.join({ id: 'user-eve', username: 'eve' }).outcome).toMatchObject({ ok: false, code: 'GAME_FULL' });
    await room.leave('user-dan').done;
    for (const id of [alice.id, bob.id, carol.id]) await room.setReady(id, true).done;
    await room.start(alice.id).done;
    expect(room.join({ id: 'user-eve', username: 'eve' }).outcome).toMatchObject({
      ok: false,
      code: 'GAME_ALREADY_STARTED',
    });
  });

  it('leave: the host part passes on, a countdown short of players stops, the last human closes the lobby', async () => {
    const h = harness();
    const room = await h.open();
    await room.setReady(alice.id, true).done;
    await room.setReady(bob.id, true).done;
    await room.start(alice.id).done;
    expect(room.status).toBe('starting');

    await room.leave(alice.id).done;
    expect(room.hostId).toBe(bob.id);
    expect(room.status).toBe('waiting');
    h.clock.advance(COUNTDOWN_DURATION_MS);
    await room.settled();
    expect(room.status).toBe('waiting'); // no deal once the countdown stopped
    expect(h.closed).toEqual([]);

    await room.leave(bob.id).done;
    expect(room.status).toBe('finished');
    expect(h.closed).toEqual([GAME_ID]);
    expect(h.writes.at(-1)?.row).toMatchObject({ status: 'finished', endReason: 'aborted' });
    expect(room.leave(bob.id).outcome).toMatchObject({ ok: false, code: 'NOT_IN_GAME' });
  });

  it('a member whose last socket closed keeps the seat for the grace, then loses it', async () => {
    const h = harness();
    const room = await h.open([alice, bob, carol]);
    await room.disconnect(carol.id).done;
    expect(h.events()).toContain('playerDisconnected');
    h.clock.advance(DISCONNECT_GRACE_MS - 1);
    await room.settled();
    expect(room.isMember(carol.id)).toBe(true);
    h.clock.advance(1);
    await room.settled();
    expect(room.isMember(carol.id)).toBe(false);
    expect(h.delivered.find((d) => d.event === 'playerLeft')?.payload).toMatchObject({ userId: carol.id });
  });

  it('a member who comes back within the grace keeps the seat', async () => {
    const h = harness();
    const room = await h.open([alice, bob, carol]);
    await room.disconnect(carol.id).done;
    h.clock.advance(DISCONNECT_GRACE_MS / 2);
    await room.connect(carol.id).done;
    h.clock.advance(DISCONNECT_GRACE_MS);
    await room.settled();
    expect(room.isMember(carol.id)).toBe(true);
  });
});

describe('the step runner', () => {
  it("holds a step's broadcasts and its answer until its write is durable, and keeps steps in order", async () => {
    const h = harness();
    const room = await h.open();
    h.state.holding = true;
    const before = h.delivered.length;
    let answered = false;
    const first = room.setReady(alice.id, true);
    void first.done.then(() => (answered = true));
    const second = room.setReady(bob.id, true);
    expect(first.outcome).toEqual({ ok: true, data: { isReady: true } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.delivered.length).toBe(before);
    expect(answered).toBe(false);
    expect(h.pending).toHaveLength(2);

    // The second write is durable first: nothing leaves until the first is too.
    h.pending[1]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.delivered.length).toBe(before);
    h.pending[0]?.();
    await second.done;
    expect(answered).toBe(true);
    const sent = h.delivered.slice(before);
    expect(sent.map((d) => [d.event, d.payload.userId ?? null])).toEqual([
      ['playerReadyChanged', alice.id],
      ['playerReadyChanged', bob.id],
      ['allPlayersReady', null],
    ]);
    const seqs = sent.map((d) => d.payload.seq as number);
    expect(seqs).toEqual([seqs[0], (seqs[0] as number) + 1, (seqs[0] as number) + 2]);
    expect(room.seq).toBe(seqs[2]);
  });

  it('a step that throws stops the room: the game is aborted and its players told, nothing else is sent', async () => {
    const throwing: Rules = {
      ...ONE_TO_WIN,
      apply: (state, command, now) => {
        if ((command as { type?: string }).type === 'playCard') throw new Error('a bug in the rules');
        return ONE_TO_WIN.apply(state, command, now);
      },
    };
    const h = harness(throwing);
    const room = await dealt(h);
    const before = h.delivered.length;
    const step = room.play(alice.id, { type: 'playCard', playerId: alice.id, cardId: 'R5Pe', pileIndex: 0 });
    expect(step.outcome).toMatchObject({ ok: false, code: 'GAME_STOPPED' });
    await step.done;
    expect(room.failed).toBe(true);
    expect(room.status).toBe('finished');
    expect(h.failed).toHaveLength(1);
    expect(h.events(before)).toEqual(['gameError', 'gameEnded']);
    expect(h.delivered.at(-1)?.payload).toMatchObject({ reason: 'aborted' });
    expect(h.clock.nextDue()).toBeNull();
  });
});
