/**
 * The business constants (timings, limits, options), shared by the server and the web client. Rule
 * constants (hand size, freeze length, speeds, cards per player…) live in the engine and are used
 * from there, never copied; this file only adds what the rules do not own. All timings are in ms.
 */
import {
  CARD_COLORS,
  CARD_LOGOS,
  DEFAULT_CARDS_PER_PLAYER,
  FORCE_DEADLOCK_AFTER_MS,
  MAX_PLAYERS,
  MIN_PLAYERS,
  UNIQUE_CARD_COUNT,
  type BotDifficulty,
  type GameSpeed,
} from '@memeslam/engine';
import type { RefusalCode } from './refusals.ts';

// ── Room codes ───────────────────────────────────────────────────────────────
/** No I, O, 0 or 1: they are misread when a code is read aloud or copied from a screen. */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const ROOM_CODE_LENGTH = 6;

// ── Accounts ─────────────────────────────────────────────────────────────────
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
/**
 * Ours: characters no shown name may hold (bot names; usernames are ASCII anyway): bidirectional
 * embeddings, overrides and isolates, zero-width and other invisible format characters, controls.
 */
export const HIDDEN_NAME_CHARACTERS = /[\p{Cc}\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]/u;
/**
 * At least 8 characters. The text pattern is kept
 * ("Password must be at least N characters"). A password also may not equal the username or the
 * e-mail address, and the server refuses the most common ones (its dictionary stays server-side).
 */
export const PASSWORD_MIN_LENGTH = 8;
/** Ours: an upper bound so nobody can make the server hash a megabyte. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const DEFAULT_PREFERENCES = { sound: true, animations: true, autoPlay: false } as const;
export const USER_ROLES = ['superadmin', 'admin', 'moderator', 'user'] as const;
/** Roles with canAccessAdmin. */
export const STAFF_ROLES = ['superadmin', 'admin', 'moderator'] as const;
export const RECENT_ACTIVITY_GAMES = 3;
export const POINTS_PER_LEVEL = 1000;

/** Level = floor(totalPoints / 1000) + 1. */
export function levelFor(totalPoints: number): number {
  return Math.floor(Math.max(0, totalPoints) / POINTS_PER_LEVEL) + 1;
}

/** Win rate as shown: a whole percent, 0 before the first game. */
export function winRatePercent(gamesWon: number, gamesPlayed: number): number {
  return gamesPlayed > 0 ? Math.round((gamesWon / gamesPlayed) * 100) : 0;
}

/**
 * The profile's achievements, each reached when one stat meets its threshold. "Win Streak" is
 * 10 wins in total, not 10 in a row.
 */
export const ACHIEVEMENTS = [
  { id: 'firstGame', name: 'First Game', description: 'Play your first game', stat: 'gamesPlayed', threshold: 1 },
  { id: 'firstVictory', name: 'First Victory', description: 'Win your first game', stat: 'gamesWon', threshold: 1 },
  { id: 'winStreak', name: 'Win Streak', description: 'Win 10 games', stat: 'gamesWon', threshold: 10 },
  { id: 'pointMaster', name: 'Point Master', description: 'Score 5,000 points', stat: 'totalPoints', threshold: 5000 },
] as const;
export type AchievementId = (typeof ACHIEVEMENTS)[number]['id'];
export const ACHIEVEMENT_IDS = ACHIEVEMENTS.map((a) => a.id) as [AchievementId, ...AchievementId[]];

export function achievementsFor(stats: {
  readonly gamesPlayed: number;
  readonly gamesWon: number;
  readonly totalPoints: number;
}): AchievementId[] {
  return ACHIEVEMENTS.filter((a) => stats[a.stat] >= a.threshold).map((a) => a.id);
}
/** Demo logins become `Guest_XXXX`. */
export const GUEST_USERNAME_PREFIX = 'Guest_';

