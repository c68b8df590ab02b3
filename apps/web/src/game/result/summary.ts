/**
 * The numbers on the result screen, worked out from the game's result
 * (gameEnded, or GET /game/:id/result) and the client's move counters. Pure, so the screen only lays them out.
 */
import { GAME_TEXTS } from '@memeslam/protocol';
import { formatElapsed } from '../clock.ts';
import type { GameResult } from '../state.ts';

export type PlayerResult = GameResult['results'][number];

export type Outcome = 'victory' | 'gameOver' | 'aiVictory' | 'noWinner';

export interface Counters {
  readonly cardsPlayed: number;
  readonly humanMoves: number;
  readonly botMoves: number;
}

/** "Victory" for the winner; "AI Victory" when a bot beat us; "Game Over" otherwise. */
export function outcomeOf(ended: Pick<GameResult, 'winner'>, me: string | null): Outcome {
  const { winner } = ended;
  if (!winner) return 'noWinner';
  if (me !== null && winner.userId === me) return 'victory';
  return winner.isBot ? 'aiVictory' : 'gameOver';
}

export const OUTCOME_TITLES: Record<Outcome, string> = {
  victory: GAME_TEXTS.victory,
  gameOver: GAME_TEXTS.gameOver,
  aiVictory: GAME_TEXTS.aiVictory,
  noWinner: GAME_TEXTS.gameOver,
};

/** ours: a line under the title saying how the game ended. */
export function endLine(ended: Pick<GameResult, 'winner' | 'reason'>, outcome: Outcome): string {
  const winnerName = ended.winner ? `${ended.winner.username}${ended.winner.isBot ? GAME_TEXTS.botSuffix : ''}` : null;
  switch (ended.reason) {
    case 'win':
      return outcome === 'victory'
        ? "Congratulations! You've played all your cards!"
        : `${winnerName} played all their cards first.`;
    case 'forfeit':
      return outcome === 'victory'
        ? 'Your opponents left the game: you win by forfeit.'
        : `${winnerName ?? 'Nobody'} wins by forfeit.`;
    case 'timeCap':
      return winnerName ? `Time ran out; ${winnerName} had the fewest cards left.` : 'Time ran out.';
    case 'deadlock':
      return winnerName
        ? `No more cards could be flipped; ${winnerName} had the fewest cards left.`
        : 'No more cards could be flipped.';
    case 'aborted':
      return 'The game was ended before anyone won.';
  }
}

/**
 * Final ranking: the server's places, by the engine's rule (RANKING_RULE): cards left, fewest first,
 * ties to more cards played; who left the game after everyone still in it, whatever their cards.
 */
export function finalRanking(results: readonly PlayerResult[]): PlayerResult[] {
  return [...results].sort((a, b) => a.place - b.place);
}

export const RANKING_RULE =
  'Ranked by cards left, fewest first (ties: more cards played); players who left come last. Points are what the leaderboard counts.';

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Rate with 2 decimals; 0.00 for a game that took no time. */
export function perSecond(count: number, durationMs: number): string {
  return (durationMs > 0 ? count / (durationMs / 1000) : 0).toFixed(2);
}

export interface GameSummary {
  /** m:ss, rounded down from the exact duration as the replay shows it (clock.ts). */
  readonly time: string;
  /** This player's cards; for a spectator, everyone's. */
  readonly cardsPlayed: number;
  readonly cardsPerSecond: string;
  /** "1st of 3", or "—" for a spectator. */
  readonly place: string;
  readonly mine: PlayerResult | null;
}

export function gameSummary(ended: GameResult, me: string | null): GameSummary {
  const mine = ended.results.find((result) => result.playerId === me) ?? null;
  const cardsPlayed = mine?.cardsPlayed ?? ended.results.reduce((sum, result) => sum + result.cardsPlayed, 0);
  const ranking = finalRanking(ended.results);
  const position = mine ? ranking.findIndex((result) => result.playerId === mine.playerId) + 1 : 0;
  return {
    time: formatElapsed(ended.durationMs),
    cardsPlayed,
    cardsPerSecond: perSecond(cardsPlayed, ended.durationMs),
    place: position > 0 ? `${ordinal(position)} of ${ranking.length}` : '—',
    mine,
  };
}

export interface HumanVsAi {
  readonly humans: number;
  readonly bots: number;
  readonly movesPerSecond: string;
  /** Cards played by the people : by the bots. */
  readonly score: string;
  readonly humanShare: number;
  readonly botShare: number;
}

/**
 * The bot-game block. Moves come from the live counters; a client that joined late (a rejoin)
 * has partial counters, so when they count fewer moves than the results' cards played, the
 * results are used instead.
 */
export function humanVsAi(results: readonly PlayerResult[], counters: Counters, durationMs: number): HumanVsAi {
  let humans = 0;
  let bots = 0;
  let humanCards = 0;
  let botCards = 0;
  for (const result of results) {
    if (result.isBot) {
      bots += 1;
      botCards += result.cardsPlayed;
    } else {
      humans += 1;
      humanCards += result.cardsPlayed;
    }
  }
  const counted = counters.humanMoves + counters.botMoves;
  const [humanMoves, botMoves] =
    counted >= humanCards + botCards ? [counters.humanMoves, counters.botMoves] : [humanCards, botCards];
  const total = humanMoves + botMoves;
  const humanShare = total > 0 ? Math.round((humanMoves / total) * 100) : 0;
  return {
    humans,
    bots,
    movesPerSecond: perSecond(total, durationMs),
    score: `${humanCards}:${botCards}`,
    humanShare,
    botShare: total > 0 ? 100 - humanShare : 0,
  };
}
