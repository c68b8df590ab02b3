/**
 * A game room driven directly, in play: GameRoom with its PlayedGame on fake deps and a manual clock
 * (helpers/room-harness.ts). No server, no database, no sockets, no real time: each test names one
 * behaviour of the room and fails when it breaks. The lobby and the step runner: room-lobby.test.ts.
 */
import { EARLY_LEAVE_MS, FREEZE_DURATION_MS } from '@memeslam/engine';
import { COUNTDOWN_DURATION_MS } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { GameRoom } from '../src/games/room.ts';
import { type StoredGame } from '../src/games/types.ts';
import {
  GAME_ID,
  alice,
  bob,
  carol,
  setup,
  DEADLOCKING,
  ONE_TO_WIN,
  CONTESTED,
  harness,
  dealt,
} from './helpers/room-harness.ts';

describe('a game in play', () => {
  it('play: an accepted card is logged with the room seq and told; a refused one changes nothing', async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    const logged = h.log().length;
    const refused = room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'Y1Wi', pileIndex: 0 });
    expect(refused.outcome).toMatchObject({ ok: false, code: 'NO_MATCH' });
    await refused.done;
    expect(h.log()).toHaveLength(logged);
    expect(
      room.play(carol.id, { type: 'playCard', playerId: carol.id, cardId: 'G3So', pileIndex: 1 }).outcome,
    ).toMatchObject({
      ok: false,
      code: 'NOT_IN_GAME',
    });

    const before = h.delivered.length;
    const step = room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 });
    expect(step.outcome.ok).toBe(true);
    await step.done;
    expect(h.events(before)).toContain('cardPlayed');
    expect(h.delivered.slice(before).find((d) => d.event === 'handUpdated')?.to).toBe(bob.id);
    const entry = h.log().at(-1);
    expect(entry?.command).toMatchObject({ type: 'playCard', cardId: 'G3So' });
    expect(entry?.seq).toBe(room.seq);
    expect(room.handFor(bob.id)?.hand.map((c) => c.id)).toEqual(['Y1Wi']);
  });

  it('freeze: the target cannot play for the freeze, and the thaw comes from the clock alone', async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    const froze = room.play(alice.id, {
      type: 'usePowerUp',
      playerId: alice.id,
      powerUpType: 'FREEZE',
      targetPlayerId: bob.id,
    });
    expect(froze.outcome.ok).toBe(true);
    await froze.done;
    expect(h.events()).toContain('playerFrozen');
    const bobPlays = { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 } as const;
    expect(room.play(bob.id, bobPlays).outcome).toMatchObject({ ok: false, code: 'FROZEN_PLAY' });

    h.clock.advance(FREEZE_DURATION_MS - 1);
    await room.settled();
    expect(h.events()).not.toContain('playerUnfrozen');
    h.clock.advance(1);
    await room.settled();
    expect(h.events()).toContain('playerUnfrozen');
    expect(h.log().at(-1)?.command).toBeNull(); // the thaw is a timer step of the log
    expect(room.play(bob.id, bobPlays).outcome.ok).toBe(true);
  });

  it('deadlock: nobody can play, the room resolves it on the clock by flipping new tops', async () => {
    const h = harness(DEADLOCKING);
    const room = await dealt(h);
    const step = room.play(alice.id, { type: 'playCard', playerId: alice.id, cardId: 'R5Pe', pileIndex: 0 });
    expect(step.outcome.ok).toBe(true);
    await step.done;
    const deadlock = room.game().gameState?.deadlock;
    expect(deadlock?.active).toBe(true);
    const resolveAt = deadlock?.resolveAt as number;
    expect(resolveAt).toBeGreaterThan(h.clock.now());
    expect(h.clock.nextDue()).toBe(resolveAt);

    h.clock.advance(resolveAt - h.clock.now() - 1);
    await room.settled();
    expect(h.events()).not.toContain('deadlockResolved');
    h.clock.advance(1);
    await room.settled();
    const resolved = h.delivered.find((d) => d.event === 'deadlockResolved');
    expect(resolved?.payload).toMatchObject({ automatic: true, cardsFlipped: 2 });
    expect(room.game().gameState?.deadlock?.active).toBe(false);
  });

  it('leave: a player who contested the game forfeits, the last one left wins; the end is recorded once durable', async () => {
    const h = harness(CONTESTED);
    const room = await dealt(h);
    h.clock.advance(EARLY_LEAVE_MS);
    await room.settled();
    h.state.holding = true;
    const step = room.leave(bob.id);
    expect(step.outcome).toEqual({ ok: true, data: null });
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.finished).toEqual([]); // not before the write is durable
    expect(h.events()).not.toContain('gameEnded');
    for (const resolve of h.pending) resolve();
    await step.done;
    expect(room.status).toBe('finished');
    expect(room.seatedHumanIds).toEqual([]);
    expect(h.finished).toEqual([GAME_ID]);
    expect(h.delivered.find((d) => d.event === 'gameEnded')?.payload).toMatchObject({ reason: 'forfeit' });
    expect(room.finishedGame()?.state.result?.ranking[0]?.playerId).toBe(alice.id);
  });

  it('leave: a walk-away in the first minute ends the game as aborted (docs/fair-play.md)', async () => {
    const h = harness(CONTESTED);
    const room = await dealt(h);
    h.clock.advance(EARLY_LEAVE_MS - 1);
    await room.settled();
    await room.leave(bob.id).done;
    expect(room.status).toBe('finished');
    expect(h.finished).toEqual([GAME_ID]);
    expect(h.delivered.find((d) => d.event === 'gameEnded')?.payload).toMatchObject({ reason: 'aborted' });
  });

  it('end: the last card wins; the room answers no more plays and sets no more timers', async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    const step = room.play(alice.id, { type: 'playCard', playerId: alice.id, cardId: 'R5Pe', pileIndex: 0 });
    expect(step.outcome.ok).toBe(true);
    await step.done;
    expect(room.status).toBe('finished');
    expect(h.finished).toEqual([GAME_ID]);
    expect(h.delivered.find((d) => d.event === 'gameEnded')?.payload).toMatchObject({ reason: 'win' });
    expect(room.finishedGame()?.state.result?.ranking[0]?.playerId).toBe(alice.id);
    expect(
      room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 }).outcome,
    ).toMatchObject({
      ok: false,
      code: 'GAME_NOT_ACTIVE',
    });
    expect(h.clock.nextDue()).toBeNull();
  });

  it("a failed write: the room aborts its game, the step's broadcasts never leave, later steps are refused", async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    const before = h.delivered.length;
    h.state.refusing = true;
    const step = room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 });
    expect(step.outcome.ok).toBe(true); // accepted in memory; the write then fails
    await room.settled();
    expect(room.failed).toBe(true);
    expect(room.status).toBe('finished');
    expect(h.failed).toHaveLength(1);
    expect(h.events(before)).toEqual(['gameError', 'gameEnded']);
    expect(h.delivered[before]?.payload).toMatchObject({ code: 'GAME_STOPPED' });
    expect(h.delivered.at(-1)?.payload).toMatchObject({ reason: 'aborted' });
    expect(
      room.play(alice.id, { type: 'playCard', playerId: alice.id, cardId: 'R5Pe', pileIndex: 0 }).outcome,
    ).toMatchObject({
      ok: false,
      code: 'GAME_STOPPED',
    });
    expect(h.clock.nextDue()).toBeNull();
    expect(h.finished).toEqual([]);
  });

  it('disconnect and back: the seat is marked away in the game, and play resumes on reconnect', async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    await room.disconnect(bob.id).done;
    expect(h.events()).toContain('playerDisconnected');
    expect(h.log().at(-1)?.command).toMatchObject({ type: 'disconnect', playerId: bob.id });
    await room.connect(bob.id).done;
    expect(h.events()).toContain('playerReconnected');
    expect(room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 }).outcome.ok).toBe(
      true,
    );
  });
});

