import { boardCoverage, type Card, matches } from './cards.ts';
import { type BotDifficulty, type GameSpeed, type PowerUpType, POWER_UP_TYPES, SPEED_TABLE } from './constants.ts';
import type { Draft } from './draft.ts';
import { executePowerUp, opponentsOf, powerUpProblem } from './powerups.ts';
import type { Random } from './rng.ts';
import { cardsLeft } from './ranking.ts';
import { isFrozen, placeCard, playableMoves } from './rules.ts';
import type { PlayerState, PowerUpTarget } from './types.ts';

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
 * The ladder, tuned against the human models of `bench/` (issue 12: 1 human against 1 bot, normal
 * speed, 30 cards, the casual human at a median 2.2 s per play wins about 90% against easy, 65%
 * against normal, 40% against hard and 15% against expert). DESIGN §2 first paced bots on a fixed
 * beat (easy 5000, normal 4200, hard 2200, expert 1400 ms between actions): a faster bot then won
 * 99.8–100% of head-to-head games and hard/expert froze the human in the first seconds. Now a bot
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
/** No bot uses a power-up in a game's first 10 s (issue 12: no opening freeze). */
export const NO_POWER_UP_OPENING_MS = 10_000;
/** No bot freezes a player who was frozen less than 20 s ago. */
export const REFREEZE_AFTER_MS = 20_000;
/** Tactical bots reverse when the leader has at most this many cards left (and fewer than they). */
export const NEAR_WIN_CARDS = 6;
/** Tactical bots keep Freeze until the leader has at most this many cards left: then it matters. */
export const FREEZE_WHEN_LEADER_AT = 15;
/** Normal goes after the leader less sharply: at a third of its looks, Freeze at 10 cards, Reversal at 4. */
const LOOSE_CHASE_CHANCE = 0.33;
const LOOSE_FREEZE_WHEN_LEADER_AT = 10;
const LOOSE_REVERSAL_WHEN_LEADER_AT = 4;

/** exp(sigma·z) · median with z standard normal (Box–Muller on the seeded PRNG), z kept in ±2.5. */
export function logNormal(random: Random, median: number, sigma: number): number {
  const u = 1 - random.float();
  const v = random.float();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return median * Math.exp(sigma * Math.max(-2.5, Math.min(2.5, z)));
}

