/**
 * Tournaments (docs/http-api.md, Tournaments; docs/fair-play.md): the tournament and its live leaderboard as the client
 * reads them, and the admin form's creation payload with the form's validation rules and texts.
 */
import * as z from 'zod';
import {
  DEFAULT_CURRENCY,
  DEFAULT_SCORING_METHOD,
  MAX_PRIZE_AMOUNT,
  MIN_GAMES_REQUIRED,
  SCORING_METHODS,
  TOURNAMENT_MIN_PARTICIPANTS,
  TOURNAMENT_NAME_MAX_LENGTH,
  TOURNAMENT_STATUSES,
  WINNERS_COUNT,
} from './constants.ts';
import { TOURNAMENT_TEXTS as T } from './game-texts.ts';
import {
  clampWinnersCount,
  hasPrizePrecision,
  prizeDistributionFor,
  prizeDistributionMatches,
  type PrizePosition,
} from './prizes.ts';
import { countSchema, currencySchema, idSchema, isoDateSchema, type Currency } from './primitives.ts';
import { strictBody } from './validation.ts';

export const scoringMethodSchema = z.enum(SCORING_METHODS);
export type ScoringMethod = z.infer<typeof scoringMethodSchema>;
export const tournamentStatusSchema = z.enum(TOURNAMENT_STATUSES);
export type TournamentStatus = z.infer<typeof tournamentStatusSchema>;

/** A prize amount: at most MAX_PRIZE_AMOUNT, with at most PRIZE_AMOUNT_DECIMALS decimals (stored exactly). */
const prizeAmountSchema = z
  .number({ error: T.prizeAmountInvalid })
  .min(0, T.prizeAmountInvalid)
  .max(MAX_PRIZE_AMOUNT, T.prizeAmountTooLarge)
  .refine(hasPrizePrecision, T.prizeAmountPrecision);

export const prizePositionSchema = z.object({
  position: z.number({ error: T.prizeDistributionLength }).int().min(1),
  amount: prizeAmountSchema,
});

export const tournamentSettingsSchema = z.object({
  /** null: unlimited. */
  maxParticipants: z.number().int().min(TOURNAMENT_MIN_PARTICIPANTS).nullable(),
  minGamesRequired: z.number().int().min(MIN_GAMES_REQUIRED.min),
  scoringMethod: scoringMethodSchema,
  allowBots: z.boolean(),
  requireVerifiedSolana: z.boolean(),
});
export type TournamentSettings = z.infer<typeof tournamentSettingsSchema>;

export const prizePoolSchema = z.object({
  totalAmount: prizeAmountSchema.refine((n) => n > 0),
  currency: currencySchema,
  winnersCount: z.number().int().min(WINNERS_COUNT.min).max(WINNERS_COUNT.max),
  distribution: z.array(prizePositionSchema),
});
export type PrizePool = z.infer<typeof prizePoolSchema>;

export const tournamentSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  /** Follows the clock: upcoming before startDate, active until endDate, then ended. */
  status: tournamentStatusSchema,
  startDate: isoDateSchema,
  endDate: isoDateSchema,
  /** ms until endDate (0 once ended). */
  timeRemaining: countSchema,
  /** ms until startDate (0 once started), for "starts in". */
  startsIn: countSchema,
  participantCount: countSchema,
  prizePool: prizePoolSchema,
  settings: tournamentSettingsSchema,
  isFeatured: z.boolean(),
  /** Whether the asking user has joined; absent when signed out. */
  isJoined: z.boolean().optional(),
  createdAt: isoDateSchema,
});
export type Tournament = z.infer<typeof tournamentSchema>;

export const tournamentLeaderboardEntrySchema = z.object({
  userId: idSchema,
  position: z.number().int().min(1),
  username: z.string(),
  /** By scoringMethod: total points, games won, win rate, or average seconds (lower is better). */
  tournamentValue: z.number(),
  /** The games of the tournament's window. */
  improvement: z.object({ gamesPlayed: countSchema, gamesWon: countSchema }),
  /** Within the winners count ("Prize Winner!"). */
  isPrizeWinner: z.boolean(),
  prizeAmount: z.number().nullable(),
});
export type TournamentLeaderboardEntry = z.infer<typeof tournamentLeaderboardEntrySchema>;

/**
 * Why a finished game of a participant did not count, in the order they are judged:
 * the first that applies is the one reported. Texts: TOURNAMENT_TEXTS.uncounted.
 */
