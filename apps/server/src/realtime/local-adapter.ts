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
 *
 * `prepare` encodes a broadcast to one room at once and sends it later: a game's step holds its
 * broadcasts until its writes are durable, and what waits is then one string, the packet's text,
 * instead of the payload's objects, which lived long enough to be promoted to V8's old generation.
 * The text waits as a string, not as the frame's buffer: buffers held that long kept their pools'
 * memory outside V8's heap, which brought on two to three times as many mark-compacts (README,
 * "Server benchmark"). A prepared broadcast goes to the room's sockets as they are when it is sent;
 * it does not call socket.io's outgoing-packet listeners (`onAnyOutgoing`), which this server does
 * not use.
 */
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';
import { type Packet, PacketType } from 'socket.io-parser';
import { WebSocket } from 'ws';
import { JsonOnlyEncoder } from './json-only-parser.ts';

/** engine.io's "message" packet type, which every socket.io packet travels in. */
const MESSAGE = 0x34; // '4'

interface BroadcastTarget {
  readonly client: { writeToEngine(packets: string[], options: object): void };
  notifyOutgoingListeners?: (packet: Packet) => void;
}

type Flags = NonNullable<BroadcastOptions['flags']>;

export class LocalAdapter extends Adapter {
  readonly #encoder = new JsonOnlyEncoder();

  override broadcast(packet: Packet, opts: BroadcastOptions): void {
    const sids = opts.rooms.size === 1 && !opts.except?.size ? this.#onlyRoom(opts.rooms) : null;
    if (sids === null) {
      super.broadcast(packet, opts);
      return;
    }
    packet.nsp = this.nsp.name as string;
    this.#write(sids, this.#text(packet), opts.flags ?? {}, packet);
  }

  /** An event to everyone in `room`, encoded now; the function returned sends it. */
  prepare(room: string, event: string, args: readonly unknown[]): () => void {
    const text = this.#text({ type: PacketType.EVENT, nsp: this.nsp.name as string, data: [event, ...args] });
    return () => this.#write(this.rooms.get(room) ?? NO_SOCKETS, text, NO_FLAGS, null);
  }

  #text(packet: Packet): string {
    return this.#encoder.encode(packet)[0] as string;
  }

  /** `packet`: for socket.io's outgoing-packet listeners (null: none are told). */
  #write(sids: ReadonlySet<string>, text: string, flags: Flags, packet: Packet | null): void {
    const data = Buffer.allocUnsafe(1 + Buffer.byteLength(text));
    data[0] = MESSAGE;
    data.write(text, 1, 'utf8');
    const packetOpts = {
      preEncoded: true,
      volatile: flags.volatile,
      compress: flags.compress,
      // engine.io's WebSocket transport sends this frame as it is; other transports send the text.
      wsPreEncodedFrame: (
        WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }
      ).Sender.frame(data, { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true }),
    };
    const packets = [text];
    const sockets = this.nsp.sockets as Map<string, BroadcastTarget>;
    for (const sid of sids) {
      const socket = sockets.get(sid);
      if (!socket) continue;
      if (packet) socket.notifyOutgoingListeners?.(packet);
      socket.client.writeToEngine(packets, packetOpts);
    }
  }

  /** The sockets of the one room in `rooms` (an empty list when it has none). */
  #onlyRoom(rooms: Set<string>): ReadonlySet<string> {
    for (const room of rooms) return this.rooms.get(room) ?? NO_SOCKETS;
    return NO_SOCKETS;
  }
}

const NO_SOCKETS: ReadonlySet<string> = new Set();
const NO_FLAGS: Flags = {};
