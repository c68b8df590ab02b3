/**
 * Who may hold a socket: the handshake's origin, the client's network, the server's and the
 * network's ceilings, the JWT, and the per-user cap. Numbers are the protocol's ABUSE_LIMITS.
 *
 * The server holds at most `maxSockets` sockets (one more gets connect_error "Server busy…"). With
 * RATE_LIMITS on, a network (networkOf: an IPv4 address, an IPv6 /64; docs/limits.md) holds at most
 * `socketsPerIp` (one more is refused at connect) and a user `socketsPerUser`: there the newest wins,
 * the user's oldest socket is told why and closed, so a reloaded tab whose old socket has not timed
 * out yet is never locked out. The per-network count is cluster-wide in cluster mode
 * (cluster/counts.ts); the rest is per server process.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import {
  ABUSE_LIMITS,
  type HandshakeRefusal,
  REFUSAL_TEXTS,
  type RefusalCode,
  SERVER_TEXTS,
  parseWith,
  socketAuthSchema,
} from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthService } from '../auth/service.ts';
import { type AddressCaps, MemoryAddressCaps } from '../cluster/address-caps.ts';
import type { User } from '../games/requests.ts';
import { networkOf } from '../networks.ts';
import { socketOriginCheck } from '../http/origins.ts';
import type { GameServer, GameSocket } from './typed-socket.ts';

/** Fastify's `trustProxy` values: the socket's client address is read the way requests' `ip` is. */
export type TrustProxy = boolean | string | string[] | ((address: string, hop: number) => boolean);

export interface AdmissionOptions {
  readonly rateLimits: boolean;
  /** As the HTTP server's (default false: the peer's address). */
  readonly trustProxy?: TrustProxy | undefined;
  /** Default ABUSE_LIMITS.maxSockets; tests lower it. */
  readonly maxSockets?: number | undefined;
  /** Sockets per client network; default in process. */
  readonly addresses?: AddressCaps | undefined;
  readonly log: FastifyBaseLogger;
}

/** A user's sockets on this server, as admission counts them. */
export interface Admitted {
  /** A socket past the handshake: counted for its user; past `socketsPerUser`, the user's oldest is closed. */
  connected(socket: GameSocket): void;
  /** A socket closed: true when it was its user's last on this server. */
  disconnected(socket: GameSocket): boolean;
}

/**
 * The socket.io server's handshake option: another site's page may not open a socket (WebSocket
 * upgrades ignore CORS), only this server's own and `allowedOrigins` (ALLOWED_ORIGINS; http/origins.ts).
 */
export function handshakeOptions(allowedOrigins: readonly string[]): {
  allowRequest: ReturnType<typeof socketOriginCheck>;
} {
  return { allowRequest: socketOriginCheck(allowedOrigins) };
}

/**
 * Installs the handshake's checks on `io`. Call it before anything else listens to engine.io's
 * 'connection' (transport.ts lets go of the handshake request there, after its address is read here).
 */
export function admission(io: GameServer, auth: AuthService, options: AdmissionOptions): Admitted {
  const { rateLimits } = options;
  const maxSockets = options.maxSockets ?? ABUSE_LIMITS.maxSockets;
  const trust = trustFunction(options.trustProxy ?? false);
  const addresses = options.addresses ?? new MemoryAddressCaps();
  /** Sockets held (connected, or past the caps and authenticating) on this server. */
  let held = 0;
  /** Each user's open sockets, oldest first. */
  const byUser = new Map<string, Set<GameSocket>>();

  // `socket.handshake.headers` is empty by the time the middleware runs (transport.ts lets go of the
  // handshake request): the client's address, which needs the forwarding header behind a trusted
  // proxy, is read from the request first and kept by the connection.
  const clientAddresses = new WeakMap<object, string>();
  io.engine.on('connection', (rawSocket: { request: IncomingMessage | null }) => {
    if (rawSocket.request) clientAddresses.set(rawSocket, requestIp(rawSocket.request, trust));
  });

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
          options.log.error({ err: error }, 'socket authentication could not be checked');
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

  return {
    connected(socket) {
      const userId = socket.data.user.id;
      let open = byUser.get(userId);
      if (!open) byUser.set(userId, (open = new Set()));
      open.add(socket);
      if (rateLimits && open.size > ABUSE_LIMITS.socketsPerUser) {
        // The newest connection wins: the oldest is told why, then closed (it does not reconnect by itself).
        const oldest = open.values().next().value as GameSocket;
        oldest.emit('error', { message: SERVER_TEXTS.replacedByNewerConnection });
        oldest.disconnect(true);
      }
    },
    disconnected(socket) {
      const userId = socket.data.user.id;
      const open = byUser.get(userId);
      if (!open?.delete(socket) || open.size > 0) return false;
      byUser.delete(userId);
      return true;
    },
  };
}

/** A refused handshake: the client's connect_error, its text as the message and its code in `data`. */
function handshakeRefused(code: RefusalCode, message: string = REFUSAL_TEXTS[code], retry = false): Error {
  const data: HandshakeRefusal = retry ? { code, retry } : { code };
  return Object.assign(new Error(message), { data });
}

function trustFunction(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (typeof trust === 'function') return trust;
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  return proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((v) => v.trim()) : trust);
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
