/**
 * socket.io's in-memory adapter (one node: no Redis) with a broadcast to one room that costs less.
 * Under bench:server's load at 2,000 games, a room's broadcasts were a fifth of what the server
 * allocated (V8's sampling heap profiler), and two parts of that were the stock adapter's own:
 *
 * - its WebSocket frame was built from `'4' + text` (engine.io's message type before the packet), a
 *   string V8 copies whole into a flat one before writing it to a buffer: 7% of all bytes allocated;
 * - each broadcast made two Sets: of the sockets excluded and of the sockets sent to (a socket is in
 *   one room's list once): 1.3%.
 *
 * Here the type byte and the text are written into the frame's buffer one after the other, and the
 * room's sockets are walked directly. Anything else (several rooms, exclusions) is the stock adapter's.
 * The packets written are byte for byte the stock adapter's (local-adapter.test.ts).
 */
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';
import type { Packet } from 'socket.io-parser';
import { WebSocket } from 'ws';
import { JsonOnlyEncoder } from './json-only-parser.ts';

/** engine.io's "message" packet type, which every socket.io packet travels in. */
const MESSAGE = 0x34; // '4'

interface BroadcastTarget {
  readonly client: { writeToEngine(packets: string[], options: object): void };
  notifyOutgoingListeners?: (packet: Packet) => void;
}

export class LocalAdapter extends Adapter {
  readonly #encoder = new JsonOnlyEncoder();

  override broadcast(packet: Packet, opts: BroadcastOptions): void {
    const sids = opts.rooms.size === 1 && !opts.except?.size ? this.#onlyRoom(opts.rooms) : null;
    if (sids === null) {
      super.broadcast(packet, opts);
      return;
    }
    const flags = opts.flags ?? {};
    packet.nsp = this.nsp.name as string;
    const encoded = this.#encoder.encode(packet);
    const text = encoded[0] as string;
    const data = Buffer.allocUnsafe(1 + Buffer.byteLength(text));
    data[0] = MESSAGE;
    data.write(text, 1, 'utf8');
    const packetOpts = {
      preEncoded: true,
      volatile: flags.volatile,
      compress: flags.compress,
      // engine.io's WebSocket transport sends this frame as it is; other transports send `encoded`.
      wsPreEncodedFrame: (
        WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }
      ).Sender.frame(data, { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true }),
    };
    const sockets = this.nsp.sockets as Map<string, BroadcastTarget>;
    for (const sid of sids) {
      const socket = sockets.get(sid);
      if (!socket) continue;
      socket.notifyOutgoingListeners?.(packet);
      socket.client.writeToEngine(encoded, packetOpts);
    }
  }

  /** The sockets of the one room in `rooms` (an empty list when it has none). */
  #onlyRoom(rooms: Set<string>): ReadonlySet<string> {
    for (const room of rooms) return this.rooms.get(room) ?? NO_SOCKETS;
    return NO_SOCKETS;
  }
}

const NO_SOCKETS: ReadonlySet<string> = new Set();
