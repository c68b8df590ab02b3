/**
 * The engine's events as the protocol's socket events (docs/protocol.md, Server events). A pure mapping:
 * the room stamps each broadcast with its `seq` and sends hands to their owners.
 */
import type { GameEvent, GameResult, PowerUpEffect } from '@memeslam/engine';
import { type GameStateView, POWER_UP_EFFECT_TEXTS } from '@memeslam/protocol';
import type { RoomMessage, RoomPayload, Seat } from './types.ts';

export interface MappedEvents {
  /** To everyone in the room, in order. */
  readonly broadcasts: readonly RoomMessage[];
  /** Human players whose hand or deck changed: each gets one handUpdated. */
  readonly hands: readonly string[];
  /** Bots that played a card or a power-up (for the bot-status call). */
  readonly botsActed: readonly string[];
}

export function socketEventsFor(
  events: readonly GameEvent[],
  ctx: {
    readonly gameId: string;
    readonly seed: string;
    readonly seats: readonly Seat[];
    readonly gameState: GameStateView;
  },
): MappedEvents {
  const { gameState } = ctx;
  const seat = (id: string) => ctx.seats.find((s) => s.playerId === id);
  const name = (id: string) => seat(id)?.username ?? id;
  const isBot = (id: string) => seat(id)?.bot != null;
  const broadcasts: RoomMessage[] = [];
  const hands = new Set<string>();
  const botsActed: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'cardPlayed':
        if (isBot(event.playerId)) botsActed.push(event.playerId);
        broadcasts.push({
          event: 'cardPlayed',
          payload: {
            playerId: event.playerId,
            username: name(event.playerId),
            cardId: event.card.id,
            card: event.card,
            pileIndex: event.pileIndex,
            isBot: isBot(event.playerId),
            difficulty: seat(event.playerId)?.bot ?? null,
            gameState,
          },
        });
        break;
      case 'handChanged':
        if (seat(event.playerId)?.bot === null) hands.add(event.playerId);
        break;
      case 'powerUpUsed':
        if (isBot(event.playerId)) botsActed.push(event.playerId);
        broadcasts.push({
          event: 'powerUpUsed',
          payload: {
            playerId: event.playerId,
            username: name(event.playerId),
            powerUpType: event.effect.powerUpType,
            effect: POWER_UP_EFFECT_TEXTS[event.effect.powerUpType],
            data: event.effect satisfies PowerUpEffect,
            gameState,
            isBot: isBot(event.playerId),
          },
        });
        break;
      case 'playerFrozen':
        broadcasts.push({
          event: 'playerFrozen',
          payload: {
            playerId: event.playerId,
            playerName: name(event.playerId),
            frozenBy: name(event.frozenBy),
            frozenById: event.frozenBy,
            frozenByBot: isBot(event.frozenBy),
            duration: event.duration,
          },
        });
        break;
      case 'playerUnfrozen':
        broadcasts.push({
          event: 'playerUnfrozen',
          payload: { playerId: event.playerId, playerName: name(event.playerId) },
        });
        break;
      case 'deadlockDetected':
        // No event of its own: the next gameState carries `deadlock.active` and its time.
        break;
      case 'deadlockResolved':
        broadcasts.push({
          event: 'deadlockResolved',
          payload: {
            newDiscardPiles: gameState.discardPiles,
            gameState,
            automatic: event.mode === 'automatic',
            manual: event.mode === 'manual',
            forced: event.mode === 'forced',
            cardsFlipped: event.cardsFlipped,
          },
        });
        break;
      case 'deadlockUnresolvable':
        broadcasts.push({
          event: 'deadlockUnresolvable',
          payload: { reason: event.reason, consecutiveDeadlocks: event.consecutiveDeadlocks },
        });
        break;
      case 'playerDisconnected':
        broadcasts.push({
          event: 'playerDisconnected',
          payload: { userId: event.playerId, username: name(event.playerId) },
        });
        break;
      case 'playerReconnected':
        broadcasts.push({
          event: 'playerReconnected',
          payload: { userId: event.playerId, username: name(event.playerId) },
        });
        break;
      case 'playerLeft':
        broadcasts.push({
          event: 'playerLeft',
          payload: { userId: event.playerId, username: name(event.playerId), isBot: isBot(event.playerId) },
        });
        break;
      case 'gameEnded':
        broadcasts.push({ event: 'gameEnded', payload: endPayload(ctx.gameId, ctx.seed, event.result, gameState) });
        broadcasts.push({ event: 'gameStateChanged', payload: { status: 'finished', gameStatus: 'finished' } });
        break;
    }
  }
  return { broadcasts, hands: [...hands], botsActed };
}

function endPayload(
  gameId: string,
  seed: string,
  result: GameResult,
  gameState: GameStateView,
): RoomPayload<'gameEnded'> {
  return {
    gameId,
    winner: gameState.winner,
    duration: Math.floor(result.durationMs / 1000),
    durationMs: result.durationMs,
    results: result.ranking,
    seed,
    reason: result.reason,
    gameState,
  };
}
