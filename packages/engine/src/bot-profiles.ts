/**
 * Who a bot is and how fast it moves: the profiles by difficulty, a "Match me" bot's profile from a
 * person's pace, and the seeded log-normal times of a look and of a reaction. Imports no rules, so
 * the rules can time a bot's reaction without a circle (bots.ts decides what a bot does).
 */
import { type BotDifficulty, type GameSpeed, SPEED_TABLE } from './constants.ts';
import type { Random } from './rng.ts';
import type { PlayerState } from './types.ts';

/** How a bot plays. Times are medians at normal speed; the speed factor scales them. */
export interface BotProfile {
  /** Median time from one play to the next (log-normal around it). */
  readonly paceMs: number;
  /** Median time before a new top card that makes a hand card playable is "seen" (log-normal). */
  readonly reactionMs: number;
  /** Chance of not seeing a playable card at a look (the next look comes a play's time later). */
  readonly overlook: number;
  /** Chooses its pile and card (keeps its own next cards playable, leaves opponents poor tops). */
  readonly choosesPiles: boolean;
  /** Keeps power-ups for the moment they matter (see tacticalPowerUp); otherwise plays them loosely. */
  readonly tactical: boolean;
  /** Chance per look of firing a random power-up for no reason (a human mistake). */
  readonly wastedPowerUp: number;
  /** Loose players who still go after the leader: Freeze or Reversal on them now and then, when behind. */
  readonly chasesLeader: boolean;
  /** Stuck this long, a loose player reaches for a helpful power-up (half the time); a tactical one sooner. */
  readonly stuckPatienceMs: number;
}

/**
 * The ladder, tuned against the human models of `bench/` (the ladder's bands: 1 human against 1 bot, normal
 * speed, 30 cards, the casual human at a median 2.2 s per play wins about 90% against easy, 65%
 * against normal, 40% against hard and 15% against expert). Bots paced on a fixed
 * beat (easy 5000, normal 4200, hard 2200, expert 1400 ms between actions): a faster bot then won
 * 99.8–100% of head-to-head games and hard/expert froze the human in the first seconds. So a bot
 * plays like a person: a log-normal time per play around its pace, a reaction time before it sees a
 * new top card while it waits, overlooked cards, and (easy, normal) a wasted power-up now and then;
 * hard and expert choose their piles and keep power-ups for when they matter. The numbers below are
 * the ones measured by `npm run ladder` to land in the bands (README, "Bot ladder"). The paces
 * are close on purpose (hard's is even a little slower than normal's): with paces far apart the faster
 * bot always wins and each level is either "can't lose" or "can't win" for a person; reaction,
 * overlooks, pile choice and power-ups make the difference, and keep the levels strictly ordered.
 */
export const BOT_PROFILES: Record<BotDifficulty, BotProfile> = {
  easy: {
    paceMs: 2450,
    reactionMs: 1500,
    overlook: 0.15,
    choosesPiles: false,
    tactical: false,
    wastedPowerUp: 0.04,
    chasesLeader: false,
    stuckPatienceMs: 6000,
  },
  normal: {
    paceMs: 2350,
    reactionMs: 1100,
    overlook: 0.1,
    choosesPiles: false,
    tactical: false,
    wastedPowerUp: 0.015,
    chasesLeader: true,
    stuckPatienceMs: 4000,
  },
  hard: {
    paceMs: 2420,
    reactionMs: 750,
    overlook: 0.04,
    choosesPiles: true,
    tactical: true,
    wastedPowerUp: 0,
    chasesLeader: true,
    stuckPatienceMs: 2500,
  },
  expert: {
    paceMs: 2250,
    reactionMs: 500,
    overlook: 0.01,
    choosesPiles: true,
    tactical: true,
    wastedPowerUp: 0,
    chasesLeader: true,
    stuckPatienceMs: 1500,
  },
};

/** Spread of the log-normal times (sigma of the underlying normal); draws are kept within ±2.5 sigma. */
export const PACE_SIGMA = 0.35;
export const REACTION_SIGMA = 0.3;

/** exp(sigma·z) · median with z standard normal (Box–Muller on the seeded PRNG), z kept in ±2.5. */
export function logNormal(random: Random, median: number, sigma: number): number {
  const u = 1 - random.float();
  const v = random.float();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return median * Math.exp(sigma * Math.max(-2.5, Math.min(2.5, z)));
}

export function profileOf(p: PlayerState): BotProfile {
  return seatProfile(p.bot as BotDifficulty, p.botPaceMs ?? undefined);
}

/** A seat's bot profile: its difficulty's, or for a "Match me" bot the one matched to a person's pace. */
export function seatProfile(difficulty: BotDifficulty, botPaceMs: number | undefined): BotProfile {
  return botPaceMs === undefined ? BOT_PROFILES[difficulty] : matchProfile(botPaceMs);
}

