import { DISCONNECT_GRACE_MS } from './constants.ts';
import { botAct } from './bots.ts';
import { resolveDeadlock } from './deadlock.ts';
import { Draft } from './draft.ts';
import { checkRemainingPlayers, endGame, inGame, refreshDerived } from './rules.ts';
import type { AdvanceResult, GameState, PlayerState } from './types.ts';

/** When advance() must run next: the earliest pending deadline, or null once the game is over. */
export function nextDeadline(state: GameState): number | null {
  return state.status === 'active' ? earliestDeadline(state.endsAt, state.deadlock.resolveAt, state.players) : null;
}

function earliestDeadline(endsAt: number, resolveAt: number | null, players: Iterable<PlayerState>): number {
  let next = endsAt;
  if (resolveAt !== null) next = Math.min(next, resolveAt);
  for (const p of players) {
    // A freeze ends on time (event, effect removed) even if its target has left meanwhile.
    if (p.frozenUntil !== null) next = Math.min(next, p.frozenUntil);
    if (!inGame(p)) continue;
    if (p.nextBotActionAt !== null) next = Math.min(next, p.nextBotActionAt);
    if (p.disconnectedAt !== null) next = Math.min(next, p.disconnectedAt + DISCONNECT_GRACE_MS);
  }
  return next;
}

/**
 * Runs everything due at or before `now`, earliest first: freezes ending, disconnected players
 * forfeiting, the time cap, automatic deadlock resolution and bot actions (in seat order when due at
 * the same moment). Each step happens at its own deadline, so the result does not depend on how often
 * advance is called.
 */
export function advance(state: GameState, now: number): AdvanceResult {
  let due = nextDeadline(state);
  // A time that is not finite (NaN, ±Infinity) changes nothing, as in apply().
  if (due === null || due > now || !Number.isFinite(now)) return { state, events: [] };
  const d = new Draft(state, state.clock);
  while (due !== null && due <= now && d.status === 'active') {
    d.clock = Math.max(d.clock, due);
    step(d, due);
    refreshDerived(d);
    due = d.status === 'active' ? earliestDeadline(d.base.endsAt, d.deadlock.resolveAt, d.allPlayers()) : null;
  }
  d.clock = Math.max(d.clock, now);
  return { state: d.commit(), events: d.events };
}

function step(d: Draft, t: number): void {
  for (let i = 0; i < d.playerCount; i += 1) {
    const p = d.peek(i);
    if (p.frozenUntil !== null && p.frozenUntil <= t) {
      const thawed = d.player(i);
      thawed.frozenUntil = null;
      thawed.frozenBy = null;
      d.effects = d.effectList().filter((e) => e.targetPlayerId !== p.id);
      d.emit({ type: 'playerUnfrozen', playerId: p.id });
    }
  }
  for (let i = 0; i < d.playerCount; i += 1) {
    const p = d.peek(i);
    if (inGame(p) && p.disconnectedAt !== null && p.disconnectedAt + DISCONNECT_GRACE_MS <= t) {
      const gone = d.player(i);
      gone.left = { at: t, wentAt: p.disconnectedAt, reason: 'disconnected' };
      gone.disconnectedAt = null;
      d.emit({ type: 'playerLeft', playerId: p.id, reason: 'disconnected' });
      checkRemainingPlayers(d);
      if (d.status !== 'active') return;
    }
  }
  if (t >= d.base.endsAt) {
    endGame(d, 'timeCap', null);
    return;
  }
  if (d.deadlock.resolveAt !== null && d.deadlock.resolveAt <= t) {
    resolveDeadlock(d, 'automatic');
    if (d.status !== 'active') return;
  }
  for (let i = 0; i < d.playerCount && d.status === 'active'; i += 1) {
    const p = d.peek(i);
    if (inGame(p) && p.nextBotActionAt !== null && p.nextBotActionAt <= t) botAct(d, i);
  }
}