// ── HTTP client ──────────────────────────────────────────────────────────────
export const REQUEST_TIMEOUT_MS = 15_000;
/** Waited before each retry on a 5xx, times the attempt number. */
export const SERVER_ERROR_RETRY_DELAY_MS = 1000;
/**
 * A 503 with Retry-After ("Server busy": the hashing queue, the event loop) is asked again after it;
 * the web app gives up, with the error as before, once this much time has passed since the first try.
 */
export const BUSY_RETRY_MAX_WAIT_MS = 120_000;
/**
 * A game start refused for want of headroom (NO_HEADROOM, docs/capacity.md) is asked again after this
 * long, within BUSY_RETRY_MAX_WAIT_MS; the HTTP refusal's Retry-After says the same.
 */
export const ADMISSION_RETRY_MS = 2000;
export const SESSION_EXPIRED_REDIRECT_MS = 1000;
export const VERIFY_EMAIL_REDIRECT_MS = 3000;
export const RESEND_VERIFICATION_REDIRECT_MS = 3000;

// ── Lobby and dashboard ──────────────────────────────────────────────────────
/** The lobby offers 2–4 seats; the dashboard's bot dialog (and the server) allow the engine's 2–6. */
export const LOBBY_MAX_PLAYERS_OPTIONS = [2, 3, 4] as const;
export const MIN_BOTS = 1;
/** At least one seat stays for a human. */
export const MAX_BOTS = MAX_PLAYERS - 1;
export const LOBBY_MAX_BOTS = 3;
export const LOBBY_GAME_SPEEDS = ['slow', 'normal', 'fast'] as const satisfies readonly GameSpeed[];
/** The dashboard's bot dialog adds blitz: every speed the engine has. */
export const DASHBOARD_GAME_SPEEDS = ['slow', 'normal', 'fast', 'blitz'] as const satisfies readonly GameSpeed[];
/** The lobby offers expert besides the dashboard's three. */
export const LOBBY_BOT_DIFFICULTIES = ['easy', 'normal', 'hard', 'expert'] as const satisfies readonly BotDifficulty[];
export const DASHBOARD_BOT_DIFFICULTIES = ['easy', 'normal', 'hard'] as const satisfies readonly BotDifficulty[];
/** "Match me", offered beside the levels in the bot dialog, the lobby's bot settings and Quick Start. */
export const MATCH_ME = 'match' as const;
export const BOT_PERSONALITY_COUNT = 3;

export const LOBBY_DEFAULTS = {
  maxPlayers: 4,
  cardsPerPlayer: DEFAULT_CARDS_PER_PLAYER,
  gameSpeed: 'normal',
  allowSpectators: true,
  autoStart: false,
  mode: 'free',
} as const;

/** The client state's bot-game defaults (1 bot, so max players 2). */
export const BOT_GAME_DEFAULTS = {
  numberOfBots: 1,
  botDifficulty: 'normal',
  maxPlayers: 2,
  gameSpeed: 'normal',
  autoStart: true,
  cardsPerPlayer: DEFAULT_CARDS_PER_PLAYER,
} as const;

/** The dashboard bot dialog opens with 2 bots in a 4-seat game. */
export const BOT_DIALOG_DEFAULTS = { ...BOT_GAME_DEFAULTS, numberOfBots: 2, maxPlayers: 4 } as const;

/** Dashboard quick start: bots by difficulty, and one seat for the player. */
export const QUICK_START_BOTS = { easy: 1, normal: 2, hard: 3 } as const;
/** Lobby quick bot game: one bot of any difficulty, two seats, starting by itself. */
export const LOBBY_QUICK_BOT_GAME = { numberOfBots: 1, maxPlayers: 2, autoStart: true } as const;

/** Quick Start "Match me": one bot paced from the player's own recent games. */
export const MATCH_ME_QUICK_START_BOTS = 1;

export function quickStartSettings(difficulty: keyof typeof QUICK_START_BOTS | typeof MATCH_ME) {
  const numberOfBots = difficulty === MATCH_ME ? MATCH_ME_QUICK_START_BOTS : QUICK_START_BOTS[difficulty];
  return { ...BOT_GAME_DEFAULTS, botDifficulty: difficulty, numberOfBots, maxPlayers: numberOfBots + 1 };
}