/** The measured medians a "Match me" bot accepts (a person's time per play, as `medianPlayInterval` measures it). */
export const MATCH_PACE_RANGE_MS: readonly [number, number] = [800, 15_000];

export function validMatchPace(ms: number): boolean {
  return Number.isFinite(ms) && ms >= (MATCH_PACE_RANGE_MS[0] as number) && ms <= (MATCH_PACE_RANGE_MS[1] as number);
}

/**
 * A person's median time per play in one game: the median of the intervals between their consecutive
 * card plays (what a person's game log shows; it includes waiting for a playable top and freezes, so
 * it is longer than the model's "time per play"). Null with fewer than 3 intervals.
 */
export function medianPlayInterval(playTimes: readonly number[]): number | null {
  const sorted = [...playTimes].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let k = 1; k < sorted.length; k += 1) gaps.push((sorted[k] as number) - (sorted[k - 1] as number));
  if (gaps.length < 3) return null;
  gaps.sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  return gaps.length % 2 === 1 ? (gaps[mid] as number) : ((gaps[mid - 1] as number) + (gaps[mid] as number)) / 2;
}

/** How many of a person's last games their recorded pace keeps. */
export const MATCH_HISTORY_GAMES = 10;
/** The pace assumed for a person with no recorded game: a casual player's measured median. */
export const DEFAULT_MATCH_PACE_MS = 2400;

/** A person's recorded pace: the median of their last games' medians (`MATCH_HISTORY_GAMES` at most). */
export function recordedPace(gameMedians: readonly number[]): number {
  const last = gameMedians.slice(-MATCH_HISTORY_GAMES);
  if (last.length === 0) return DEFAULT_MATCH_PACE_MS;
  const sorted = [...last].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(Math.min(MATCH_PACE_RANGE_MS[1] as number, Math.max(MATCH_PACE_RANGE_MS[0] as number, median)));
}

/**
 * "Match me": a bot for an even game against a person whose recorded median time per play is
 * `medianMsPerPlay`. It plays like a person of that pace (normal's loose skill: any playable pile,
 * Freeze/Reversal on a leader now and then, helpful power-ups when stuck), with its pace and reaction
 * scaled to the person's; the factors are calibrated by `npm run ladder` (the person's win rate within
 * 40–60% after 5 games, for the quick, casual and beginner models).
 */
export function matchProfile(medianMsPerPlay: number): BotProfile {
  const ms = Math.min(MATCH_PACE_RANGE_MS[1] as number, Math.max(MATCH_PACE_RANGE_MS[0] as number, medianMsPerPlay));
  return {
    paceMs: Math.round(ms * (MATCH_PACE_FACTOR - MATCH_PACE_SLOPE * (ms / 1000 - 1.5))),
    reactionMs: Math.round(ms * MATCH_REACTION_FACTOR),
    overlook: Math.min(0.25, Math.max(0.02, 0.055 * (ms / 1000 - 1))),
    choosesPiles: false,
    tactical: false,
    wastedPowerUp: 0.01,
    chasesLeader: true,
    stuckPatienceMs: Math.round(ms * 1.5),
  };
}
// The bot's pace is about the person's measured one: a little slower for quick people, a little faster
// for slow ones (whose measured median holds more waiting, which the bot's own reaction already adds).
const MATCH_PACE_FACTOR = 0.99;
const MATCH_PACE_SLOPE = 0.03;
const MATCH_REACTION_FACTOR = 0.4;

/**
 * The difficulty a "Match me" bot carries as its label (shown beside it, and the points factor of a bot
 * game): the level a person of that measured pace finds about even. Measured medians of the human
 * models: quick about 1.5 s, casual 2.4 s, beginner 4.1 s.
 */
export function matchLabel(medianMsPerPlay: number): BotDifficulty {
  if (medianMsPerPlay < 1900) return 'expert';
  if (medianMsPerPlay < 2200) return 'hard';
  if (medianMsPerPlay < 3200) return 'normal';
  return 'easy';
}

/** The time a bot takes for one play, at the game's speed. */
export function paceDelay(random: Random, profile: BotProfile, speed: GameSpeed): number {
  return Math.round(logNormal(random, profile.paceMs, PACE_SIGMA) * SPEED_TABLE[speed].botReactionFactor);
}

/** The time a bot takes to see a new top card (or the board after a thaw), at the game's speed. */
export function reactionDelay(random: Random, profile: BotProfile, speed: GameSpeed): number {
  return Math.round(logNormal(random, profile.reactionMs, REACTION_SIGMA) * SPEED_TABLE[speed].botReactionFactor);
}

export function firstBotActionAt(random: Random, profile: BotProfile, speed: GameSpeed, startAt: number): number {
  return startAt + paceDelay(random, profile, speed);
}
