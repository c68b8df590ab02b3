/**
 * The socket.io gateway: authenticates each connection by its JWT, checks every event's payload
 * with the protocol's schemas, rate-limits each socket and each user, turns events into game-service
 * calls and answers every one through its ack — `{ success, error?, data? }`, never a crash or silence.
 *
 * Bounds (numbers in the protocol's ABUSE_LIMITS): the server holds at most `maxSockets`
 * sockets (one more gets connect_error "Server busy…"); with RATE_LIMITS on, a network (networkOf: an
 * IPv4 address, an IPv6 /64; docs/limits.md) holds at
 * most `socketsPerIp` (one more is refused at connect) and a user `socketsPerUser` — there the newest
 * wins: the user's oldest socket is told why and closed, so a reloaded tab whose old socket has not
 * timed out yet is never locked out. Events: 30 a second per socket and one token bucket
 * per user across all their sockets. The per-address count, the users' budgets and who is online are
 * cluster-wide in cluster mode (cluster/counts.ts); the rest is per server process.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import {
  ABUSE_LIMITS,
  type AckRefusal,
  type ClientEventName,
  type ClientToServerEvents,
  type HandshakeRefusal,
  RATE_LIMITS,
  REFUSAL_TEXTS,
  type RefusalCode,
  SERVER_TEXTS,
  SOCKET_TRANSPORTS,
  type ServerArgs,
  type ServerEventName,
  type ServerToClientEvents,
  ackError,
  isClientEventName,
  parseClientEvent,
  parseWith,
  socketAuthSchema,
} from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { AuthService } from '../auth/service.ts';
import type { GameService } from '../games/service.ts';
import { type AddressCaps, MemoryAddressCaps } from '../cluster/address-caps.ts';
import { networkOf } from '../http/networks.ts';
import type { Presence } from '../cluster/presence.ts';
import { type BudgetStore, MemoryTokenBuckets } from '../http/token-buckets.ts';
import type { User } from '../games/requests.ts';
import { type Outcome, fail } from '../games/types.ts';
import { socketOriginCheck } from '../http/origins.ts';
import type { Metrics } from '../metrics.ts';
import { gameHandlers } from './handlers.ts';
import type { Matchmaker } from '../matchmaking/queue.ts';
import { type EngineConnection, coalesceWrites } from './coalesced-writes.ts';
import { jsonOnlyParser } from './json-only-parser.ts';
import { LocalAdapter } from './local-adapter.ts';
import { type GameServer, type GameSocket, type InterServerEvents, type SocketState, emitTo } from './typed-socket.ts';

/** At most 30 socket events a second per socket (docs/limits.md). */
const EVENTS_PER_SECOND = RATE_LIMITS.socketEventsPerSecond;
/**
 * Payloads are a few short fields. Bigger ones are answered with an error; socket.io's own cap sits
 * well above it, so an oversized event gets an ack instead of a dropped connection.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024;
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Replaces `socket.handshake.auth` once the middleware has checked it: the token is not read again. */
const CHECKED_AUTH = Object.freeze({});

/** Every event's answer: the handler's data, or a refusal with its code. */
type Reply = (response: { readonly success: true; readonly data: unknown } | AckRefusal) => void;

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

/** Fastify's `trustProxy` values: the socket's client address is read the way requests' `ip` is. */
export type TrustProxy = boolean | string | string[] | ((address: string, hop: number) => boolean);

function trustFunction(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (typeof trust === 'function') return trust;
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  return proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((v) => v.trim()) : trust);
}

