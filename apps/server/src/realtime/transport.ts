/**
 * How messages leave: the socket.io server's options, what each engine.io connection keeps, and the
 * games' channels (a game's room, a user's sockets) over the adapter.
 *
 * SOCKET_TRANSPORT (config.ts) picks one of two settings:
 * - `tuned` (default): on one node the local adapter (local-adapter.ts: a room's broadcast encoded
 *   once, a prepared broadcast held as text), each connection's writes coalesced to one TCP write a
 *   turn of the event loop (coalesced-writes.ts), and a WebSocket upgrade's request let go of once its
 *   101 is written. These rely on private internals of socket.io, engine.io and ws, all named in
 *   internals.ts.
 * - `stock`: socket.io's own in-memory adapter and engine.io's own writes, no private internal: the
 *   setting to run on when an upgrade of those packages changed one (internals.test.ts says which).
 * Both use the JSON-only encoder (json-only-parser.ts, socket.io's public `parser` option) and let go
 * of each connection's handshake request as socket.io's docs ("Memory usage") show. In cluster mode
 * the Redis adapter carries broadcasts, whichever the setting (cluster/socket-adapter.ts).
 */
import { SOCKET_TRANSPORTS, type ServerArgs, type ServerEventName } from '@memeslam/protocol';
import type { ServerOptions } from 'socket.io';
import type { Transport } from '../games/requests.ts';
import { coalesceWrites } from './coalesced-writes.ts';
import { type EngineConnection, type UpgradeResponse, releaseUpgradeRequest, upgradeResponse } from './internals.ts';
import { jsonOnlyParser } from './json-only-parser.ts';
import { LocalAdapter } from './local-adapter.ts';
import { type GameServer, emitTo } from './typed-socket.ts';

export const SOCKET_TRANSPORT_SETTINGS = ['tuned', 'stock'] as const;
export type SocketTransport = (typeof SOCKET_TRANSPORT_SETTINGS)[number];

/** How long `present()` waits for the other nodes' answers (cluster mode). */
const PRESENT_TIMEOUT_MS = 2000;

/** socket.io's own cap on one message; the pipeline's payload cap (pipeline.ts) sits well below it. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The socket.io server's transport options under `setting`. */
export function transportOptions(setting: SocketTransport): Partial<ServerOptions> {
  return {
    transports: [...SOCKET_TRANSPORTS],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    parser: jsonOnlyParser,
    // One node: the in-memory adapter with cheaper broadcasts to one room (local-adapter.ts).
    ...(setting === 'tuned' ? { adapter: LocalAdapter } : {}),
  };
}

/**
 * What each engine.io connection keeps under `setting`. Call it after admission (admission.ts reads
 * the client's address from the handshake request this lets go of).
 */
export function tuneConnections(io: GameServer, setting: SocketTransport): void {
  const tuned = setting === 'tuned';
  // Memory per connection (socket.io docs, "Memory usage"): by default each session keeps its first
  // HTTP request. It is let go of here, so `socket.handshake.headers` (which it fills) is empty.
  io.engine.on('connection', (rawSocket: { request: unknown } & EngineConnection) => {
    rawSocket.request = null;
    if (tuned) coalesceWrites(rawSocket);
  });
  if (!tuned) return;
  // A WebSocket upgrade's request is also held by the stand-in response engine.io builds for its
  // middlewares, which the TCP socket's 'close' listener keeps for the life of the connection. Once the
  // 101's headers are being written every middleware is done with it: let go of the request there
  // (internals.ts, INTERNALS.engineUpgradeResponse).
  const upgradeResponses = new WeakMap<object, UpgradeResponse>();
  io.engine.use((req: object, res: object, next: () => void) => {
    const upgrade = upgradeResponse(res);
    if (upgrade) upgradeResponses.set(req, upgrade);
    next();
  });
  io.engine.on('headers', (_headers: unknown, req: object) => {
    const upgrade = upgradeResponses.get(req);
    if (upgrade) releaseUpgradeRequest(upgrade);
  });
}

export const gameChannel = (gameId: string) => `game:${gameId}`;
export const userChannel = (userId: string) => `user:${userId}`;

/** The games' channels over `io`'s adapter (the local one, socket.io's own, or Redis's across nodes). */
export function channels(io: GameServer): Transport {
  // The local adapter encodes a message when it is prepared; the other adapters' are sent as they
  // would be at once, when the time comes.
  const adapter = io.of('/').adapter;
  const prepare = <E extends ServerEventName>(channel: string, event: E, args: ServerArgs<E>) =>
    adapter instanceof LocalAdapter
      ? adapter.prepare(channel, event, args)
      : () => emitTo(io.to(channel), event, ...args);
  return {
    toRoom: (gameId, event, ...args) => emitTo(io.to(gameChannel(gameId)), event, ...args),
    toUser: (userId, event, ...args) => emitTo(io.to(userChannel(userId)), event, ...args),
    prepareToRoom: (gameId, event, ...args) => prepare(gameChannel(gameId), event, args),
    prepareToUser: (userId, event, ...args) => prepare(userChannel(userId), event, args),
    subscribe: (userId, gameId) => io.in(userChannel(userId)).socketsJoin(gameChannel(gameId)),
    unsubscribe: (userId, gameId) => io.in(userChannel(userId)).socketsLeave(gameChannel(gameId)),
    close: (gameId) => io.in(gameChannel(gameId)).socketsLeave(gameChannel(gameId)),
    present: async (userIds) => {
      if (userIds.length === 0) return new Set();
      // Across nodes when the adapter is Redis's; a node that does not answer within 2 s is left out.
      const sockets = await io
        .timeout(PRESENT_TIMEOUT_MS)
        .in(userIds.map(userChannel))
        .fetchSockets()
        .catch(() => io.local.in(userIds.map(userChannel)).fetchSockets());
      return new Set(sockets.map((socket) => socket.data.user.id));
    },
  };
}
