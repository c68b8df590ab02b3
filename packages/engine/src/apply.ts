import { type Card, formatCard } from './cards.ts';
import { playProblem } from './checks.ts';
import { FORCE_DEADLOCK_AFTER_MS, POWER_UP_TYPES, type PowerUpType } from './constants.ts';
import { resolveDeadlock } from './deadlock.ts';
import { Draft } from './draft.ts';
import { type RuleError, ruleError } from './errors.ts';
import { executePowerUp, powerUpRefusal } from './powerups.ts';
import { anyoneCanPlay, checkRemainingPlayers, placeCard, playSituation, refreshDerived } from './rules.ts';
import type { ApplyResult, Command, DeadlockCheck, GameState, PowerUpTarget } from './types.ts';

const COMMAND_TYPES = new Set<string>([
  'playCard',
  'usePowerUp',
  'checkDeadlock',
  'forceDeadlockResolution',
  'leave',
  'disconnect',
  'reconnect',
]);

/**
 * Applies one player's command at game-clock time `now`. Callers run advance(state, now) first so
 * that everything due earlier has happened. A refused command returns the very state it was given,
 * with a stable code and the player-facing text; nothing here throws, whatever `command` holds.
 */
export function apply(state: GameState, command: unknown, now: number): ApplyResult {
  const refuse = (error: RuleError): ApplyResult => ({ ok: false, state, error });
  const cmd = parseCommand(command);
  if (!cmd || !Number.isFinite(now)) return refuse(ruleError('INVALID_COMMAND'));
  // At or past the cap the game is over even if the caller has not advanced the state yet.
  if (state.status !== 'active' || now >= state.endsAt) return refuse(ruleError('GAME_NOT_ACTIVE'));
  const d = new Draft(state, now);
  const i = d.indexOf(cmd.playerId);
  if (i < 0) return refuse(ruleError('PLAYER_NOT_FOUND'));
  const p = d.peek(i);
  if (p.bot) return refuse(ruleError('BOT_PLAYER'));
  if (p.left) return refuse(ruleError('PLAYER_LEFT'));

  let deadlockCheck: DeadlockCheck | undefined;
  switch (cmd.type) {
    case 'playCard': {
      const problem = playProblem(playSituation(d, i), cmd.cardId, cmd.pileIndex);
      if (problem === 'NO_MATCH') {
        const card = p.hand.find((c) => c.id === cmd.cardId) as Card;
        const top = d.top(cmd.pileIndex) as Card;
        return refuse(ruleError(problem, `Cannot play ${formatCard(card)} on ${formatCard(top)}`));
      }
      if (problem) return refuse(ruleError(problem));
      placeCard(d, i, { from: 'hand', index: p.hand.findIndex((c) => c.id === cmd.cardId) }, cmd.pileIndex);
      break;
    }
    case 'usePowerUp': {
      if (!POWER_UP_TYPES.includes(cmd.powerUpType)) return refuse(ruleError('UNKNOWN_POWER_UP'));
      const problem = powerUpRefusal(d, i, cmd.powerUpType, cmd);
      if (problem) return refuse(problem);
      executePowerUp(d, i, cmd.powerUpType, cmd);
      break;
    }
    case 'checkDeadlock': {
      const detected = !anyoneCanPlay(d);
      deadlockCheck = { deadlockDetected: detected, resolved: detected && resolveDeadlock(d, 'manual') };
      break;
    }
    case 'forceDeadlockResolution': {
      if (p.stuckSince === null || d.clock - p.stuckSince < FORCE_DEADLOCK_AFTER_MS) {
        return refuse(ruleError('FORCE_NOT_ALLOWED'));
      }
      if (resolveDeadlock(d, 'forced')) d.player(i).stuckSince = null;
      break;
    }
    case 'leave': {
      const leaver = d.player(i);
      // One who disconnected first and presses Leave later went when they disconnected (docs/fair-play.md).
      leaver.left = { at: d.clock, wentAt: leaver.disconnectedAt ?? d.clock, reason: 'left' };
      leaver.disconnectedAt = null;
      d.emit({ type: 'playerLeft', playerId: leaver.id, reason: 'left' });
      checkRemainingPlayers(d);
      break;
    }
    case 'disconnect': {
      if (p.disconnectedAt !== null) return { ok: true, state, events: [] };
      d.player(i).disconnectedAt = d.clock;
      d.emit({ type: 'playerDisconnected', playerId: p.id });
      break;
    }
    case 'reconnect': {
      if (p.disconnectedAt === null) return { ok: true, state, events: [] };
      d.player(i).disconnectedAt = null;
      d.emit({ type: 'playerReconnected', playerId: p.id });
      break;
    }
  }
  refreshDerived(d);
  return deadlockCheck
    ? { ok: true, state: d.commit(), events: d.events, deadlockCheck }
    : { ok: true, state: d.commit(), events: d.events };
}

/** Shape checks for input that may come from anywhere; the server's schemas come first, this is the floor. */
function parseCommand(input: unknown): Command | null {
  if (typeof input !== 'object' || input === null) return null;
  const c = input as Record<string, unknown>;
  if (typeof c.type !== 'string' || !COMMAND_TYPES.has(c.type) || typeof c.playerId !== 'string') return null;
  const optionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';
  const optionalIndex = (v: unknown): v is number | undefined => v === undefined || Number.isInteger(v);
  switch (c.type) {
    case 'playCard':
      return typeof c.cardId === 'string' && typeof c.pileIndex === 'number' && Number.isInteger(c.pileIndex)
        ? { type: 'playCard', playerId: c.playerId, cardId: c.cardId, pileIndex: c.pileIndex }
        : null;
    case 'usePowerUp': {
      if (typeof c.powerUpType !== 'string') return null;
      if (!optionalString(c.targetPlayerId) || !optionalString(c.cardId) || !optionalIndex(c.pileIndex)) return null;
      const target: PowerUpTarget = { targetPlayerId: c.targetPlayerId, cardId: c.cardId, pileIndex: c.pileIndex };
      return { type: 'usePowerUp', playerId: c.playerId, powerUpType: c.powerUpType as PowerUpType, ...target };
    }
    case 'checkDeadlock':
    case 'forceDeadlockResolution':
    case 'leave':
    case 'disconnect':
    case 'reconnect':
      return { type: c.type, playerId: c.playerId };
    default:
      return null;
  }
}
