/**
 * A game room on fake deps for unit tests: a storage that records each write and can hold it back or
 * refuse it, emitters that record what was delivered, a manual clock, and staged deals.
 */
import {
  type Card,
  type CardColor,
  type CardLogo,
  type CardNumber,
  EARLY_LEAVE_MIN_CARDS,
  type GameState,
  createGame,
} from '@memeslam/engine';
import { COUNTDOWN_DURATION_MS, type GameSetup } from '@memeslam/protocol';
import { expect } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { GameRoom } from '../../src/games/room.ts';
import { ENGINE_RULES, type RoomDeps, type RoomWrite, type Rules } from '../../src/games/types.ts';

export const GAME_ID = '00000000-0000-4000-8000-0000000000aa';
export const SEED = '0123456789abcdef0123456789abcdef';
export const alice = { id: 'user-alice', username: 'alice' };
export const bob = { id: 'user-bob', username: 'bob' };
export const carol = { id: 'user-carol', username: 'carol' };

export const setup: GameSetup = {
  mode: 'free',
  maxPlayers: 4,
  cardsPerPlayer: 20,
  gameSpeed: 'normal',
  allowSpectators: true,
  autoStart: false,
  bots: null,
};

export const COLORS: Record<string, CardColor> = { R: 'Red', B: 'Blue', G: 'Green', Y: 'Yellow', O: 'Orange' };
export const LOGOS: Record<string, CardLogo> = { Bo: 'Bonk', Pe: 'Pepe', So: 'Solana', Pc: 'Popcat', Wi: 'Wif' };

/** "R5Pe" = Red 5 Pepe (color, number, logo); the notation is the card's id. */
export function card(text: string): Card {
  const m = /^([RBGYO])([1-5])(Bo|Pe|So|Pc|Wi)$/.exec(text);
  if (!m) throw new Error(`bad card ${text}`);
  return {
    id: text,
    color: COLORS[m[1] as string] as CardColor,
    number: Number(m[2]) as CardNumber,
    logo: LOGOS[m[3] as string] as CardLogo,
  };
}
export const cards = (text: string): Card[] => text.split(' ').filter(Boolean).map(card);

/**
 * The engine's rules with a dealt layout of our choosing: the real deal (ids, clocks, rng), then the
 * piles, hands, decks and stock replaced. The room replays its log through the same rules.
 */
export function staged(layout: { piles: string[]; hands: string[]; stock?: string; cardsPlayed?: number }): Rules {
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
export const DEADLOCKING = staged({ piles: ['B5Bo', 'G4So'], hands: ['R5Pe Y1Wi', 'O2Pc'], stock: 'O3Bo Y2Wi' });
/** Alice's one card wins the game; Bob holds a playable card (Green 3 Solana on Green 4 Solana). */
export const ONE_TO_WIN = staged({ piles: ['B5Bo', 'G4So'], hands: ['R5Pe', 'G3So Y1Wi'] });
/** The same, dealt as if both had played enough cards to have contested the game. */
export const CONTESTED = staged({
  piles: ['B5Bo', 'G4So'],
  hands: ['R5Pe', 'G3So Y1Wi'],
  cardsPlayed: EARLY_LEAVE_MIN_CARDS,
});

export interface Delivered {
  readonly to: string;
  readonly event: string;
  readonly payload: Record<string, unknown>;
}

/** A room on fake deps: what was written, delivered, finished, closed or failed, and the clock. */
export function harness(rules: Rules = ENGINE_RULES) {
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

export type Harness = ReturnType<typeof harness>;

/** Two players ready, the host starts, the countdown runs out: the cards are dealt. */
export async function dealt(h: Harness): Promise<GameRoom> {
  const room = await h.open();
  await room.setReady(alice.id, true).done;
  await room.setReady(bob.id, true).done;
  expect(room.start(alice.id).outcome).toEqual({ ok: true, data: { status: 'starting' } });
  h.clock.advance(COUNTDOWN_DURATION_MS);
  await room.settled();
  expect(room.status).toBe('active');
  return room;
}
