/**
 * The socket.io gateway, in three parts: admission (admission.ts: origin, caps, the JWT), each
 * user's pipeline (pipeline.ts: budgets, schemas, the token version, the handlers) and the transport
 * (transport.ts: the adapter, the coalesced writes, the games' channels). What is left here joins
 * them: a socket admitted joins its user's channel, is greeted and re-seated in its game, and its
 * events go down the pipeline; its close is told to the games, presence and Play now.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { AuthService } from '../auth/service.ts';
import type { AddressCaps } from '../cluster/address-caps.ts';
import type { Presence } from '../cluster/presence.ts';
import type { GameService } from '../games/service.ts';
import type { BudgetStore } from '../token-buckets.ts';
import type { Matchmaker } from '../matchmaking/queue.ts';
import type { Metrics } from '../metrics.ts';
import { type TrustProxy, admission, handshakeOptions } from './admission.ts';
import { gameHandlers } from './handlers.ts';
import { eventPipeline } from './pipeline.ts';
import {
  type SocketTransport,
  channels,
  gameChannel,
  transportOptions,
  tuneConnections,
  userChannel,
} from './transport.ts';
import { type GameServer, type GameSocket, type InterServerEvents, type SocketState, emitTo } from './typed-socket.ts';

export type { TrustProxy } from './admission.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The socket.io server: tests and operator tools reach it here. */
    readonly io: GameServer;
  }
}

/** Replaces `socket.handshake.auth` once admission has checked it: the token is not read again. */
const CHECKED_AUTH = Object.freeze({});

export function attachGateway(
  app: FastifyInstance,
  auth: AuthService,
  games: GameService,
  options: {
    rateLimits: boolean;
    /** Origins whose pages may open a socket (ALLOWED_ORIGINS), besides the server's own. */
    allowedOrigins: readonly string[];
    metrics: Metrics;
    /** SOCKET_TRANSPORT: the tuned transport (default) or socket.io's stock adapter and writes (transport.ts). */
    transport?: SocketTransport;
    /** As the HTTP server's (default false: the peer's address). */
    trustProxy?: TrustProxy;
    /** Default ABUSE_LIMITS.maxSockets; tests lower it. */
    maxSockets?: number;
    /** Each user's event budget across their sockets; default in process. */
    userEvents?: BudgetStore;
    /** Cluster mode: socket.io's Redis adapter. */
    adapter?: Parameters<GameServer['adapter']>[0];
    /** Sockets per client address; default in process. */
    addresses?: AddressCaps;
    /** Told of every socket that opens and closes. */
    presence: Presence;
    /** The Play now queue: its events reach each user's sockets; a user's last socket closing leaves it. */
    matchmaker: Matchmaker;
  },
): GameServer {
  const setting = options.transport ?? 'tuned';
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketState>(app.server, {
    ...handshakeOptions(options.allowedOrigins),
    ...transportOptions(setting),
  });
  // Admission first: it reads each connection's handshake request before the transport lets go of it.
  const admitted = admission(io, auth, {
    rateLimits: options.rateLimits,
    trustProxy: options.trustProxy,
    maxSockets: options.maxSockets,
    addresses: options.addresses,
    log: app.log,
  });
  tuneConnections(io, setting);
  // Cluster mode: socket.io's Redis adapter carries a room's broadcasts to the nodes holding its
  // sockets, joins and socket lookups to every node (cluster/socket-adapter.ts).
  if (options.adapter) io.adapter(options.adapter);
  games.transport = channels(io);

  // A revoked session's sockets close at once. With socket.io's Redis adapter (cluster mode) this same
  // call reaches the user's sockets on every node.
  auth.onRevoked({ revoke: (userId) => io.in(userChannel(userId)).disconnectSockets(true) });

  const { matchmaker } = options;
  matchmaker.notify = (userId, event, ...args) => emitTo(io.to(userChannel(userId)), event, ...args);
  const pipeline = eventPipeline(auth, gameHandlers(games, matchmaker), {
    rateLimits: options.rateLimits,
    metrics: options.metrics,
    userEvents: options.userEvents,
    log: app.log,
  });

  // One listener serves every socket (socket.io calls it with the socket as `this`): no closures per connection.
  const onDisconnect = function (this: GameSocket) {
    const userId = this.data.user.id;
    // The last tab closed: leaving the page leaves the Play now queue at once.
    if (admitted.disconnected(this)) void matchmaker.leave(userId);
    // Other tabs of the same user keep the seat connected.
    games.disconnected(userId);
    options.presence.disconnected(userId);
  };

  io.on('connection', (socket) => {
    const { user } = socket.data;
    socket.handshake.auth = CHECKED_AUTH;
    void socket.join(userChannel(user.id));
    socket.emit('connected', { userId: user.id, username: user.username });
    options.presence.connected(user.id);
    void games.connected(user.id).then(
      (seated) => {
        if (!seated || !socket.connected) return;
        void socket.join(gameChannel(seated.gameId));
        emitTo(socket, seated.rejoin.event, seated.rejoin.payload);
      },
      (error: unknown) => app.log.warn({ err: error, userId: user.id }, 'a returning player could not be seated'),
    );
    pipeline.listen(socket);
    socket.on('disconnect', onDisconnect);
    admitted.connected(socket);
  });

  app.decorate('io', io);
  return io;
}