export const GAME_LIST_LIMIT = 20;
export const GAME_LIST_REFRESH_MS = 30_000;

// ── Real-time connection ─────────────────────────────────────────────────────
/** socket.io transports, in the order the client tries them: websocket, then polling. */
export const SOCKET_TRANSPORTS = ['websocket', 'polling'] as const;
export const SOCKET_RECONNECTION = {
  attempts: 5,
  delayMs: 1000,
  timeoutMs: 20_000,
  /** The client's own limit on one connect attempt. */
  connectTimeoutMs: 15_000,
} as const;

export const JOIN_RETRY = {
  retries: 3,
  delayMs: 1000,
  timeoutMs: 5000,
  connectionWaitMs: 5000,
  /** Only this refusal is worth retrying ("Game not found"): the room may not have reached this node yet. */
  retryOn: 'GAME_NOT_FOUND',
} as const satisfies { readonly retryOn: RefusalCode } & Record<string, unknown>;

// ── Countdown and start ──────────────────────────────────────────────────────
/** The pre-game countdown lasts 5 s (docs/game-rules.md, Lifecycle). */
export const COUNTDOWN_DURATION_MS = 5000;
export const COUNTDOWN_TICK_MS = 1000;
/** GO! shows at zero; completion is signalled this long after. */
export const COUNTDOWN_COMPLETE_AFTER_ZERO_MS = 1000;
export const EMERGENCY_COUNTDOWN_CHECK_MS = 2000;
export const BOT_AUTO_START_DELAY_MS = 1000;

// ── Private games and rematches (docs/privacy.md) ──────────────────
/** Roles that see every game, those with spectators off included (docs/privacy.md). */
export const PRIVATE_GAME_ROLES = ['superadmin', 'admin'] as const;
/** A rematch lobby is held this long for the previous game's players before anyone else may join. */
export const REMATCH_HOLD_MS = 60_000;
/** A rematch may be offered this long after the game's end. */
export const REMATCH_OFFER_WINDOW_MS = 5 * 60_000;
/** A finished game may be offered for a rematch at most this many times (by all its players together). */
export const REMATCH_OFFERS_MAX = 3;
export const MISSING_STATE_FALLBACK_MS = 2000;

/** When each system check of the countdown overlay turns ready. */
export const COUNTDOWN_CHECKS_MS = { discardPiles: 200, playerHands: 600, gameState: 1000 } as const;
export const HUMAN_READY_MS = 800;
/** A bot's readiness in the countdown, by difficulty: 300 ms steps. */
export const BOT_READY_MS: Record<BotDifficulty, number> = { easy: 1000, normal: 1300, hard: 1600, expert: 1900 };
/** Bot AI status delay (initializing → analyzing at 30% → ready); expert continues the steps likewise. */
export const BOT_AI_STATUS_DELAY_MS: Record<BotDifficulty, number> = {
  easy: 500,
  normal: 800,
  hard: 1200,
  expert: 1600,
};
export const BOT_ANALYZING_AT = 0.3;

/** The AI System check: max(1500, bots × 400) in bot games, 1200 otherwise. */
export function aiSystemCheckMs(numberOfBots: number): number {
  return numberOfBots > 0 ? Math.max(1500, numberOfBots * 400) : 1200;
}

// ── In game ──────────────────────────────────────────────────────────────────
/** The client's deadlock ladder, counted from when the player last had a playable card. */
export const DEADLOCK_THRESHOLDS_MS = {
  notice: 5000,
  checkServer: 10_000,
  /** Matches the engine: forcing is allowed after 15 s without a playable card. */
  forceButton: FORCE_DEADLOCK_AFTER_MS,
  autoForce: 20_000,
} as const;
export const DEADLOCK_CHECK_INTERVAL_MS = 1000;
export const DEADLOCK_MODAL_AUTO_CLOSE_MS = 3000;
export const REPEATED_DEADLOCK_WARNING_AT = 3;
export const REPEATED_DEADLOCK_WARNING_MS = 10_000;

