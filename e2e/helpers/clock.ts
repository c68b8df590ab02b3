/**
 * Games on a server clock moved by hand (ManualClock), for journeys whose point is the screen and not
 * the timing: the bots' plays, a deadlock's flip and a thaw happen when the journey moves the clock,
 * so a game plays out in the time its clicks take instead of minutes of a page and bots on the real
 * clock.
 *
 * The page reads the times the server sends against its own clock (a countdown's seconds, the game's
 * time, its speed), so a journey brings the hand-moved clock up to this machine's (catchUp) before it
 * starts a game; the game's own steps then move it on by seconds or minutes at most.
 */
import { type Card, TIME_CAP_MS, matches } from '@memeslam/engine';
import type { ManualClock } from '../../apps/server/src/clock.ts';
import type { E2eServer } from './server.ts';

/**
 * The longest one step moves the clock. A game in play always has a deadline seconds away (a bot's
 * next look, a deadlock's flip, the time cap); anything later (a tournament's end) is not a step.
 */
const STEP_MS = 1000;

/** Moves the hand-moved clock up to this machine's time, never back. */
export function catchUp(clock: ManualClock): void {
  const behind = Date.now() - clock.now();
  if (behind > 0) clock.advance(behind);
}

/** Moves the clock to its next timer (at most STEP_MS on): one step of whatever is due next. */
function step(clock: ManualClock): void {
  const due = clock.nextDue();
  clock.advance(due === null ? STEP_MS : Math.min(STEP_MS, Math.max(1, due - clock.now())));
}

/** One game, as the server has it, on a hand-moved clock. */
export interface ClockedGame {
  /**
   * Moves the clock on, step by step, until the person may play a card (one in the hand fits a pile
   * top, and they are not frozen) or the game is over; then waits until what those steps sent has
   * left for the sockets, so the page shows it next. For playUntilEnd's `idle`.
   */
  untilPlayable(): Promise<void>;
  /** Moves the clock on until the game has been in play for `ms`, or is over (as untilPlayable waits). */
  untilPlayedFor(ms: number): Promise<void>;
  /**
   * Moves the clock past the game's time cap in one go, so the game is over: the bots play it out, or
   * the cap ends it. Then waits as untilPlayable does.
   */
  untilOver(): Promise<void>;
  /** Moves the clock one step on (a bot's look, say), and waits as untilPlayable does. */
  next(): Promise<void>;
  /** The person's cards left (hand and deck), as the server counts them. */
  cardsLeft(): number;
}

export function clockedGame(server: E2eServer, clock: ManualClock, roomCode: string, userId: string): ClockedGame {
  const room = server.app.games.find(roomCode);
  if (!room) throw new Error(`clockedGame: no room ${roomCode}`);
  const over = () => room.status !== 'active';
  const canPlay = () => {
    const hand = room.handFor(userId);
    const piles = room.game().gameState?.discardPiles ?? [];
    if (!hand || hand.isFrozen) return false;
    const tops = piles.flatMap((pile) => pile.slice(-1) as Card[]);
    return hand.hand.some((card) => tops.some((top) => matches(card, top)));
  };
  /**
   * Steps the clock until `done`; a game ends by the time cap at the latest, so more is a fault. Each
   * step yields to the event loop: a timer due at once runs on the next turn (ManualClock.at), and the
   * steps' writes go on meanwhile.
   */
  const until = async (done: () => boolean) => {
    const from = clock.now();
    while (!over() && !done()) {
      if (clock.now() - from > TIME_CAP_MS + 60_000) throw new Error(`the game in ${roomCode} went past its time cap`);
      step(clock);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await room.settled();
  };
  return {
    untilPlayable: () => until(canPlay),
    untilPlayedFor: (ms) => until(() => clock.now() - (room.startedAt ?? clock.now()) >= ms),
    untilOver: async () => {
      // A room's timer due at the very moment the clock stands at runs on the next turn: then once more.
      while (!over()) {
        clock.advance(TIME_CAP_MS);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await room.settled();
    },
    next: async () => {
      step(clock);
      await room.settled();
    },
    cardsLeft: () => room.handFor(userId)?.cardsLeft ?? 0,
  };
}
