/**
 * The socket.io gateway: authenticates each connection by its JWT, checks every event's payload
 * with the protocol's schemas, rate-limits each socket, turns events into game-service calls and
 * answers every one through its ack — `{ success, error?, data? }`, never a crash or silence.
 */
import type { GameEvent } from '@memeslam/engine';
import {
  type ClientEventName,
  GAME_TEXTS,
  LOBBY_TEXTS,
  SERVER_TEXTS,
  SOCKET_TRANSPORTS,
  isClientEventName,
  parseClientEvent,
  parseWith,
  socketAuthSchema,
} from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { AuthService } from '../auth/service.ts';
import type { GameService, User } from '../games/service.ts';
import type { GameRoom } from '../games/room.ts';
import type { Outcome } from '../games/types.ts';
import type { Metrics } from '../metrics.ts';

/** DESIGN §4: socket events 30/s per socket. */
const EVENTS_PER_SECOND = 30;
/**
 * Payloads are a few short fields. Bigger ones are answered with an error; socket.io's own cap sits
 * well above it, so an oversized event gets an ack instead of a dropped connection.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024;
const MAX_MESSAGE_BYTES = 1024 * 1024;

type Ack = (response: { success: boolean; error?: string; data?: unknown }) => void;
type Handler = (user: User, payload: never, socket: Socket) => Outcome<unknown> | Promise<Outcome<unknown>>;

const GAME_COMMANDS = new Set<string>([
  'playCard',
  'usePowerUp',
  'checkDeadlock',
  'forceDeadlockResolution',
  'requestHand',
  'getPowerUpStatus',
]);

const gameChannel = (gameId: string) => `game:${gameId}`;
const userChannel = (userId: string) => `user:${userId}`;

export function attachGateway(
  app: FastifyInstance,
  auth: AuthService,
  games: GameService,
  options: { rateLimits: boolean; metrics: Metrics },
): Server {
  const { rateLimits, metrics } = options;
  const io = new Server(app.server, {
    transports: [...SOCKET_TRANSPORTS],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
  });

  games.transport = {
    toRoom: (gameId, event, payload) => io.to(gameChannel(gameId)).emit(event, payload),
    toUser: (userId, event, payload) => io.to(userChannel(userId)).emit(event, payload),
    subscribe: (userId, gameId) => io.in(userChannel(userId)).socketsJoin(gameChannel(gameId)),
    unsubscribe: (userId, gameId) => io.in(userChannel(userId)).socketsLeave(gameChannel(gameId)),
  };

  io.use((socket, next) => {
    const parsed = parseWith(socketAuthSchema, socket.handshake.auth);
    if (!parsed.success) return next(new Error(parsed.message));
    auth.authenticate(parsed.data.token).then(
      (user) => {
        if (!user) return next(new Error(SERVER_TEXTS.authenticationFailed));
        socket.data.user = { id: user.id, username: user.username } satisfies User;
        next();
      },
      () => next(new Error(SERVER_TEXTS.authenticationFailed)),
    );
  });

  const handlers = gameHandlers(games);

  io.on('connection', (socket) => {
    const user = socket.data.user as User;
    void socket.join(userChannel(user.id));
    socket.emit('connected', { userId: user.id, username: user.username });
    const room = games.connected(user.id);
    if (room) {
      void socket.join(gameChannel(room.id));
      sendRejoin(socket, room, user.id);
    }

    let windowStart = Date.now();
    let inWindow = 0;
    const overBudget = () => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        inWindow = 0;
      }
      inWindow += 1;
      return rateLimits && inWindow > EVENTS_PER_SECOND;
    };

    socket.onAny((event: string, ...args: unknown[]) => {
      const received = performance.now();
      const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as Ack) : null;
      const payload = args.length > (ack ? 1 : 0) ? args[0] : undefined;
      // Without an ack a refusal still gets an answer: gameError for game commands, error otherwise.
      const reply: Ack = (response) => {
        metrics.recordCommand(performance.now() - received);
        if (ack) ack(response);
        else if (!response.success) {
          const message = response.error ?? GAME_TEXTS.anErrorOccurred;
          socket.emit(GAME_COMMANDS.has(event) ? 'gameError' : 'error', { message });
        }
      };
      if (overBudget()) return reply({ success: false, error: LOBBY_TEXTS.tooManyEvents });
      if (!isClientEventName(event)) return reply({ success: false, error: SERVER_TEXTS.unknownEvent });
      if (payloadBytes(payload) > MAX_PAYLOAD_BYTES)
        return reply({ success: false, error: SERVER_TEXTS.payloadTooLarge });
      const parsed = parseClientEvent(event, payload ?? {});
      if (!parsed.success) {
        if (event === 'usePowerUp') socket.emit('powerUpError', { message: parsed.message });
        return reply({ success: false, error: parsed.message });
      }
      Promise.resolve()
        .then(() => (handlers[event] as Handler)(user, parsed.data as never, socket))
        .then(
          (outcome) => {
            if (outcome.ok) reply({ success: true, data: outcome.data ?? undefined });
            else {
              if (event === 'usePowerUp') socket.emit('powerUpError', { message: outcome.error });
              reply({ success: false, error: outcome.error });
            }
          },
          (error: unknown) => {
            app.log.error({ err: error, event, userId: user.id }, 'socket event failed');
            reply({ success: false, error: GAME_TEXTS.anErrorOccurred });
          },
        );
    });

    socket.on('disconnect', () => {
      // Other tabs of the same user keep the seat connected.
      games.disconnected(user.id);
    });
  });

  return io;
}

function payloadBytes(payload: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(payload) ?? '');
  } catch {
    // Not serialisable (a cycle cannot arrive over the wire, but be sure): treat as too large.
    return Number.POSITIVE_INFINITY;
  }
}

/** gameRejoined: everything a returning player needs to carry on. */
function sendRejoin(socket: Socket, room: GameRoom, userId: string): void {
  const hand = room.handFor(userId);
  const game = room.game(userId);
  if (!hand || !game.gameState) {
    socket.emit('gameUpdated', { ...game, seq: room.seq });
    return;
  }
  socket.emit('gameRejoined', {
    ...hand,
    game,
    gameState: game.gameState,
    activeEffects: game.gameState.activeEffects,
    powerUps: hand.powerUps,
    isFrozen: hand.isFrozen,
  });
}