export const UNCOUNTED_REASONS = [
  'botsNotAllowed',
  'outsideWindow',
  'aborted',
  'tooShort',
  // docs/fair-play.md: who the game was against.
  'opponentGuest',
  'opponentNewAccount',
  'sameNetwork',
  'pairLimit',
] as const;
export const uncountedReasonSchema = z.enum(UNCOUNTED_REASONS);
export type UncountedReason = z.infer<typeof uncountedReasonSchema>;
/** How many uncounted games the standing lists. */
export const RECENT_UNCOUNTED_GAMES = 5;

export const uncountedGameSchema = z.object({
  gameId: idSchema,
  endedAt: isoDateSchema,
  reason: uncountedReasonSchema,
});
export type UncountedGame = z.infer<typeof uncountedGameSchema>;

/** GET /tournaments/:id/me: where the asking user stands. */
export const tournamentStandingSchema = z.object({
  joined: z.boolean(),
  /** On the leaderboard once the player has minGamesRequired counted games; null before. */
  position: z.number().int().min(1).nullable(),
  /** By scoringMethod, as on the leaderboard; null while not joined. */
  tournamentValue: z.number().nullable(),
  /** The prize at the current position, when it is within the winners count. */
  prizeAmount: z.number().nullable(),
  gamesCounted: countSchema,
  gamesWon: countSchema,
  minGamesRequired: z.number().int().min(1),
  /** Games finished since the player's last counted one that did not count, newest first. */
  recentUncounted: z.array(uncountedGameSchema).max(RECENT_UNCOUNTED_GAMES),
});
export type TournamentStanding = z.infer<typeof tournamentStandingSchema>;

// ── Creation ─────────────────────────────────────────────────────────────────

/** The form's number inputs may arrive as text; blank text counts as missing. */
function numberLike(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return text === '' ? undefined : Number.isNaN(Number(text)) ? value : Number(text);
}
const amountField = z.preprocess(numberLike, z.number({ error: T.prizeAmountRequired }).optional());
const countField = (message: string) => z.preprocess(numberLike, z.number({ error: message }).optional());
/** null or blank: unlimited. */
const maxParticipantsField = z.preprocess(
  (v) => (v === '' ? null : numberLike(v)),
  z
    .number({ error: T.maxParticipants })
    .int(T.maxParticipants)
    .min(TOURNAMENT_MIN_PARTICIPANTS, T.maxParticipants)
    .nullable()
    .optional(),
);
const dateField = z.string({ error: T.invalidDate }).optional();
const distributionField = z.array(prizePositionSchema).optional();
const scoring = {
  maxParticipants: maxParticipantsField,
  minGamesRequired: countField(T.minGamesRequired),
  scoringMethod: scoringMethodSchema.optional(),
  allowBots: z.boolean().optional(),
  requireVerifiedSolana: z.boolean().optional(),
};

/** A date as the form sends it; one without an offset is read as UTC so every server agrees. */
const DATE_TIME = z.iso.datetime({ offset: true, local: true });
function parseDate(text: string | undefined): Date | 'missing' | 'invalid' {
  if (text === undefined || text.trim() === '') return 'missing';
  const trimmed = text.trim();
  if (!DATE_TIME.safeParse(trimmed).success) return 'invalid';
  const date = new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(trimmed) ? trimmed : `${trimmed}Z`);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/** What the server stores: one shape, every default applied, every rule checked. */
export interface TournamentDraft {
  readonly name: string;
  readonly description: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly prizePool: {
    readonly totalAmount: number;
    readonly currency: Currency;
    readonly winnersCount: number;
    readonly distribution: readonly PrizePosition[];
  };
  readonly settings: TournamentSettings;
  readonly isFeatured: boolean;
}

/**
 * POST /tournaments. The admin form sends its fields flat and again nested as prizePool and
 * settings; either alone is enough. Where both carry a field they must agree.
 */
