/** Finds seeds whose deal has the shape a test needs, by dealing them with the engine itself. */
import {
  type Card,
  type GameSpeed,
  type GameState,
  TIME_CAP_MS,
  advance,
  apply,
  createGame,
  matches,
} from '@memeslam/engine';

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

/**
 * A seed of a two-seat deal (30 cards, normal speed) on which `seat` can play `plays` cards in a row
 * alone, each time the first hand card that matches a top (on the first pile it matches), as
 * sockets.ts's playOne picks: for a player who must contest a game before leaving it (docs/fair-play.md).
 */
export function playsAloneSeed(seat: number, plays: number): string {
  return findSeed(2, (dealt) => {
    let s: GameState = dealt;
    for (let k = 0; k < plays; k += 1) {
      const tops = s.piles.map((p) => p.at(-1) as Card);
      const card = s.players[seat]?.hand.find((c) => tops.some((t) => matches(c, t)));
      if (!card) return false;
      const pileIndex = tops.findIndex((t) => matches(card, t));
      const next = apply(s, { type: 'playCard', playerId: `p${seat}`, cardId: card.id, pileIndex }, 0);
      if (!next.ok) return false;
      s = next.state;
    }
    return true;
  });
}
