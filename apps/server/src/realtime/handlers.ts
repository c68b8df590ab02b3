/**
 * One handler per client event: each turns its payload (already checked against the protocol's
 * schema by the gateway) into a request at the games' door, and says what its ack carries.
 */
import type { Command, GameEvent, PowerUpType } from '@memeslam/engine';
import { type ClientEventName, GAME_TEXTS, type GameSetup } from '@memeslam/protocol';
import type { Socket } from 'socket.io';
import type { User } from '../games/requests.ts';
import type { GameService } from '../games/service.ts';
import { type Outcome, fail, ok } from '../games/types.ts';

export type Handler = (user: User, payload: never, socket: Socket) => Outcome<unknown> | Promise<Outcome<unknown>>;

function firstEvent<T extends GameEvent['type']>(
  events: readonly GameEvent[],
  type: T,
): Extract<GameEvent, { type: T }> | undefined {
  return events.find((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

export function gameHandlers(games: GameService): Record<ClientEventName, Handler> {
  const created = async (user: User, setup: GameSetup, socket: Socket, bot: boolean) => {
    const result = await games.handle(user, { type: 'create', setup });
    if (!result.ok) {
      socket.emit('gameCreated', { success: false, error: result.error });
      return result;
    }
    const { seq, ...data } = result.data;
    socket.emit('gameCreated', { success: true, ...data, seq });
    const bots = setup.bots;
    return ok(bot && bots ? { ...data, numberOfBots: bots.numberOfBots, botDifficulty: bots.difficulty } : data);
  };
  const play = (user: User, command: DistributiveOmit<Command, 'playerId'>) =>
    games.handle(user, { type: 'play', command: { ...command, playerId: user.id } as Command });
  const leave = async (user: User, game?: string) => {
    const result = await games.handle(user, { type: 'leave', game });
    return result.ok ? ok(undefined) : result;
  };

  return {
    createGame: (user, setup: GameSetup, socket) => created(user, setup, socket, false),
    'create-bot-game': (user, setup: GameSetup, socket) => created(user, setup, socket, true),

    joinGame: async (user, { roomCode }: { roomCode: string }, socket) => {
      const result = await games.handle(user, { type: 'join', roomCode, watch: true });
      if (!result.ok) {
        socket.emit('gameJoined', { success: false, error: result.error });
        return result;
      }
      const { seq, watching: _watching, rejoin, ...data } = result.data;
      socket.emit('gameJoined', { success: true, ...data, seq });
      if (rejoin) socket.emit(rejoin.event, rejoin.payload);
      return ok(data);
    },

    leaveGame: (user) => leave(user),

    stopAllBots: (user, payload: { gameId?: string; roomCode?: string }) =>
      leave(user, payload.gameId ?? payload.roomCode),

    setPlayerReady: (user, { isReady }: { isReady: boolean }) => games.handle(user, { type: 'ready', isReady }),

    startGame: (user) => games.handle(user, { type: 'start' }),

    playCard: async (user, { cardId, pileIndex }: { cardId: string; pileIndex: number }) => {
      const result = await play(user, { type: 'playCard', cardId, pileIndex });
      if (!result.ok) return result;
      return ok({ card: firstEvent(result.data.events, 'cardPlayed')?.card, pileIndex });
    },

    usePowerUp: async (user, request: Record<string, unknown> & { powerUpType: PowerUpType }) => {
      const result = await play(user, { type: 'usePowerUp', ...request });
      if (!result.ok) return result;
      const used = firstEvent(result.data.events, 'powerUpUsed');
      return ok({ powerUpType: request.powerUpType, data: used?.effect });
    },

    getPowerUpStatus: async (user) => {
      const result = await games.handle(user, { type: 'view' });
      if (!result.ok) return result;
      const { hand, game } = result.data;
      return ok({
        powerUps: hand.powerUps,
        activeEffects: game.gameState?.activeEffects ?? [],
        isFrozen: hand.isFrozen,
      });
    },

    requestHand: async (user) => {
      const result = await games.handle(user, { type: 'view' });
      if (!result.ok) return result;
      const { hand, game } = result.data;
      if (!game.gameState) return fail(GAME_TEXTS.gameNotActive);
      return ok({ ...hand, gameState: game.gameState });
    },

    checkDeadlock: async (user) => {
      const result = await play(user, { type: 'checkDeadlock' });
      if (!result.ok) return result;
      return ok({ result: result.data.deadlockCheck ?? { deadlockDetected: false, resolved: false } });
    },

    forceDeadlockResolution: async (user) => {
      const result = await play(user, { type: 'forceDeadlockResolution' });
      if (!result.ok) return result;
      return ok({ cardsFlipped: firstEvent(result.data.events, 'deadlockResolved')?.cardsFlipped ?? 0 });
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
