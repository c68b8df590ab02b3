/**
 * Every private internal of socket.io, engine.io and ws that the tuned transport (transport.ts,
 * coalesced-writes.ts, local-adapter.ts) relies on, named here and nowhere else. None of them is a
 * public API: an upgrade of those packages may rename or drop any of them without notice.
 * test/internals.test.ts checks each one against the installed packages on a real connection and,
 * when one changed, fails with the internal's name and the package's version. SOCKET_TRANSPORT=stock
 * (config.ts) runs the server without any of them: the stock adapter and engine.io's own writes.
 *
 * `ws` is declared `~8.21` in apps/server/package.json because engine.io 6.6 declares that same range:
 * npm then installs one copy, so the frames built here (`ws.Sender.frame`) come from the `ws` that
 * engine.io writes them with (internals.test.ts checks it is one copy). Move the range with engine.io's.
 */
import { ServerResponse } from 'node:http';
import type { Packet } from 'socket.io-parser';
import { WebSocket } from 'ws';

/** Where each internal lives, for the test's message and for a reader planning an upgrade. */
export const INTERNALS = {
  engineFlush: {
    pkg: 'engine.io',
    name: 'Socket#flush()',
    use: 'put off to the end of the turn (coalesced-writes.ts)',
  },
  engineWriteBuffer: {
    pkg: 'engine.io',
    name: 'Socket#writeBuffer',
    use: 'the queue a flush hands over: its packets let go of, the array reused (coalesced-writes.ts)',
  },
  engineTransportSocket: {
    pkg: 'engine.io',
    name: 'transports.WebSocket#socket',
    use: "the ws WebSocket under a connection's WebSocket transport (coalesced-writes.ts)",
  },
  wsTcpSocket: {
    pkg: 'ws',
    name: 'WebSocket#_socket',
    use: 'the TCP socket, corked around a flush (coalesced-writes.ts)',
  },
  wsSenderFrame: { pkg: 'ws', name: 'Sender.frame()', use: "a broadcast's frame, built once (local-adapter.ts)" },
  enginePreEncodedFrame: {
    pkg: 'engine.io',
    name: 'packet option wsPreEncodedFrame',
    use: 'the WebSocket transport sends that frame as it is (local-adapter.ts)',
  },
  socketWriteToEngine: {
    pkg: 'socket.io',
    name: 'Client#writeToEngine() with the preEncoded option',
    use: "a broadcast's encoded packet to one socket (local-adapter.ts)",
  },
  socketNotifyOutgoing: {
    pkg: 'socket.io',
    name: 'Socket#notifyOutgoingListeners()',
    use: 'onAnyOutgoing listeners told of a broadcast (local-adapter.ts)',
  },
  engineUpgradeResponse: {
    pkg: 'engine.io',
    name: "a WebSocket upgrade's stand-in response (WebSocketResponse#req) and the 'headers' event",
    use: "the upgrade's request let go of once the 101 is written (transport.ts)",
  },
} as const;

export type InternalName = keyof typeof INTERNALS;

/** What is used of an engine.io connection: its flush, its queue, and the TCP socket under a WebSocket transport. */
export interface EngineConnection {
  /** INTERNALS.engineFlush */
  flush(): void;
  /** INTERNALS.engineWriteBuffer: the packets waiting for the next flush; engine.io starts a new queue when it hands one over. */
  writeBuffer?: SentPacket[];
  /** INTERNALS.engineTransportSocket, INTERNALS.wsTcpSocket */
  readonly transport?: { readonly socket?: { readonly _socket?: Corkable } };
}
export interface SentPacket {
  data?: unknown;
  options?: unknown;
}
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Puts `replacement` in place of the connection's flush (INTERNALS.engineFlush); it is given
 * engine.io's own, bound to the connection.
 */
export function replaceFlush(connection: EngineConnection, replacement: (own: () => void) => () => void): void {
  connection.flush = replacement(connection.flush.bind(connection));
}

/** The packets waiting for the connection's next flush (INTERNALS.engineWriteBuffer). */
export function writeQueue(connection: EngineConnection): SentPacket[] | undefined {
  return connection.writeBuffer;
}

/** Gives the connection `queue` as its queue of packets waiting for the next flush (INTERNALS.engineWriteBuffer). */
export function setWriteQueue(connection: EngineConnection, queue: SentPacket[]): void {
  connection.writeBuffer = queue;
}

/** The TCP socket under a connection's WebSocket transport, when it can be corked; null under HTTP long-polling. */
export function corkableSocket(connection: EngineConnection): Corkable | null {
  const tcp = connection.transport?.socket?._socket;
  return typeof tcp?.cork === 'function' && typeof tcp.uncork === 'function' ? tcp : null;
}

/** A socket.io socket as a broadcast reaches it (`nsp.sockets`' values). */
export interface BroadcastTarget {
  /** INTERNALS.socketWriteToEngine */
  readonly client: { writeToEngine(packets: string[], options: object): void };
  /** INTERNALS.socketNotifyOutgoing */
  notifyOutgoingListeners?: (packet: Packet) => void;
}

/** How one encoded message is written to each socket it goes to: built once per message. */
export interface PreEncoded {
  readonly preEncoded: true;
  readonly volatile: boolean | undefined;
  readonly compress: boolean | undefined;
  /** INTERNALS.enginePreEncodedFrame: the WebSocket transport sends this frame as it is; other transports send the text. */
  readonly wsPreEncodedFrame: Buffer[];
}

/**
 * The write options of a message whose whole engine.io payload (its type byte, then socket.io's
 * packet) is `data`: its unmasked, final text frame as ws writes it (INTERNALS.wsSenderFrame).
 */
export function preEncoded(data: Buffer, flags: { volatile?: boolean; compress?: boolean }): PreEncoded {
  const sender = (WebSocket as { Sender?: { frame?: (data: Buffer, options: object) => Buffer[] } }).Sender;
  if (typeof sender?.frame !== 'function') throw new Error(internalChanged('wsSenderFrame'));
  return {
    preEncoded: true,
    volatile: flags.volatile,
    compress: flags.compress,
    wsPreEncodedFrame: sender.frame(data, { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true }),
  };
}

/** Writes an encoded message to one socket (INTERNALS.socketWriteToEngine): `text` is its engine.io packets' text. */
export function writePreEncoded(socket: BroadcastTarget, text: string[], options: PreEncoded): void {
  socket.client.writeToEngine(text, options);
}

/** A WebSocket upgrade's stand-in response as engine.io's middlewares see it (INTERNALS.engineUpgradeResponse). */
export interface UpgradeResponse {
  req: unknown;
}

/** The stand-in response of a WebSocket upgrade, or null for an HTTP request's real response. */
export function upgradeResponse(res: object): UpgradeResponse | null {
  return res instanceof ServerResponse ? null : (res as UpgradeResponse);
}

/** Lets go of the upgrade's request the stand-in response holds (for as long as the connection is open). */
export function releaseUpgradeRequest(res: UpgradeResponse): void {
  res.req = null;
}

/** The failure text for an internal that is no longer what this module expects. */
export function internalChanged(internal: InternalName, detail = ''): string {
  const { pkg, name, use } = INTERNALS[internal];
  return `${pkg}'s private ${name} is not what apps/server/src/realtime/internals.ts expects${detail ? ` (${detail})` : ''}; it is used for: ${use}. Adapt internals.ts to the installed ${pkg}, or run with SOCKET_TRANSPORT=stock.`;
}