export const createTournamentSchema = strictBody({
  name: z.string({ error: T.nameRequired }).optional(),
  description: z.string().max(2000).optional(),
  startDate: dateField,
  endDate: dateField,
  currency: currencySchema.optional(),
  totalAmount: amountField,
  winnersCount: countField(T.winnersCountInvalid),
  prizeDistribution: distributionField,
  isFeatured: z.boolean().optional(),
  ...scoring,
  prizePool: strictBody({
    totalAmount: amountField,
    currency: currencySchema.optional(),
    distribution: distributionField,
    winnersCount: countField(T.winnersCountInvalid),
  }).optional(),
  settings: strictBody(scoring).optional(),
}).transform((input, ctx): TournamentDraft => {
  let failed = false;
  const issue = (path: string[], message: string) => {
    failed = true;
    ctx.addIssue({ code: 'custom', path, message, input });
  };
  /** The nested value wins; a flat value that says otherwise is an error. */
  function merge<V>(flat: V | undefined, nested: V | undefined, path: string[]): V | undefined {
    if (flat !== undefined && nested !== undefined && JSON.stringify(flat) !== JSON.stringify(nested)) {
      issue(path, T.conflictingFields);
    }
    return nested ?? flat;
  }
  const pool = input.prizePool;
  const set = input.settings;

  const name = input.name?.trim() ?? '';
  if (name === '') issue(['name'], T.nameRequired);
  else if (name.length > TOURNAMENT_NAME_MAX_LENGTH) issue(['name'], T.nameTooLong);
  const start = parseDate(input.startDate);
  const end = parseDate(input.endDate);
  if (start === 'missing') issue(['startDate'], T.startDateRequired);
  if (start === 'invalid') issue(['startDate'], T.invalidDate);
  if (end === 'missing') issue(['endDate'], T.endDateRequired);
  if (end === 'invalid') issue(['endDate'], T.invalidDate);
  if (start instanceof Date && end instanceof Date && end <= start) issue(['endDate'], T.endAfterStart);

  const totalAmount = merge(input.totalAmount, pool?.totalAmount, ['prizePool', 'totalAmount']) ?? 0;
  const totalPositive = Number.isFinite(totalAmount) && totalAmount > 0;
  if (!totalPositive) issue(['totalAmount'], T.prizeAmountRequired);
  else if (totalAmount > MAX_PRIZE_AMOUNT) issue(['totalAmount'], T.prizeAmountTooLarge);
  else if (!hasPrizePrecision(totalAmount)) issue(['totalAmount'], T.prizeAmountPrecision);
  const totalOk = totalPositive && totalAmount <= MAX_PRIZE_AMOUNT && hasPrizePrecision(totalAmount);
  const given = merge(input.prizeDistribution, pool?.distribution, ['prizePool', 'distribution']);
  const requestedWinners = merge(input.winnersCount, pool?.winnersCount, ['prizePool', 'winnersCount']);
  const winnersCount = clampWinnersCount(requestedWinners ?? given?.length ?? WINNERS_COUNT.default);
  const positions = (given ?? []).map((p) => p.position).sort((a, b) => a - b);
  if (given && (given.length !== winnersCount || positions.some((p, i) => p !== i + 1))) {
    issue(['prizeDistribution'], T.prizeDistributionLength);
  } else if (given && totalOk && !prizeDistributionMatches(totalAmount, given)) {
    issue(['prizeDistribution'], T.prizeDistributionMismatch);
  }

  const minGames = merge(input.minGamesRequired, set?.minGamesRequired, ['settings', 'minGamesRequired']);
  if (minGames !== undefined && !(Number.isInteger(minGames) && minGames >= MIN_GAMES_REQUIRED.min)) {
    issue(['minGamesRequired'], T.minGamesRequired);
  }
  const settings: TournamentSettings = {
    maxParticipants: merge(input.maxParticipants, set?.maxParticipants, ['settings', 'maxParticipants']) ?? null,
    minGamesRequired: minGames ?? MIN_GAMES_REQUIRED.default,
    scoringMethod:
      merge(input.scoringMethod, set?.scoringMethod, ['settings', 'scoringMethod']) ?? DEFAULT_SCORING_METHOD,
    allowBots: merge(input.allowBots, set?.allowBots, ['settings', 'allowBots']) ?? false,
    requireVerifiedSolana:
      merge(input.requireVerifiedSolana, set?.requireVerifiedSolana, ['settings', 'requireVerifiedSolana']) ?? false,
  };
  const currency = merge(input.currency, pool?.currency, ['prizePool', 'currency']) ?? DEFAULT_CURRENCY;
  if (failed || !(start instanceof Date) || !(end instanceof Date)) return z.NEVER;
  return {
    name,
    description: input.description?.trim() ?? '',
    startDate: start.toISOString(),
    endDate: end.toISOString(),
    prizePool: {
      totalAmount,
      currency,
      winnersCount,
      distribution: given
        ? [...given].sort((a, b) => a.position - b.position)
        : prizeDistributionFor(totalAmount, winnersCount),
    },
    settings,
    isFeatured: input.isFeatured ?? false,
  };
});
export type CreateTournamentRequest = z.input<typeof createTournamentSchema>;
