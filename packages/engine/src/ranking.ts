import {
  type BotDifficulty,
  BOT_DIFFICULTIES,
  DIFFICULTY_POINTS_FACTOR,
  POINTS_PER_CARD,
  POINTS_PER_OPPONENT_BEATEN,
} from './constants.ts';
import type { EndReason, PlayerResult, PlayerState } from './types.ts';

export function cardsLeft(player: Pick<PlayerState, 'hand' | 'deck'>): number {
  return player.hand.length + player.deck.length;
}

/**
 * Final order: players still in the game by cardsLeft ascending, then cards played (more first), then
 * join order; forfeited players after them, the latest to leave first.
 */
export function compareForRanking(a: PlayerState, b: PlayerState): number {
  if (!a.left !== !b.left) return a.left ? 1 : -1;
  if (a.left && b.left && a.left.at !== b.left.at) return b.left.at - a.left.at;
  return cardsLeft(a) - cardsLeft(b) || b.cardsPlayed - a.cardsPlayed || a.seat - b.seat;
}

/**
 * The strongest of these bot difficulties (BOT_DIFFICULTIES lists them weakest first), or null when
 * there is none; nulls (people) are skipped. The one rule for a game's bot level: its points factor,
 * the lobby's and the records' "difficulty".
 */
export function strongestDifficulty(difficulties: Iterable<BotDifficulty | null>): BotDifficulty | null {
  let best = -1;
  for (const d of difficulties) if (d) best = Math.max(best, BOT_DIFFICULTIES.indexOf(d));
  return best < 0 ? null : (BOT_DIFFICULTIES[best] ?? null);
}

/** The strongest bot's difficulty, or null for a game without bots. */
export function strongestBot(players: readonly PlayerState[]): BotDifficulty | null {
  return strongestDifficulty(players.map((p) => p.bot));
}

/** Points: 2 × cardsPlayed + 50 × opponents for the winner, × the strongest bot's factor, floored. */
export function pointsFor(
  cardsPlayed: number,
  isWinner: boolean,
  opponents: number,
  strongest: BotDifficulty | null,
): number {
  const base = POINTS_PER_CARD * cardsPlayed + (isWinner ? POINTS_PER_OPPONENT_BEATEN * opponents : 0);
  const factor = strongest ? DIFFICULTY_POINTS_FACTOR[strongest] : 1;
  return Math.floor(base * factor);
}

export function rankPlayers(
  players: readonly PlayerState[],
  winnerId: string | null,
  reason: EndReason,
): PlayerResult[] {
  const strongest = strongestBot(players);
  const ordered = players.slice().sort((a, b) => {
    if (winnerId !== null && (a.id === winnerId) !== (b.id === winnerId)) return a.id === winnerId ? -1 : 1;
    return compareForRanking(a, b);
  });
  return ordered.map((p, index) => ({
    playerId: p.id,
    username: p.username,
    isBot: p.bot !== null,
    botDifficulty: p.bot,
    place: index + 1,
    cardsLeft: cardsLeft(p),
    cardsPlayed: p.cardsPlayed,
    powerUpsUsed: p.powerUpsUsed.length,
    forfeited: p.left !== null,
    points: reason === 'aborted' ? 0 : pointsFor(p.cardsPlayed, p.id === winnerId, players.length - 1, strongest),
  }));
}