export function attachGateway(
  app: FastifyInstance,
  auth: AuthService,
  games: GameService,
  options: {
    rateLimits: boolean;
    /** Origins whose pages may open a socket (ALLOWED_ORIGINS), besides the server's own. */
    allowedOrigins: readonly string[];
    metrics: Metrics;
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
  const { rateLimits, metrics } = options;
  const maxSockets = options.maxSockets ?? ABUSE_LIMITS.maxSockets;
  const trust = trustFunction(options.trustProxy ?? false);
  const userEvents =
    options.userEvents ??
    new MemoryTokenBuckets({ capacity: ABUSE_LIMITS.userEventBurst, perSecond: EVENTS_PER_SECOND });
  const addresses = options.addresses ?? new MemoryAddressCaps();
  /** Sockets held (connected, or past the caps and authenticating) on this server. */
  let held = 0;
  /** Each user's open sockets, oldest first. */
  const byUser = new Map<string, Set<GameSocket>>();
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketState>(app.server, {
    // Another site's page may not open a socket (WebSocket upgrades ignore CORS): see http/origins.ts.
    allowRequest: socketOriginCheck(options.allowedOrigins),
    transports: [...SOCKET_TRANSPORTS],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    parser: jsonOnlyParser,
    // One node: the in-memory adapter with cheaper broadcasts to one room (local-adapter.ts).
    adapter: LocalAdapter,
  });
  // Memory per connection (socket.io docs, "Memory usage"): by default each session keeps its first
  // HTTP request. It is let go of here, so `socket.handshake.headers` (which it fills) is empty by the
  // time the middleware below runs: the client's address, which needs the forwarding header behind a
  // trusted proxy, is read from the request first and kept by the connection.
  const clientAddresses = new WeakMap<object, string>();
  io.engine.on('connection', (rawSocket: { request: unknown } & EngineConnection) => {
    const request = rawSocket.request as IncomingMessage | null;
    if (request) clientAddresses.set(rawSocket, requestIp(request, trust));
    rawSocket.request = null;
    coalesceWrites(rawSocket);
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

  // Cluster mode: socket.io's Redis adapter carries broadcasts, joins and socket lookups to every node.
  if (options.adapter) io.adapter(options.adapter);

  // One node: the local adapter encodes a message when it is prepared; the Redis adapter's are sent as
  // they would be at once, when the time comes.
  const adapter = io.of('/').adapter;
  const prepare = <E extends ServerEventName>(channel: string, event: E, args: ServerArgs<E>) =>
    adapter instanceof LocalAdapter
      ? adapter.prepare(channel, event, args)
      : () => emitTo(io.to(channel), event, ...args);
  games.transport = {
    toRoom: (gameId, event, ...args) => emitTo(io.to(gameChannel(gameId)), event, ...args),
    toUser: (userId, event, ...args) => emitTo(io.to(userChannel(userId)), event, ...args),
    prepareToRoom: (gameId, event, ...args) => prepare(gameChannel(gameId), event, args),
    prepareToUser: (userId, event, ...args) => prepare(userChannel(userId), event, args),
    subscribe: (userId, gameId) => io.in(userChannel(userId)).socketsJoin(gameChannel(gameId)),
    unsubscribe: (userId, gameId) => io.in(userChannel(userId)).socketsLeave(gameChannel(gameId)),
    present: async (userIds) => {
      if (userIds.length === 0) return new Set();
      // Across nodes when the adapter is Redis's; a node that does not answer in time is left out.
      const sockets = await io
        .in(userIds.map(userChannel))
        .fetchSockets()
        .catch(() => io.local.in(userIds.map(userChannel)).fetchSockets());
      return new Set(sockets.map((socket) => socket.data.user.id));
    },
  };

  // A revoked session's sockets close at once. With socket.io's Redis adapter (cluster mode) this same
  // call reaches the user's sockets on every node.
  auth.onRevoked({ revoke: (userId) => io.in(userChannel(userId)).disconnectSockets(true) });

  io.use((socket, next) => {
    const parsed = parseWith(socketAuthSchema, socket.handshake.auth);
    if (!parsed.success) return next(handshakeRefused('AUTHENTICATION_FAILED', parsed.message));
    // The ceilings are checked and a place is held before the token is, so a flood costs no lookups.
    if (held >= maxSockets) return next(handshakeRefused('SERVER_BUSY'));
    // Counted and compared per network (IPv4 whole, IPv6 its /64), not per address: socket.data.address
    // is the network, so Play now's same-address rule sees one /64 as one place (docs/limits.md).
    const ip = networkOf(clientAddresses.get(socket.conn) ?? clientIp(socket, trust));
    const fromIp = rateLimits ? addresses.hold(ip, ABUSE_LIMITS.socketsPerIp) : true;
    if (fromIp === false) return next(handshakeRefused('TOO_MANY_CONNECTIONS'));
    held += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held -= 1;
      if (rateLimits) addresses.release(ip);
    };
    const refuse = (code: RefusalCode) => {
      release();
      next(handshakeRefused(code));
    };
    const authenticate = () => {
      auth.authenticate(parsed.data.token).then(
        (user) => {
          if (!user) return refuse('AUTHENTICATION_FAILED');
          socket.data.user = { id: user.id, username: user.username } satisfies User;
          socket.data.tokenVersion = user.tokenVersion;
          socket.data.address = ip;
          // Held until the connection closes, whether or not it got as far as 'connection'.
          if (socket.conn.readyState === 'open') socket.conn.once('close', release);
          else release();
          next();
        },
        (error: unknown) => {
          // The token could not be checked (the database is away): not the user's fault. The client
          // keeps its session and tries again, told so by `data.retry`.
          app.log.error({ err: error }, 'socket authentication could not be checked');
          release();
          next(handshakeRefused('INTERNAL_ERROR', SERVER_TEXTS.internalError, true));
        },
      );
    };
    if (fromIp === true) return authenticate();
    // Cluster mode: the address's sockets on every node are counted first (this place is held meanwhile).
    void fromIp.then((admitted) => {
      if (admitted) return authenticate();
      released = true;
      held -= 1;
      next(handshakeRefused('TOO_MANY_CONNECTIONS'));
    });
  });

  const { matchmaker } = options;
  const handlers = gameHandlers(games, matchmaker);
  matchmaker.notify = (userId, event, ...args) => emitTo(io.to(userChannel(userId)), event, ...args);

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

  const overLimit = (reply: Reply) => {
    metrics.rateLimited('socket');
    reply(ackError('RATE_LIMITED'));
  };

  /** One event past the gateway's checks: its payload against its schema, then its handler. */
  const answer = <E extends ClientEventName>(socket: GameSocket, event: E, payload: unknown, reply: Reply): void => {
    const state = socket.data;
    const { user } = state;
    const parsed = parseClientEvent(event, payload ?? {});
    if (!parsed.success) {
      if (event === 'usePowerUp') socket.emit('powerUpError', { message: parsed.message, code: 'INVALID_PAYLOAD' });
      return reply(ackError('INVALID_PAYLOAD', parsed.message));
    }
    // The session may have been revoked since the handshake (a node that missed the fan-out).
    auth
      .currentTokenVersion(user.id)
      .then((version): Outcome<unknown> | Promise<Outcome<unknown>> => {
        if (version !== state.tokenVersion) {
          setImmediate(() => socket.disconnect(true));
          return fail('AUTHENTICATION_FAILED');
        }
        return handlers[event](user, parsed.data, socket);
      })
      .then(
        (outcome) => {
          if (outcome.ok) return reply({ success: true, data: outcome.data ?? undefined });
          if (event === 'usePowerUp') socket.emit('powerUpError', { message: outcome.error, code: outcome.code });
          reply(ackError(outcome.code, outcome.error));
        },
        (error: unknown) => {
          app.log.error({ err: error, event, userId: user.id }, 'socket event failed');
          reply(ackError('INTERNAL_ERROR'));
        },
      );
  };

  /** `budgetedAt`: when an event came that a cluster budget has since let through (its answer comes later). */
  const handleEvent = (socket: GameSocket, event: string, args: unknown[], budgetedAt?: number) => {
    const state = socket.data;
    const { user } = state;
    const received = budgetedAt ?? performance.now();
    const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as Reply) : null;
    const payload = args.length > (ack ? 1 : 0) ? args[0] : undefined;
    // Without an ack a refusal still gets an answer: gameError for game commands, error otherwise.
    const reply: Reply = (response) => {
      metrics.recordCommand(performance.now() - received);
      if (ack) ack(response);
      else if (!response.success) {
        socket.emit(GAME_COMMANDS.has(event) ? 'gameError' : 'error', { message: response.error, code: response.code });
      }
    };
    const allowed =
      budgetedAt !== undefined || (!overBudget(state) && (!rateLimits || userEvents.take(user.id, Date.now())));
    if (allowed === false) return overLimit(reply);
    if (allowed !== true) {
      return void allowed.then((taken) => (taken ? handleEvent(socket, event, args, received) : overLimit(reply)));
    }
    if (!isClientEventName(event)) return reply(ackError('UNKNOWN_EVENT'));
    if (payloadBytes(payload) > MAX_PAYLOAD_BYTES) return reply(ackError('PAYLOAD_TOO_LARGE'));
    answer(socket, event, payload, reply);
  };
  const onAnyEvent = function (this: GameSocket, event: string, ...args: unknown[]) {
    handleEvent(this, event, args);
  };
  const onDisconnect = function (this: GameSocket) {
    const userId = this.data.user.id;
    const open = byUser.get(userId);
    if (open?.delete(this) && open.size === 0) {
      byUser.delete(userId);
      // The last tab closed: leaving the page leaves the Play now queue at once.
      void matchmaker.leave(userId);
    }
    // Other tabs of the same user keep the seat connected.
    games.disconnected(userId);
    options.presence.disconnected(userId);
  };

  io.on('connection', (socket) => {
    const state = socket.data;
    const { user } = state;
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
    state.windowStart = Date.now();
    state.inWindow = 0;
    socket.onAny(onAnyEvent);
    socket.on('disconnect', onDisconnect);
    let open = byUser.get(user.id);
    if (!open) byUser.set(user.id, (open = new Set()));
    open.add(socket);
    if (rateLimits && open.size > ABUSE_LIMITS.socketsPerUser) {
      // The newest connection wins: the oldest is told why, then closed (it does not reconnect by itself).
      const oldest = open.values().next().value as GameSocket;
      oldest.emit('error', { message: SERVER_TEXTS.replacedByNewerConnection });
      oldest.disconnect(true);
    }
  });

  return io;
}

/** A refused handshake: the client's connect_error, its text as the message and its code in `data`. */
function handshakeRefused(code: RefusalCode, message: string = REFUSAL_TEXTS[code], retry = false): Error {
  const data: HandshakeRefusal = retry ? { code, retry } : { code };
  return Object.assign(new Error(message), { data });
}

/** A handshake request's client address: the peer's, or the forwarding header's as far as `trustProxy` allows. */
function requestIp(request: IncomingMessage, trust: (address: string, hop: number) => boolean): string {
  const address = request.socket.remoteAddress ?? '';
  try {
    return proxyAddr({ headers: request.headers, socket: { remoteAddress: address } } as never, trust) ?? address;
  } catch {
    return address;
  }
}

/** The client's address: the peer's, or the forwarding header's as far as `trustProxy` allows. */
function clientIp(socket: GameSocket, trust: (address: string, hop: number) => boolean): string {
  const { address, headers } = socket.handshake;
  try {
    return proxyAddr({ headers, socket: { remoteAddress: address } } as never, trust) ?? address;
  } catch {
    return address;
  }
}

function payloadBytes(payload: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(payload) ?? '');
  } catch {
    // Not serialisable (a cycle cannot arrive over the wire, but be sure): treat as too large.
    return Number.POSITIVE_INFINITY;
  }
}
