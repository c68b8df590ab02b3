import { boardCoverage, type Card, matches } from './cards.ts';
import { type PowerUpType, POWER_UP_TYPES, SPEED_TABLE } from './constants.ts';
import type { Draft } from './draft.ts';
import { executePowerUp, opponentsOf, powerUpRefusal } from './powerups.ts';
import { cardsLeft } from './ranking.ts';
import { isFrozen, placeCard, playableMoves } from './rules.ts';
import { type BotProfile, paceDelay, profileOf, reactionDelay } from './bot-profiles.ts';
import type { PlayerState, PowerUpTarget } from './types.ts';

/** No bot uses a power-up in a game's first 10 s (no opening freeze). */
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
  if (choice && powerUpRefusal(d, i, choice.type, choice.target) === null) {
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