export const BOT_ACTIVE_WINDOW_MS = 5000;

export const TOAST_DURATIONS_MS = {
  default: 4000,
  botCardPlayed: 2000,
  botPowerUpUsed: 3000,
  botWin: 5000,
  win: 5000,
  gameStarting: 4000,
  roomCodeCopied: 2000,
} as const;

// ── Leaderboard, profile, tournaments ────────────────────────────────────────
export const LEADERBOARD_LIMIT = 50;
export const LEADERBOARD_SORTS = ['totalPoints', 'gamesWon', 'winRate', 'gamesPlayed'] as const;
/** The four rankings and the Glicko-2 rating of games between people. */
export const RANKING_SORTS = [...LEADERBOARD_SORTS, 'rating'] as const;
export const LEADERBOARD_MEDALS = 3;
export const LEADERBOARD_HIGHLIGHTED = 10;

export const TOURNAMENT_NAME_MAX_LENGTH = 100;
/** A tournament's participant limit, when it has one, lets at least this many join. */
export const TOURNAMENT_MIN_PARTICIPANTS = 2;
export const WINNERS_COUNT = { min: 1, max: 10, default: 3 } as const;
export const MIN_GAMES_REQUIRED = { min: 1, default: 5 } as const;
export const PRIZE_SUM_TOLERANCE = 1;
export const PRIZE_AMOUNT_STEP = 0.01;
/**
 * The largest prize amount (a pool's total or one place's share): it fits the ledger's
 * numeric(20,9) column many times over, and every amount up to it with PRIZE_AMOUNT_DECIMALS
 * decimals survives a trip through JSON and a JavaScript number exactly.
 */
export const MAX_PRIZE_AMOUNT = 1_000_000_000;
export const PRIZE_AMOUNT_DECIMALS = 6;
/** SLAM is the product's native token. */
export const CURRENCIES = ['SLAM', 'SOL'] as const;
export const DEFAULT_CURRENCY = 'SLAM' satisfies (typeof CURRENCIES)[number];
export const SCORING_METHODS = ['totalPoints', 'winRate', 'averageTime', 'gamesWon'] as const;
export const DEFAULT_SCORING_METHOD = 'totalPoints' satisfies (typeof SCORING_METHODS)[number];
/** Only finished games lasting at least this long count towards a tournament (docs/fair-play.md). */
export const TOURNAMENT_MIN_GAME_DURATION_MS = 30_000;
/**
 * docs/fair-play.md: a game counts for a tournament only against people whose account was at least
 * this old when the game started (and not a guest, and not on the player's network).
 */
export const OPPONENT_MIN_ACCOUNT_AGE_MS = 24 * 60 * 60 * 1000;
/** docs/fair-play.md: at most this many games between the same two players count per tournament. */
export const COUNTED_GAMES_PER_OPPONENT = 3;
export const TOURNAMENT_STATUSES = ['upcoming', 'active', 'ended'] as const;
export const ADMIN_NEW_USERS_DAYS = 7;

/** Prize split by winners count, in percent of the pool; above 6 see prizeSplitPercentages(). */
export const PRIZE_SPLIT_PERCENTAGES: Readonly<Record<1 | 2 | 3 | 4 | 5 | 6, readonly number[]>> = {
  1: [100],
  2: [60, 40],
  3: [50, 30, 20],
  4: [40, 25, 20, 15],
  5: [35, 25, 20, 12, 8],
  6: [30, 22, 18, 12, 10, 8],
};

// ── Product facts, tokenomics and layout ─────────────────────────────────────
export const MARKETING = {
  uniqueCards: UNIQUE_CARD_COUNT,
  colors: CARD_COLORS.length,
  memes: CARD_LOGOS.length,
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
  gameMinutes: { min: 2, max: 5 },
} as const;

