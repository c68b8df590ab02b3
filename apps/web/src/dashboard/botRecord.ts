/**
 * The user's record against bots (totalBotGames, humanWins, botWins), kept in the browser. The server's stats answer carries only the last games, so each finished bot game seen
 * there is counted once into a record kept in browser storage, per account. That record outlives
 * the server's window and stands in when the stats call fails.
 */
import { type GameRecord, winRatePercent } from '@memeslam/protocol';

export interface BotRecord {
  readonly totalBotGames: number;
  readonly humanWins: number;
  readonly botWins: number;
  /** Ids of the games already counted, newest last. */
  readonly counted: readonly string[];
}

export const EMPTY_BOT_RECORD: BotRecord = { totalBotGames: 0, humanWins: 0, botWins: 0, counted: [] };
/** Enough to never count a game of the server's recent window twice. */
const COUNTED_KEPT = 200;

type RecentGame = Pick<GameRecord, 'gameId' | 'isBotGame' | 'won'> & {
  readonly gameState: { readonly winner: { readonly isBot: boolean } | null };
};

/** Adds the bot games of `recent` not counted yet. Returns the same record when nothing is new. */
export function mergeBotGames(record: BotRecord, recent: readonly RecentGame[]): BotRecord {
  const seen = new Set(record.counted);
  // A game listed twice in one answer is still one game: mark each as seen when it is taken.
  const fresh = recent.filter((g) => {
    if (!g.isBotGame || seen.has(g.gameId)) return false;
    seen.add(g.gameId);
    return true;
  });
  if (fresh.length === 0) return record;
  return {
    totalBotGames: record.totalBotGames + fresh.length,
    humanWins: record.humanWins + fresh.filter((g) => g.won === true).length,
    botWins: record.botWins + fresh.filter((g) => g.won !== true && g.gameState.winner?.isBot === true).length,
    counted: [...record.counted, ...fresh.map((g) => g.gameId)].slice(-COUNTED_KEPT),
  };
}

/** Win rate vs bots as a whole percent of the decided games. */
export function winRateVsBots(record: Pick<BotRecord, 'humanWins' | 'botWins'>): number {
  return winRatePercent(record.humanWins, record.humanWins + record.botWins);
}

/** Your Bot Game Performance shows only when either win count is above 0. */
export function showsBotPerformance(record: Pick<BotRecord, 'humanWins' | 'botWins'>): boolean {
  return record.humanWins > 0 || record.botWins > 0;
}

const storageKey = (userId: string) => `bot-stats:${userId}`;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function loadBotRecord(userId: string): BotRecord {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null') as Partial<BotRecord> | null;
    if (!stored || !isCount(stored.totalBotGames) || !isCount(stored.humanWins) || !isCount(stored.botWins)) {
      return EMPTY_BOT_RECORD;
    }
    const counted = Array.isArray(stored.counted) ? stored.counted.filter((id) => typeof id === 'string') : [];
    return { totalBotGames: stored.totalBotGames, humanWins: stored.humanWins, botWins: stored.botWins, counted };
  } catch {
    return EMPTY_BOT_RECORD;
  }
}

export function saveBotRecord(userId: string, record: BotRecord): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(record));
  } catch {
    // Storage full or disabled: the record is rebuilt from the server's recent games next time.
  }
}
