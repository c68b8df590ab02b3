/**
 * The database schema (Drizzle pg-core): one schema and one set of migrations for every PostgreSQL, embedded
 * or external. Changing it means `npm run db:generate` and committing the new numbered migration.
 */
import type { BotDifficulty, Command, GameConfig } from '@memeslam/engine';
import { DEFAULT_PREFERENCES, type GameSetup, type TournamentDraft, USER_ROLES } from '@memeslam/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = (name = 'created_at') => timestamp(name, { withTimezone: true }).notNull().defaultNow();

export interface StoredPreferences {
  sound: boolean;
  animations: boolean;
  autoPlay: boolean;
}

/** A tournament's `settings`: the pool's currency and winners count, its rules and featured flag. */
export interface StoredTournamentSettings {
  prizePool: Pick<TournamentDraft['prizePool'], 'currency' | 'winnersCount'>;
  settings: TournamentDraft['settings'];
  isFeatured: boolean;
}

export interface StoredAchievement {
  id: string;
  unlockedAt: string;
}

/** A live game's status (`games.status`). */
export type RoomStatus = 'waiting' | 'starting' | 'active' | 'finished';

export interface Seat {
  /** The user's id, or `bot-{n}` for a bot. */
  readonly playerId: string;
  readonly username: string;
  readonly bot: BotDifficulty | null;
  /** A "Match me" bot's pace (the host's recorded median time per play, ms); the engine's SeatConfig.botPaceMs. */
  readonly botPaceMs?: number | undefined;
  /**
   * A person's seat: the keyed hash of the network they took it from (docs/fair-play.md), recorded with
   * the finished game; never shown. Absent for bots and for seats taken without an address.
   */
  readonly addressKey?: string | null | undefined;
  isReady: boolean;
}

/**
 * A rematch lobby's hold (docs/privacy.md): until `until` (game-clock ms) only these users (the
 * previous game's players) may take a seat; then it is an ordinary lobby.
 */
export interface RematchHold {
  readonly userIds: readonly string[];
  readonly until: number;
}

/** A lobby as stored before the deal (and kept after it, for the host's name and the room's seq). */
export interface StoredLobby {
  readonly hostId: string;
  readonly hostName: string;
  readonly status: RoomStatus;
  readonly seats: readonly Seat[];
  readonly startsAt: number | null;
  readonly autoStartAt: number | null;
  readonly seq: number;
  /** Wall time of the write, to shift the countdown by the time the server was down. */
  readonly savedAt: number;
  /** A rematch lobby's hold while it runs (absent in rows written before rematch holds existed). */
  readonly hold?: RematchHold | null;
}

/** From the deal on: what the engine needs to rebuild the game from its log. */
export interface StoredHeader {
  readonly config: GameConfig;
  /** Wall clock − game clock at the deal. */
  readonly clockOffset: number;
}

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    /** argon2id; null for a guest account. */
    passwordHash: text('password_hash'),
    role: text('role', { enum: USER_ROLES }).notNull().default('user'),
    isGuest: boolean('is_guest').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Raised by logout and password changes: tokens carrying an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    preferences: jsonb('preferences')
      .$type<StoredPreferences>()
      .notNull()
      .default({ ...DEFAULT_PREFERENCES }),
    gamesPlayed: integer('games_played').notNull().default(0),
    gamesWon: integer('games_won').notNull().default(0),
    totalPoints: integer('total_points').notNull().default(0),
    /** Seconds of the fastest win. */
    fastestGame: integer('fastest_game'),
    botGamesPlayed: integer('bot_games_played').notNull().default(0),
    /** Seconds, summed over finished games, for the average. */
    totalGameSeconds: integer('total_game_seconds').notNull().default(0),
    /**
     * The person's median time per play (ms) in each of their last games (at most MATCH_HISTORY_GAMES,
     * oldest first): "Match me" paces its bots by their median.
     */
    playPaces: jsonb('play_paces').$type<number[]>().notNull().default([]),
    achievements: jsonb('achievements').$type<StoredAchievement[]>().notNull().default([]),
    /** Glicko-2 over games between people (engine's rating.ts); a new player's is 1500 ± 350. */
    rating: doublePrecision('rating').notNull().default(1500),
    ratingDeviation: doublePrecision('rating_deviation').notNull().default(350),
    ratingVolatility: doublePrecision('rating_volatility').notNull().default(0.06),
    ratedGames: integer('rated_games').notNull().default(0),
    solanaAddress: text('solana_address'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_key').on(t.email),
    // One account per verified wallet (NULLs, the unverified, do not collide).
    uniqueIndex('users_solana_address_key').on(t.solanaAddress),
  ],
);