export const TOKENOMICS = {
  code: 'SLAM',
  totalSupply: 1_000_000_000,
  taxPercent: 1,
  /** Where the 1% tax goes, in percent of the tax. */
  taxSplit: { prizePools: 70, development: 20, marketing: 10 },
} as const;

/** Mobile below 768 px, tablet 768–1023, desktop from 1024. */
export const BREAKPOINTS = { tablet: 768, desktop: 1024 } as const;
export const CONFETTI = { particles: 200, secondBurstMs: 2000 } as const;
export const CARD_SIZES = ['xs', 'sm', 'md', 'lg', 'xl', 'xxl'] as const;
/** A player card shows this many card backs, then "+N". */
export const PLAYER_CARD_BACKS_SHOWN = 8;

// ── Server limits ────────────────────────────────────────────────
export const RATE_LIMITS = {
  loginPerMinute: 10,
  registerPerMinute: 5,
  /** Resend-verification and forgot-password mails per address. */
  mailsPerHour: 3,
  socketEventsPerSecond: 30,
} as const;

/**
 * Ours: bounds on what one client may take, and the ceilings of one server. Per-IP and
 * per-user limits follow the `RATE_LIMITS` switch (on by default; tests and benchmarks turn it off to
 * play many users from one address); the global ceilings and the hashing queue are always on.
 */
export const ABUSE_LIMITS = {
  /** Demo logins (guest accounts) per IP address and hour. */
  guestsPerIpPerHour: 10,
  /**
   * Open sockets per signed-in user. One more connects and the user's oldest socket is closed with
   * `SERVER_TEXTS.replacedByNewerConnection`: a reloaded tab whose old socket has not timed out yet is
   * never locked out.
   */
  socketsPerUser: 5,
  /** Open sockets per IP address; one more is refused at connect (`SERVER_TEXTS.tooManyConnections`). */
  socketsPerIp: 50,
  /**
   * One event budget per user across all their sockets: a token bucket of `userEventBurst` events
   * refilled at `RATE_LIMITS.socketEventsPerSecond` a second.
   */
  userEventBurst: 30,
  /** Games (lobbies and bot games) a user may create a minute; one unfinished game at a time stands. */
  gamesCreatedPerUserPerMinute: 10,
  /** Password-reset attempts per IP address and hour. */
  resetPasswordPerIpPerHour: 10,
  /** Forgot-password mails per IP address and hour, and resend-verification ones (besides 3 per address). */
  mailsPerIpPerHour: 10,
  /**
   * Password checks of a signed-in account (change-password, DELETE /auth/account), right or wrong,
   * per account in `passwordCheckWindowMs`; one more is answered 429 with Retry-After (docs/limits.md).
   */
  passwordChecksPerAccount: 5,
  passwordCheckWindowMs: 15 * 60_000,
  /**
   * Failed sign-ins of one account from all networks together in `loginFailureWindowMs`; past it,
   * only networks that signed into the account before may still try (docs/limits.md).
   */
  loginFailuresPerAccount: 10,
  loginFailureWindowMs: 15 * 60_000,
  /** Server busy: live game rooms on one server (finished rooms count until they are forgotten). */
  maxLiveRooms: 10_000,
  /** Server busy: open sockets on one server. */
  maxSockets: 20_000,
  /** Server busy for HTTP (@fastify/under-pressure): event-loop delay above this answers 503. */
  maxEventLoopDelayMs: 1000,
  /** Password hashes (argon2id) running at once (apps/server/src/auth/passwords.ts). */
  hashesRunning: 2,
  /**
   * The longest wait for a hash a newcomer is let in for: its wait is estimated from the hashes ahead
   * of it, the slots and the measured average hash; beyond this it is answered 503 "Server busy" with
   * Retry-After. 10 s + the hash + the request's writes stay under the flash crowd's 15 s to a session
   * and the web app's 15 s request timeout, with room for an estimate that runs late (docs/limits.md).
   */
  hashWaitMaxMs: 10_000,
} as const;

export const AUTH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const VERIFY_EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TOKEN_TTL_MS = 60 * 60 * 1000;