describe('a restored room', () => {
  it('replays its log to the same game, and its clock resumes where the log stopped', async () => {
    const h = harness(ONE_TO_WIN);
    const room = await dealt(h);
    await room.play(bob.id, { type: 'playCard', playerId: bob.id, cardId: 'G3So', pileIndex: 1 }).done;
    room.dispose();
    const row = h.writes.reduce<Record<string, unknown>>((acc, w) => ({ ...acc, ...w.row }), {});
    const stored = {
      id: GAME_ID,
      roomCode: 'ABCD',
      setup,
      createdAt: 0,
      lobby: row.lobby,
      header: row.header,
      entries: h.log(),
    } as StoredGame;

    const later = harness(ONE_TO_WIN);
    later.clock.advance(3_600_000); // the server was down an hour
    const restored = GameRoom.restore(stored, later.deps);
    await restored.resume().done;
    expect(restored.status).toBe('active');
    expect(restored.seq).toBe(room.seq + 2); // both players count as away until they reconnect
    expect(restored.handFor(bob.id)?.hand.map((c) => c.id)).toEqual(['Y1Wi']);
    // The game clock stood still while the server was down: its last entry (at the deal's time) is now.
    expect(h.clock.now()).toBe(COUNTDOWN_DURATION_MS);
    expect(restored.startedAt).toBe(3_600_000);
  });
});
