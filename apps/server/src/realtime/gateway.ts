/**
 * The socket.io gateway: authenticates each connection by its JWT, checks every event's payload
 * with the protocol's schemas, rate-limits each socket, turns events into game-service calls and
 * answers every one through its ack — `{ success, error?, data? }`, never a crash or silence.
 */
import { ServerResponse } from 'node:http';
import type { Command, GameEvent, PowerUpType } from '@memeslam/engine';
import {
  type ClientEventName,
  GAME_TEXTS,
  type GameSetup,
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
import type { User } from '../games/requests.ts';
import type { GameService } from '../games/service.ts';
import type { GameRoom } from '../games/room.ts';
import { type Outcome, fail, ok } from '../games/types.ts';
import type { Metrics } from '../metrics.ts';

/** DESIGN §4: socket events 30/s per socket. */
const EVENTS_PER_SECOND = 30;
/**
 * Payloads are a few short fields. Bigger ones are answered with an error; socket.io's own cap sits
 * well above it, so an oversized event gets an ack instead of a dropped connection.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024;
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** What the gateway keeps per socket, on `socket.data`: the signed-in user and its event budget's window. */
interface SocketState {
  user: User;
  windowStart: number;
  inWindow: number;
}

/** Replaces `socket.handshake.auth` once the middleware has checked it: the token is not read again. */
const CHECKED_AUTH = Object.freeze({});

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
  // Memory per connection (socket.io docs, "Memory usage"): by default each session keeps its first
  // HTTP request. Nothing here reads it (or `socket.handshake.headers`, which it fills) after the
  // handshake: the middleware below reads only `socket.handshake.auth`.
  io.engine.on('connection', (rawSocket: { request: unknown }) => {
    rawSocket.request = null;
  });
  // A WebSocket upgrade's request is also held by the stand-in response engine.io builds for its
  // middlewares, which the TCP socket's 'close' listener keeps for the life of the connection. Once the
  // 101's headers are being written every middleware is done with it: let go of the request there.
  const upgradeResponses = new WeakMap<object, { req: unknown }>();
  io.engine.use((req: object, res: object, next: () => void) => {
    if (!(res instanceof ServerResponse)) upgradeResponses.set(req, res as { req: unknown });
    next();
  });
  io.engine.on('headers', (_headers: unknown, req: object) => {
    const res = upgradeResponses.get(req);
    if (res) res.req = null;
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

  // One set of listeners serves every socket (socket.io calls them with the socket as `this`) and the
  // per-socket state is on `socket.data`: no closures per connection.
  const overBudget = (state: SocketState) => {
    const now = Date.now();
    if (now - state.windowStart >= 1000) {
      state.windowStart = now;
      state.inWindow = 0;
    }
    state.inWindow += 1;
    return rateLimits && state.inWindow > EVENTS_PER_SECOND;
  };

  const handleEvent = (socket: Socket, event: string, args: unknown[]) => {
    const state = socket.data as SocketState;
    const { user } = state;
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
    if (overBudget(state)) return reply({ success: false, error: LOBBY_TEXTS.tooManyEvents });
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
  };
  const onAnyEvent = function (this: Socket, event: string, ...args: unknown[]) {
    handleEvent(this, event, args);
  };
  const onDisconnect = function (this: Socket) {
    // Other tabs of the same user keep the seat connected.
    games.disconnected((this.data as SocketState).user.id);
  };

  io.on('connection', (socket) => {
    const state = socket.data as SocketState;
    const { user } = state;
    socket.handshake.auth = CHECKED_AUTH;
    void socket.join(userChannel(user.id));
    socket.emit('connected', { userId: user.id, username: user.username });
    const room = games.connected(user.id);
    if (room) {
      void socket.join(gameChannel(room.id));
      sendRejoin(socket, room, user.id);
    }
    state.windowStart = Date.now();
    state.inWindow = 0;
    socket.onAny(onAnyEvent);
    socket.on('disconnect', onDisconnect);
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

function firstEvent<T extends GameEvent['type']>(
  events: readonly GameEvent[],
  type: T,
): Extract<GameEvent, { type: T }> | undefined {
  return events.find((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

/** One handler per client event: each turns its payload into a request at the games' door and says what its ack carries. */
function gameHandlers(games: GameService): Record<ClientEventName, Handler> {
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
      const { seq, watching, room, ...data } = result.data;
      socket.emit('gameJoined', { success: true, ...data, seq });
      if (!watching && room.status === 'active') sendRejoin(socket, room, user.id);
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