/**
 * How many times any user's token version has changed or an account has gone: one row (`id` 1), raised
 * by triggers on `users` (migration 0010) in the same transaction as the change, so every writer (any
 * node, `npm run admin`) raises it. A node trusts the versions it holds while this stays put
 * (auth/token-versions.ts). The row is made by the first raise: a new database has none (epoch 0).
 */
export const tokenEpoch = pgTable('token_epoch', {
  id: integer('id').primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull(),
});

/** Verification and password-reset links: only a hash of the token is kept. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify-email', 'reset-password'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_tokens_hash_key').on(t.tokenHash), index('email_tokens_user_idx').on(t.userId)],
);

/** The dev outbox: mail that would have gone out, when no SMTP_URL is set. */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  link: text('link'),
  createdAt: createdAt(),
});

export const games = pgTable(
  'games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomCode: text('room_code').notNull(),
    status: text('status', { enum: ['waiting', 'starting', 'active', 'finished'] })
      .notNull()
      .default('waiting'),
    hostId: uuid('host_id').references(() => users.id, { onDelete: 'set null' }),
    isBotGame: boolean('is_bot_game').notNull().default(false),
    /** Lobby settings: max players, speed, cards per player, bots, privacy. */
    settings: jsonb('settings').$type<GameSetup>().notNull(),
    seed: text('seed'),
    seedCommitment: text('seed_commitment'),
    /** A lobby's seats, host, ready flags and countdown, rewritten on each change before the deal. */
    lobby: jsonb('lobby').$type<StoredLobby>(),
    /** From the deal: the engine's config (seed, seats, cards, speed, start) and the clock offset. */
    header: jsonb('header').$type<StoredHeader>(),
    /** Set when the game could not be rebuilt from its log at start-up: it is set aside, not retried. */
    restoreError: text('restore_error'),
    /**
     * Cluster mode's fencing epoch: raised each time a node takes the game over. A write carries its
     * node's epoch and is refused unless it is still this one, so a node that lost the game cannot
     * append to its log or record it.
     */
    ownerEpoch: integer('owner_epoch').notNull().default(0),
    /** How many times a player of this finished game has offered a rematch of it (docs/fair-play.md). */
    rematchOffers: integer('rematch_offers').notNull().default(0),
    winnerId: uuid('winner_id').references(() => users.id, { onDelete: 'set null' }),
    endReason: text('end_reason'),
    durationMs: integer('duration_ms'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('games_open_room_code_key')
      .on(t.roomCode)
      .where(sql`${t.status} <> 'finished'`),
    index('games_status_idx').on(t.status),
  ],
);

/**
 * A live game's durable form after the deal: every timestamped command the engine applied and every
 * timer step (`command` null), in order. Replaying it through the engine rebuilds the game; it is
 * deleted by the transaction that records the finished game (the replay keeps the commands).
 *
 * `game_id` names a row of `games` but is not a foreign key (migration 0009): a key made every log
 * row check its game's row and lock it (`FOR KEY SHARE`, itself written to the WAL), which cost the
 * group commit a third of its database CPU and a sixth of its WAL (README, "Server benchmark").
 * Nothing needs it: a game's row is written before its room takes a step, and no game row is
 * ever deleted.
 */
export const gameLog = pgTable(
  'game_log',
  {
    gameId: uuid('game_id').notNull(),
    n: integer('n').notNull(),
    /** Game-clock milliseconds. */
    at: doublePrecision('at').notNull(),
    /** The room's broadcast seq after this step, so a restored room never reuses a number. */
    seq: integer('seq').notNull(),
    /** The command the engine applied; null for a timer step. */
    command: jsonb('command').$type<Command>(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.n] })],
);

