/**
 * Games against a server whose clock moves only when the journey says (ManualClock) and whose deal
 * is chosen: once started, the bots never act, so the board stays as dealt for the journey to check.
 */
import { type Card, type GameState, createGame } from '@memeslam/engine';
import { expect } from 'vitest';
import type { ManualClock } from '../../apps/server/src/clock.ts';
import type { Journey } from './browser.ts';
import type { E2eServer } from './server.ts';

/** The piles' top cards of a dealt game. */
export const topsOf = (state: GameState): Card[] => state.piles.map((pile) => pile.at(-1) as Card);

/**
 * The first seed whose deal (the person in seat 0, easy bots in the others) passes `wanted`, and that
 * deal. The server deals the same from the same seed, so a journey knows the board before it opens.
 * Which seats are bots changes no card (hands, decks, piles and stock follow from the seed and the
 * number of seats), so a game of people uses it too.
 */
export function seedWhere(
  game: { readonly players: number; readonly cardsPerPlayer: number },
  wanted: (state: GameState) => boolean,
): { readonly seed: string; readonly state: GameState } {
  const seats = Array.from({ length: game.players }, (_, seat) => ({
    id: seat === 0 ? 'me' : `b${seat}`,
    username: seat === 0 ? 'me' : `b${seat}`,
    bot: seat === 0 ? null : ('easy' as const),
  }));
  for (let n = 0; n < 100_000; n += 1) {
    const seed = n.toString(16).padStart(32, 'c');
    const state = createGame({ seed, seats, cardsPerPlayer: game.cardsPerPlayer, speed: 'slow', startAt: 0 });
    if (wanted(state)) return { seed, state };
  }
  throw new Error('seedWhere: no seed among the first 100,000 deals gives that board');
}

/** Drives the hand-moved clock through the auto-start (1 s) and the countdown (5 s) to play. */
export async function startWithClock(server: E2eServer, clock: ManualClock, roomCode: string): Promise<void> {
  const status = () => server.app.games.find(roomCode)?.status;
  await expect
    .poll(() => {
      clock.advance(500);
      return status();
    })
    .toBe('active');
}

/** Opens the game's page and waits for the hand. */
export async function enterGame(journey: Journey, roomCode: string): Promise<void> {
  await journey.goto(`/game/${roomCode}`);
  await journey.page.locator('[data-hand-card]').first().waitFor({ timeout: 20_000 });
}
