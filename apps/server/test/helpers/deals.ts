/** Finds seeds whose deal has the shape a test needs, by dealing them with the engine itself. */
import { type GameSpeed, type GameState, createGame } from '@memeslam/engine';

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