function entry(room: GameRoom, userId: string) {
  return { gameId: room.id, roomCode: room.roomCode, game: room.game(userId) };
}

function firstEvent<T extends GameEvent['type']>(
  events: readonly GameEvent[],
  type: T,
): Extract<GameEvent, { type: T }> | undefined {
  return events.find((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

/** One handler per client event; each returns what its ack says. */
function gameHandlers(games: GameService): Record<ClientEventName, Handler> {
  const roomOf = (user: User): Outcome<GameRoom> => {
    const room = games.currentGameOf(user.id);
    return room ? { ok: true, data: room } : { ok: false, error: LOBBY_TEXTS.notInGame };
  };
  const created = async (user: User, setup: Parameters<GameService['create']>[1], socket: Socket, bot: boolean) => {
    const result = await games.create(user, setup);
    if (!result.ok) {
      socket.emit('gameCreated', { success: false, error: result.error });
      return result;
    }
    const room = result.data;
    void socket.join(gameChannel(room.id));
    const data = entry(room, user.id);
    socket.emit('gameCreated', { success: true, ...data, seq: room.seq });
    const bots = setup.bots;
    return {
      ok: true as const,
      data: bot && bots ? { ...data, numberOfBots: bots.numberOfBots, botDifficulty: bots.difficulty } : data,
    };
  };

  return {
    createGame: (user, setup: Parameters<GameService['create']>[1], socket) => created(user, setup, socket, false),
    'create-bot-game': (user, setup: Parameters<GameService['create']>[1], socket) =>
      created(user, setup, socket, true),

    joinGame: (user, { roomCode }: { roomCode: string }, socket) => {
      const result = games.join(user, roomCode);
      if (result.ok) {
        const room = result.data;
        void socket.join(gameChannel(room.id));
        socket.emit('gameJoined', { success: true, ...entry(room, user.id), seq: room.seq });
        if (room.status === 'active') sendRejoin(socket, room, user.id);
        return { ok: true, data: entry(room, user.id) };
      }
      // A non-member may watch a game in play when its host allows spectators.
      const room = games.find(roomCode);
      if (room && room.status !== 'finished' && room.status !== 'waiting' && !room.isMember(user.id)) {
        if (!room.setup.allowSpectators) return { ok: false, error: LOBBY_TEXTS.spectatorsNotAllowed };
        void socket.join(gameChannel(room.id));
        socket.emit('gameJoined', { success: true, ...entry(room, user.id), seq: room.seq });
        return { ok: true, data: entry(room, user.id) };
      }
      socket.emit('gameJoined', { success: false, error: result.error });
      return result;
    },

    leaveGame: (user, _payload, socket) => {
      const room = games.currentGameOf(user.id);
      const result = games.leave(user.id);
      if (room) void socket.leave(gameChannel(room.id));
      return result.ok ? { ok: true, data: undefined } : result;
    },

    stopAllBots: (user, payload: { gameId?: string; roomCode?: string }, socket) => {
      const key = payload.gameId ?? payload.roomCode;
      const room = key ? games.find(key) : undefined;
      const result = games.leave(user.id, key);
      if (room) void socket.leave(gameChannel(room.id));
      return result.ok ? { ok: true, data: undefined } : result;
    },

    setPlayerReady: (user, { isReady }: { isReady: boolean }) => {
      const room = roomOf(user);
      return room.ok ? room.data.setReady(user.id, isReady) : room;
    },

    startGame: (user) => {
      const room = roomOf(user);
      return room.ok ? room.data.start(user.id) : room;
    },

    playCard: (user, { cardId, pileIndex }: { cardId: string; pileIndex: number }) => {
      const result = games.play(user.id, { type: 'playCard', playerId: user.id, cardId, pileIndex });
      if (!result.ok) return result;
      const played = firstEvent(result.data.events, 'cardPlayed');
      return { ok: true, data: { card: played?.card, pileIndex } };
    },

    usePowerUp: (user, request: Record<string, unknown> & { powerUpType: string }) => {
      const result = games.play(user.id, { type: 'usePowerUp', playerId: user.id, ...request } as never);
      if (!result.ok) return result;
      const used = firstEvent(result.data.events, 'powerUpUsed');
      return { ok: true, data: { powerUpType: request.powerUpType, data: used?.effect } };
    },

    getPowerUpStatus: (user) => {
      const room = roomOf(user);
      if (!room.ok) return room;
      const hand = room.data.handFor(user.id);
      if (!hand) return { ok: false, error: GAME_TEXTS.gameNotActive };
      return {
        ok: true,
        data: {
          powerUps: hand.powerUps,
          activeEffects: room.data.game().gameState?.activeEffects ?? [],
          isFrozen: hand.isFrozen,
        },
      };
    },

    requestHand: (user) => {
      const room = roomOf(user);
      if (!room.ok) return room;
      const hand = room.data.handFor(user.id);
      const gameState = room.data.game().gameState;
      if (!hand || !gameState) return { ok: false, error: GAME_TEXTS.gameNotActive };
      return { ok: true, data: { ...hand, gameState } };
    },

    checkDeadlock: (user) => {
      const result = games.play(user.id, { type: 'checkDeadlock', playerId: user.id });
      if (!result.ok) return result;
      return { ok: true, data: { result: result.data.deadlockCheck ?? { deadlockDetected: false, resolved: false } } };
    },

    forceDeadlockResolution: (user) => {
      const result = games.play(user.id, { type: 'forceDeadlockResolution', playerId: user.id });
      if (!result.ok) return result;
      return {
        ok: true,
        data: { cardsFlipped: firstEvent(result.data.events, 'deadlockResolved')?.cardsFlipped ?? 0 },
      };
    },
  };
}
