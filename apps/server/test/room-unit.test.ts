/**
 * A game room driven directly: GameRoom with its Lobby, PlayedGame and StepRunner, on fake deps (a
 * storage that records each write and can hold it back or refuse it, emitters that record what was
 * delivered) and a manual clock. No server, no database, no sockets, no real time: each test names
 * one behaviour of the room and fails when it breaks.
 */
import {
  type Card,
  type CardColor,
  type CardLogo,
  type CardNumber,
  DISCONNECT_GRACE_MS,
  EARLY_LEAVE_MIN_CARDS,
  EARLY_LEAVE_MS,
  FREEZE_DURATION_MS,
  type GameState,
  createGame,
} from '@memeslam/engine';
import { COUNTDOWN_DURATION_MS, type GameSetup } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { GameRoom } from '../src/games/room.ts';
import {
  ENGINE_RULES,
  type RoomDeps,
  type RoomWrite,
  type Rules,
  type StoredGame,
  sha256Hex,
} from '../src/games/types.ts';

const GAME_ID = '00000000-0000-4000-8000-0000000000aa';
const SEED = '0123456789abcdef0123456789abcdef';
const alice = { id: 'user-alice', username: 'alice' };
const bob = { id: 'user-bob', username: 'bob' };
const carol = { id: 'user-carol', username: 'carol' };

const setup: GameSetup = {
  mode: 'free',
  maxPlayers: 4,
  cardsPerPlayer: 20,
  gameSpeed: 'normal',
  allowSpectators: true,
  autoStart: false,
  bots: null,
};

const COLORS: Record<string, CardColor> = { R: 'Red', B: 'Blue', G: 'Green', Y: 'Yellow', O: 'Orange' };
const LOGOS: Record<string, CardLogo> = { Bo: 'Bonk', Pe: 'Pepe', So: 'Solana', Pc: 'Popcat', Wi: 'Wif' };

/** "R5Pe" = Red 5 Pepe (color, number, logo); the notation is the card's id. */
function card(text: string): Card {
  const m = /^([RBGYO])([1-5])(Bo|Pe|So|Pc|Wi)$/.exec(text);
  if (!m) throw new Error(`bad card ${text}`);
  return {
    id: text,
    color: COLORS[m[1] as string] as CardColor,
    number: Number(m[2]) as CardNumber,
    logo: LOGOS[m[3] as string] as CardLogo,
  };
}
const cards = (text: string): Card[] => text.split(' ').filter(Boolean).map(card);

/**
 * The engine's rules with a dealt layout of our choosing: the real deal (ids, clocks, rng), then the
 * piles, hands, decks and stock replaced. The room replays its log through the same rules.
 */
function staged(layout: { piles: string[]; hands: string[]; stock?: string; cardsPlayed?: number }): Rules {
  return {
    ...ENGINE_RULES,
    createGame: (config) => {
      const base = createGame(config);
      return {
        ...base,
        piles: layout.piles.map(cards),
        stock: cards(layout.stock ?? ''),
        players: base.players.map((p, i) => ({
          ...p,
          hand: cards(layout.hands[i] ?? ''),
          deck: [],
          cardsPlayed: layout.cardsPlayed ?? 0,
        })),
      } satisfies GameState;
    },
  };
}

/**
 * Alice can play Red 5 Pepe on Blue 5 Bonk and then holds a dead Yellow 1 Wif; Bob's Orange 2 Popcat
 * matches nothing. Her play leaves nobody a move: a deadlock, resolved by flipping the stock.
 */
const DEADLOCKING = staged({ piles: ['B5Bo', 'G4So'], hands: ['R5Pe Y1Wi', 'O2Pc'], stock: 'O3Bo Y2Wi' });
/** Alice's one card wins the game; Bob holds a playable card (Green 3 Solana on Green 4 Solana). */
const ONE_TO_WIN = staged({ piles: ['B5Bo', 'G4So'], hands: ['R5Pe', 'G3So Y1Wi'] });
/** The same, dealt as if both had played enough cards to have contested the game. */
const CONTESTED = staged({
  piles: ['B5Bo', 'G4So'],
  hands: ['R5Pe', 'G3So Y1Wi'],
  cardsPlayed: EARLY_LEAVE_MIN_CARDS,
});

interface Delivered {
  readonly to: string;
  readonly event: string;
  readonly payload: Record<string, unknown>;
}

/** A room on fake deps: what was written, delivered, finished, closed or failed, and the clock. */
function harness(rules: Rules = ENGINE_RULES) {
  const clock = new ManualClock(0);
  const writes: RoomWrite[] = [];
  const delivered: Delivered[] = [];
  const finished: string[] = [];
  const closed: string[] = [];
  const failed: unknown[] = [];
  /** Writes not yet durable (while `holding`): resolving one makes it durable. */
  const pending: (() => void)[] = [];
  const state = { holding: false, refusing: false };
  let room: GameRoom | null = null;
  const record =
    (to: string, event: string, payload: unknown): (() => void) =>
    () =>
      delivered.push({ to, event, payload: payload as Record<string, unknown> });
  const deps: RoomDeps = {
    clock,
    rules,
    seed: () => SEED,
    toRoom: (_gameId, event, ...args) => record('room', event, args[0])(),
    prepareToRoom: (_gameId, event, ...args) => record('room', event, args[0]),
    prepareToUser: (userId, event, ...args) => record(userId, event, args[0]),
    persist: (_gameId, write) => {
      writes.push(structuredClone(write));
      // As the game log does when the database refuses a write: the room is stopped, then the write resolves.
      if (state.refusing) room?.abort(new Error('the database refused the write'));
      if (!state.holding) return Promise.resolve();
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    finished: (gameId) => finished.push(gameId),
    closed: (gameId) => closed.push(gameId),
    failed: (_gameId, error) => failed.push(error),
  };
  const open = async (users = [alice, bob]) => {
    const [host, ...others] = users as [typeof alice, ...(typeof alice)[]];
    room = new GameRoom({ id: GAME_ID, roomCode: 'ABCD', host, setup, createdAt: 0 }, deps);
    await room.connect(host.id).done;
    await room.open().done;
    for (const user of others) {
      await room.connect(user.id).done;
      await room.join(user).done;
    }
    return room;
  };
  return {
    clock,
    deps,
    writes,
    delivered,
    finished,
    closed,
    failed,
    pending,
    state,
    open,
    /** Events delivered since index `from`, by name. */
    events: (from = 0) => delivered.slice(from).map((d) => d.event),
    /** The entries of every write so far: the game's log. */
    log: () => writes.flatMap((w) => w.entries),
  };
}

type Harness = ReturnType<typeof harness>;

/** Two players ready, the host starts, the countdown runs out: the cards are dealt. */
async function dealt(h: Harness): Promise<GameRoom> {
  const room = await h.open();
  await room.setReady(alice.id, true).done;
  await room.setReady(bob.id, true).done;
  expect(room.start(alice.id).outcome).toEqual({ ok: true, data: { status: 'starting' } });
  h.clock.advance(COUNTDOWN_DURATION_MS);
  await room.settled();
  expect(room.status).toBe('active');
  return room;
}

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
