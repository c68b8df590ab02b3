import { POWER_UP_TYPES } from './constants.ts';
import { cardsLeft } from './ranking.ts';
import { isFrozen } from './rules.ts';
import type { GameState, HandView, PlayerState, PlayerView, PublicPlayer, PublicView } from './types.ts';

/** Cards of each pile a view shows (the top last). */
export const VISIBLE_PILE_CARDS = 3;

type PowerUpsPart = PublicPlayer['powerUps'];

/**
 * A player's power-ups as views show them. Each order of use (each type is used at most once, so 326
 * orders; the key reads the order as a base-6 number) has one frozen part, made the first time it is
 * seen and shared by every view after: a view is built for each game event, for every player in it.
 */
const powerUpParts = new Map<number, PowerUpsPart>();

function powerUps(p: PlayerState): PowerUpsPart {
  let key = 0;
  for (const type of p.powerUpsUsed) key = key * 6 + POWER_UP_TYPES.indexOf(type) + 1;
  let part = powerUpParts.get(key);
  if (part === undefined) {
    const available = Object.freeze(POWER_UP_TYPES.filter((t) => !p.powerUpsUsed.includes(t)));
    part = Object.freeze({ available, used: Object.freeze([...p.powerUpsUsed]) });
    powerUpParts.set(key, part);
  }
  return part;
}

function publicPlayer(p: PlayerState, now: number): PublicPlayer {
  return {
    userId: p.id,
    username: p.username,
    isBot: p.bot !== null,
    botDifficulty: p.bot,
    position: p.seat,
    cardsLeft: cardsLeft(p),
    handCount: p.hand.length,
    deckCount: p.deck.length,
    cardsPlayed: p.cardsPlayed,
    isReady: true,
    powerUps: powerUps(p),
    isFrozen: isFrozen(p, now),
    isConnected: p.disconnectedAt === null && p.left === null,
    hasLeft: p.left !== null,
  };
}

/**
 * What everyone in the room, spectators included, may see: never a hand, a deck or the stock. Built
 * afresh on each call (the caller may keep it; its power-up parts are shared and frozen); its times
 * are the game clock's plus `timeShift` (the server passes wall clock − game clock, so a view leaves
 * in epoch ms without another copy).
 */
export function publicView(state: GameState, timeShift = 0): PublicView {
  const winner = state.result?.winnerId ? state.players.find((p) => p.id === state.result?.winnerId) : undefined;
  return {
    status: state.status,
    discardPiles: state.piles.map((pile) => pile.slice(-VISIBLE_PILE_CARDS)),
    pileSizes: state.piles.map((pile) => pile.length),
    stockSize: state.stock.length,
    players: state.players.map((p) => publicPlayer(p, state.clock)),
    activeEffects: state.effects.map((e) => ({ ...e, startTime: e.startTime + timeShift })),
    winner: winner
      ? { userId: winner.id, username: winner.username, isBot: winner.bot !== null, botDifficulty: winner.bot }
      : null,
    startedAt: state.startedAt + timeShift,
    endsAt: state.endsAt + timeShift,
    deadlock: {
      active: state.deadlock.resolveAt !== null,
      resolveAt: state.deadlock.resolveAt === null ? null : state.deadlock.resolveAt + timeShift,
      consecutive: state.deadlock.consecutiveUnresolvable,
    },
  };
}

/** One player's private part: their own hand, never its deck's order. */
export function handView(state: GameState, playerId: string): HandView | null {
  const p = state.players.find((candidate) => candidate.id === playerId);
  if (!p) return null;
  return {
    hand: [...p.hand],
    deckSize: p.deck.length,
    cardsLeft: cardsLeft(p),
    powerUps: powerUps(p),
    isFrozen: isFrozen(p, state.clock),
    frozenUntil: isFrozen(p, state.clock) ? p.frozenUntil : null,
    stuckSince: p.stuckSince,
  };
}

/** What one player (or, with an unknown id or null, a spectator) may see. */
export function viewFor(state: GameState, playerId: string | null): PlayerView {
  return { ...publicView(state), you: playerId === null ? null : handView(state, playerId) };
}
