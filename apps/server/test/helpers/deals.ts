/** Finds seeds whose deal has the shape a test needs, by dealing them with the engine itself. */
import { type GameSpeed, type GameState, TIME_CAP_MS, advance, createGame } from '@memeslam/engine';

export function findSeed(
  seats: number,
  wanted: (state: GameState) => boolean,
  options: { cardsPerPlayer?: number; speed?: GameSpeed; bots?: readonly (string | null)[] } = {},
): string {
  for (let n = 1; n < 2_000_000; n += 1) {
    const seed = n.toString(16).padStart(32, '0');
    const state = createGame({
      seed,
      seats: Array.from({ length: seats }, (_, i) => ({
        id: `p${i}`,
        username: `p${i}`,
        bot: (options.bots?.[i] ?? null) as never,
      })),
      cardsPerPlayer: options.cardsPerPlayer ?? 30,
      speed: options.speed ?? 'normal',
      startAt: 0,
    });
    if (wanted(state)) return seed;
  }
  throw new Error('no seed found');
}

/** A seed whose deal lets one easy bot (seat 2, fast speed, 20 cards) play every card while the person beside it does nothing. */
export function botWinsSeed(): string {
  for (let n = 1; ; n += 1) {
    const seed = `b07${n.toString(16)}`.padEnd(32, '0');
    const state = createGame({
      seed,
      seats: [
        { id: 'human', username: 'human', bot: null },
        { id: 'bot-1', username: 'bot', bot: 'easy' },
      ],
      cardsPerPlayer: 20,
      speed: 'fast',
      startAt: 0,
    });
    const end = advance(state, TIME_CAP_MS).state.result;
    if (end?.reason === 'win' && end.winnerId === 'bot-1') return seed;
  }
}