function profileOf(p: PlayerState): BotProfile {
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

/**
 * A waiting bot (no playable card) that gets one, through someone's play, a whirlwind, a deadlock's
 * new tops or its own power-up, sees it after its reaction time rather than at its next look.
 * Called by refreshDerived when the player's stuck time ends.
 */
export function botSeesNewTop(d: Draft, i: number): void {
  const p = d.peek(i);
  if (p.bot === null || p.nextBotActionAt === null || isFrozen(p, d.clock)) return;
  const at = d.clock + reactionDelay(d.random, profileOf(p), d.base.config.speed);
  if (at < p.nextBotActionAt) d.player(i).nextBotActionAt = at;
}

interface PowerUpChoice {
  readonly type: PowerUpType;
  readonly target: PowerUpTarget;
}

/** One look of a bot at its scheduled time: maybe a power-up, otherwise maybe a card; then the next look. */
export function botAct(d: Draft, i: number): void {
  const bot = d.peek(i);
  const profile = profileOf(bot);
  const speed = d.base.config.speed;
  if (isFrozen(bot, d.clock)) {
    d.player(i).nextBotActionAt = (bot.frozenUntil as number) + reactionDelay(d.random, profile, speed);
    return;
  }
  const moves = playableMoves(d, i);
  const choice = choosePowerUp(d, i, profile, moves.length > 0);
  if (choice && powerUpProblem(d, i, choice.type, choice.target) === null) {
    executePowerUp(d, i, choice.type, choice.target);
  } else if (moves.length > 0 && d.random.float() >= profile.overlook) {
    const move = profile.choosesPiles ? bestMove(d, i, moves) : (d.random.pick(moves) as (typeof moves)[number]);
    placeCard(d, i, { from: 'hand', index: move.handIndex }, move.pileIndex);
  }
  // Stuck, it looks again a play's time later, unless a new top makes it playable first (botSeesNewTop).
  if (d.status === 'active') d.player(i).nextBotActionAt = d.clock + paceDelay(d.random, profile, speed);
}

function available(d: Draft, i: number): PowerUpType[] {
  const used = d.peek(i).powerUpsUsed;
  return POWER_UP_TYPES.filter((t) => !used.includes(t));
}

/** Whether a bot may freeze this player now: not frozen, and not frozen in the last 20 s. */
export function freezable(p: PlayerState, now: number): boolean {
  return !isFrozen(p, now) && (p.lastFrozenAt === null || now - p.lastFrozenAt >= REFREEZE_AFTER_MS);
}

function stuckFor(d: Draft, i: number): number {
  const since = d.peek(i).stuckSince;
  return since === null ? 0 : d.clock - since;
}

/** The power-up a bot uses at this look, if any. Never in the opening 10 s. */
export function choosePowerUp(d: Draft, i: number, profile: BotProfile, canPlay: boolean): PowerUpChoice | null {
  // Checked by count first: most looks decide against a power-up, and should not allocate.
  if (d.peek(i).powerUpsUsed.length >= POWER_UP_TYPES.length) return null;
  if (d.clock - d.base.startedAt < NO_POWER_UP_OPENING_MS) return null;
  if (profile.tactical) return tacticalPowerUp(d, i, available(d, i), canPlay);
  if (profile.wastedPowerUp > 0 && d.random.float() < profile.wastedPowerUp) {
    // A human mistake: any power-up left, at a random target.
    return randomTarget(d, i, d.random.pick(available(d, i)) as PowerUpType);
  }
  if (profile.chasesLeader && d.random.float() < LOOSE_CHASE_CHANCE) {
    const chase = leaderChoice(d, i, available(d, i), LOOSE_FREEZE_WHEN_LEADER_AT, LOOSE_REVERSAL_WHEN_LEADER_AT);
    if (chase) return chase;
  }
  const patience = profile.stuckPatienceMs * SPEED_TABLE[d.base.config.speed].botReactionFactor;
  if (canPlay || stuckFor(d, i) < patience || d.random.float() >= 0.5) return null;
  const helpful = available(d, i).filter((t) => t === 'SNIPER' || t === 'BOMB' || t === 'WHIRLWIND');
  const type = d.random.pick(helpful);
  return type ? randomTarget(d, i, type) : null;
}

function randomTarget(d: Draft, i: number, type: PowerUpType): PowerUpChoice | null {
  const hand = d.peek(i).hand;
  let targetPlayerId: string | undefined;
  if (type === 'FREEZE') {
    const opponents = opponentsOf(d, i).filter((k) => freezable(d.peek(k), d.clock));
    targetPlayerId = d.random.pick(opponents.map((k) => d.peek(k).id));
    if (targetPlayerId === undefined) return null;
  }
  const target: PowerUpTarget = {
    targetPlayerId,
    cardId: type === 'SNIPER' ? d.random.pick(hand)?.id : undefined,
    pileIndex: type === 'SNIPER' || type === 'BOMB' ? d.random.int(d.pileCount) : undefined,
  };
  return { type, target };
}

/**
 * Hard and expert keep their power-ups for the moment they matter: Reversal when whoever is closest to
 * winning is near the end (and ahead of the bot), Freeze on that leader once the race is close, Sniper
 * (aimed), Bomb (the board is bad for it: its own deck's next card goes down) and Whirlwind only when
 * stuck for a moment.
 */
function tacticalPowerUp(d: Draft, i: number, left: PowerUpType[], canPlay: boolean): PowerUpChoice | null {
  const me = d.peek(i);
  const chase = leaderChoice(d, i, left, FREEZE_WHEN_LEADER_AT, NEAR_WIN_CARDS);
  if (chase) return chase;
  if (canPlay) return null;
  const patience = profileOf(me).stuckPatienceMs * SPEED_TABLE[d.base.config.speed].botReactionFactor;
  if (stuckFor(d, i) < patience) return null;
  if (left.includes('SNIPER') && me.hand.length > 0) {
    let best: { cardId: string; pileIndex: number; score: number } | null = null;
    me.hand.forEach((card, handIndex) => {
      for (let pileIndex = 0; pileIndex < d.pileCount; pileIndex += 1) {
        const score = scoreAfter(d, i, handIndex, card, pileIndex);
        if (!best || score > best.score) best = { cardId: card.id, pileIndex, score };
      }
    });
    const chosen = best as { cardId: string; pileIndex: number } | null;
    if (chosen) return { type: 'SNIPER', target: { cardId: chosen.cardId, pileIndex: chosen.pileIndex } };
  }
  // Bomb plays the deck's unseen top card for free: no pile is better than another for it.
  if (left.includes('BOMB') && me.deck.length > 0) return { type: 'BOMB', target: {} };
  if (left.includes('WHIRLWIND')) return { type: 'WHIRLWIND', target: {} };
  return null;
}

/** Whoever is closest to winning among the opponents (fewest cards left; the first seat on a tie). */
export function leaderOf(d: Draft, i: number): PlayerState | undefined {
  let leader: PlayerState | undefined;
  for (const k of opponentsOf(d, i)) {
    const p = d.peek(k);
    if (leader === undefined || cardsLeft(p) < cardsLeft(leader)) leader = p;
  }
  return leader;
}

/**
 * Reversal on the leader when they are near the end and ahead of the bot, else Freeze on them once
 * the race is close (they have at most `freezeAt` cards left and fewer than the bot), if freezable.
 */
function leaderChoice(
  d: Draft,
  i: number,
  left: PowerUpType[],
  freezeAt: number,
  reverseAt: number,
): PowerUpChoice | null {
  const leader = leaderOf(d, i);
  if (!leader) return null;
  const mine = cardsLeft(d.peek(i));
  const theirs = cardsLeft(leader);
  if (left.includes('REVERSAL') && theirs <= reverseAt && theirs < mine) return { type: 'REVERSAL', target: {} };
  if (left.includes('FREEZE') && theirs <= freezeAt && theirs < mine && freezable(leader, d.clock)) {
    return { type: 'FREEZE', target: { targetPlayerId: leader.id } };
  }
  return null;
}

/**
 * A good player's judgement of a play, from what it may see: its own remaining hand should stay
 * playable on the new tops (keep the piles that match its next cards), and the tops should match as
 * few of the 180 faces as possible for the hands it cannot see (take away what the others can use).
 */
function scoreAfter(d: Draft, i: number, handIndex: number, card: Card, pileIndex: number): number {
  const tops = d.tops();
  tops[pileIndex] = card;
  const rest = d.peek(i).hand.filter((_, k) => k !== handIndex);
  const ownPlayable = rest.filter((c) => tops.some((t) => matches(c, t))).length;
  return ownPlayable * 1000 - boardCoverage(tops);
}

function bestMove(
  d: Draft,
  i: number,
  moves: { handIndex: number; pileIndex: number }[],
): { handIndex: number; pileIndex: number } {
  const hand = d.peek(i).hand;
  let best = moves[0] as (typeof moves)[number];
  let bestScore = -Infinity;
  for (const move of moves) {
    const score = scoreAfter(d, i, move.handIndex, hand[move.handIndex] as Card, move.pileIndex);
    if (score > bestScore) {
      best = move;
      bestScore = score;
    }
  }
  return best;
}