/** A seat of a game; a deleted account's seat stays, anonymised (user_id null). */
export const gamePlayers = pgTable(
  'game_players',
  {
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    seat: integer('seat').notNull(),
    /** The engine's player id: the user's id, a bot's own id, or `deleted-{seat}` once anonymised. */
    playerId: text('player_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    isBot: boolean('is_bot').notNull().default(false),
    botDifficulty: text('bot_difficulty'),
    place: integer('place'),
    cardsLeft: integer('cards_left'),
    cardsPlayed: integer('cards_played'),
    powerUpsUsed: integer('power_ups_used'),
    points: integer('points'),
    forfeited: boolean('forfeited').notNull().default(false),
    /** Whether the seat's account was a guest when it sat down (docs/fair-play.md). */
    wasGuest: boolean('was_guest').notNull().default(false),
    /**
     * A keyed hash of the network the seat's player connected from (IPv4 address, IPv6 /64), so that
     * players seen from one network can be told apart from strangers without keeping the address.
     */
    addressKey: text('address_key'),
    /** A rated game (people only): the player's rating before it, and rating and deviation after it. */
    ratingBefore: doublePrecision('rating_before'),
    ratingAfter: doublePrecision('rating_after'),
    deviationAfter: doublePrecision('deviation_after'),
    joinedAt: createdAt('joined_at'),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.seat] }), index('game_players_user_idx').on(t.userId)],
);

/** Seed and timestamped commands: enough to re-run a finished game. */
export const replays = pgTable('replays', {
  gameId: uuid('game_id')
    .primaryKey()
    .references(() => games.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<GameConfig>().notNull(),
  commands: jsonb('commands').$type<{ at: number; command: Command }[]>().notNull(),
  createdAt: createdAt(),
});

/** Balance and totalWon are sums of this ledger; a reference makes a credit happen once. */
export const walletLedger = pgTable(
  'wallet_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency', { enum: ['SLAM', 'SOL'] }).notNull(),
    amount: numeric('amount', { precision: 20, scale: 9 }).notNull(),
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('wallet_ledger_reference_key').on(t.userId, t.kind, t.reference)],
);

export const tournaments = pgTable('tournaments', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  startDate: timestamp('start_date', { withTimezone: true }).notNull(),
  endDate: timestamp('end_date', { withTimezone: true }).notNull(),
  /** Everything else of the admin form: currency, winners count, scoring, rules, featured. */
  settings: jsonb('settings').$type<StoredTournamentSettings>().notNull(),
  /** The prize pool and each place's prize (index 0: first place), exact decimals. */
  prizeTotal: numeric('prize_total').notNull(),
  prizeAmounts: numeric('prize_amounts').array().notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  paidOutAt: timestamp('paid_out_at', { withTimezone: true }),
  /** The last failed payout attempt (cleared when one succeeds): admins see it on the statistics tab. */
  payoutError: text('payout_error'),
  payoutFailedAt: timestamp('payout_failed_at', { withTimezone: true }),
  payoutAttempts: integer('payout_attempts').notNull().default(0),
  createdAt: createdAt(),
});

export const tournamentParticipants = pgTable(
  'tournament_participants',
  {
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: createdAt('joined_at'),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.userId] })],
);

/** Every admin action (tournament create/cancel, payout, role change): who did it, to what, when. */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The actor's name when it acted (kept when the account goes). */
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    /** What it acted on: a tournament's or a user's id. */
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_created_idx').on(t.createdAt)],
);

/**
 * The networks (networkOf: IPv4 whole, IPv6 its /64) an account has signed in from with its password:
 * once an account's failed sign-ins from everywhere pass ABUSE_LIMITS.loginFailuresPerAccount, only
 * these may still try (docs/limits.md). Gone with the account.
 */
export const loginNetworks = pgTable(
  'login_networks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    lastLoginAt: createdAt('last_login_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.network] })],
);
