/**
 * One handler per client event: each turns its payload (already checked against the protocol's
 * schema by the gateway) into a request at the games' door, and says what its ack carries.
 */
import type { Command, GameEvent } from '@memeslam/engine';
import type { AckData, ClientEventName, ClientPayloadParsed, GameSetup } from '@memeslam/protocol';
import type { User } from '../games/requests.ts';
import type { GameService } from '../games/service.ts';
import type { Matchmaker } from '../matchmaking/queue.ts';
import { type Outcome, fail, ok } from '../games/types.ts';
import { type GameSocket, emitTo } from './typed-socket.ts';

/** Event E's handler: the payload its schema let through, answered with its ack's data or a refusal. */
export type Handler<E extends ClientEventName> = (
  user: User,
  payload: ClientPayloadParsed<E>,
  socket: GameSocket,
) => Outcome<AckData<E>> | Promise<Outcome<AckData<E>>>;

export type Handlers = { readonly [E in ClientEventName]: Handler<E> };

function firstEvent<T extends GameEvent['type']>(
  events: readonly GameEvent[],
  type: T,
): Extract<GameEvent, { type: T }> | undefined {
  return events.find((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

export function gameHandlers(games: GameService, matchmaker: Matchmaker): Handlers {
  /** A seat taken from this socket keeps its network's key (docs/fair-play.md). */
  const seated = (user: User, socket: GameSocket): User => ({
    ...user,
    addressKey: games.addressKeyOf(socket.data.address),
  });
  const created = async (user: User, setup: GameSetup, socket: GameSocket) => {
    const result = await games.handle(seated(user, socket), { type: 'create', setup });
    if (!result.ok) {
      socket.emit('gameCreated', { success: false, error: result.error, code: result.code });
      return result;
    }
    const { seq, ...data } = result.data;
    socket.emit('gameCreated', { success: true, ...data, seq });
    return ok(data);
  };
  const play = (user: User, command: DistributiveOmit<Command, 'playerId'>) =>
    games.handle(user, { type: 'play', command: { ...command, playerId: user.id } as Command });
  const leave = async (user: User, game?: string) => {
    const result = await games.handle(user, { type: 'leave', game });
    return result.ok ? ok(undefined) : result;
  };

  return {
    createGame: (user, setup, socket) => created(user, setup, socket),
    'create-bot-game': async (user, setup, socket) => {
      const result = await created(user, setup, socket);
      if (!result.ok) return result;
      // The bot game's schema always sets its bots.
      const bots = setup.bots as NonNullable<GameSetup['bots']>;
      return ok({ ...result.data, numberOfBots: bots.numberOfBots, botDifficulty: bots.difficulty });
    },

    joinGame: async (user, { roomCode }, socket) => {
      const result = await games.handle(seated(user, socket), { type: 'join', roomCode, watch: true });
      if (!result.ok) {
        socket.emit('gameJoined', { success: false, error: result.error, code: result.code });
        return result;
      }
      const { seq, watching: _watching, rejoin, ...data } = result.data;
      socket.emit('gameJoined', { success: true, ...data, seq });
      if (rejoin) emitTo(socket, rejoin.event, rejoin.payload);
      return ok(data);
    },

    leaveGame: (user) => leave(user),

    offerRematch: async (user, { gameId }, socket) => {
      const result = await games.rematch(seated(user, socket), gameId);
      if (!result.ok) return result;
      const { seq: _seq, ...data } = result.data;
      return ok(data);
    },

    stopAllBots: (user, payload) => leave(user, payload.gameId ?? payload.roomCode),

    setPlayerReady: (user, { isReady }) => games.handle(user, { type: 'ready', isReady }),

    startGame: (user) => games.handle(user, { type: 'start' }),

    playCard: async (user, { cardId, pileIndex }) => {
      const result = await play(user, { type: 'playCard', cardId, pileIndex });
      if (!result.ok) return result;
      const played = firstEvent(result.data.events, 'cardPlayed');
      if (!played) throw new Error('an accepted card play without its cardPlayed event');
      return ok({ card: played.card, pileIndex });
    },

    usePowerUp: async (user, request) => {
      const result = await play(user, { type: 'usePowerUp', ...request });
      if (!result.ok) return result;
      const used = firstEvent(result.data.events, 'powerUpUsed');
      if (!used) throw new Error('an accepted power-up without its powerUpUsed event');
      return ok({ powerUpType: request.powerUpType, data: used.effect });
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
      if (!game.gameState) return fail('GAME_NOT_ACTIVE');
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

    joinQueue: (user, { size }, socket) => matchmaker.join(seated(user, socket), size, socket.data.address),
    leaveQueue: async (user) => {
      await matchmaker.leave(user.id);
      return ok(undefined);
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
