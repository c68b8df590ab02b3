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
 * broadcasts until its writes are durable, and what waits is then a few buffers instead of the
 * payload's objects, which lived long enough to be promoted to V8's old generation. A prepared
 * broadcast goes to the room's sockets at the time it is sent; it does not call socket.io's
 * outgoing-packet listeners (`onAnyOutgoing`), which this server does not use.
 */
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';
import { type Packet, PacketType } from 'socket.io-parser';
import { WebSocket } from 'ws';
import { JsonOnlyEncoder } from './json-only-parser.ts';

/** engine.io's "message" packet type, which every socket.io packet travels in. */
const MESSAGE = 0x34; // '4'

interface BroadcastTarget {
  readonly client: { writeToEngine(packets: string[], options: object): void };
  readonly conn: { readonly transport: { readonly name: string } };
  notifyOutgoingListeners?: (packet: Packet) => void;
}

/** A packet's bytes: engine.io's type byte and socket.io's text, and the WebSocket frame that carries them. */
interface Encoded {
  readonly data: Buffer;
  readonly frame: Buffer[];
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
    const text = this.#text(packet);
    this.#write(sids, encodedOf(text), text, opts.flags ?? {}, packet);
  }

  /** An event to everyone in `room`, encoded now; the function returned sends it. */
  prepare(room: string, event: string, args: readonly unknown[]): () => void {
    const packet: Packet = { type: PacketType.EVENT, nsp: this.nsp.name as string, data: [event, ...args] };
    const encoded = encodedOf(this.#text(packet));
    return () => this.#write(this.rooms.get(room) ?? NO_SOCKETS, encoded, null, NO_FLAGS, null);
  }

  #text(packet: Packet): string {
    return this.#encoder.encode(packet)[0] as string;
  }

  /**
   * `text`: the packet's text, which transports other than WebSocket send (null: read back from the
   * bytes, for such a socket only). `packet`: for socket.io's outgoing-packet listeners (null: none).
   */
  #write(sids: ReadonlySet<string>, encoded: Encoded, text: string | null, flags: Flags, packet: Packet | null): void {
    const packetOpts = {
      preEncoded: true,
      volatile: flags.volatile,
      compress: flags.compress,
      // engine.io's WebSocket transport sends this frame as it is; other transports send the text.
      wsPreEncodedFrame: encoded.frame,
    };
    let packets = text === null ? null : [text];
    const sockets = this.nsp.sockets as Map<string, BroadcastTarget>;
    for (const sid of sids) {
      const socket = sockets.get(sid);
      if (!socket) continue;
      if (packet) socket.notifyOutgoingListeners?.(packet);
      const frameOnly = text === null && socket.conn.transport.name === 'websocket';
      socket.client.writeToEngine(frameOnly ? FRAME_ONLY : (packets ??= [encoded.data.toString('utf8', 1)]), packetOpts);
    }
  }

  /** The sockets of the one room in `rooms` (an empty list when it has none). */
  #onlyRoom(rooms: Set<string>): ReadonlySet<string> {
    for (const room of rooms) return this.rooms.get(room) ?? NO_SOCKETS;
    return NO_SOCKETS;
  }
}

function encodedOf(text: string): Encoded {
  const data = Buffer.allocUnsafe(1 + Buffer.byteLength(text));
  data[0] = MESSAGE;
  data.write(text, 1, 'utf8');
  const frame = (
    WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }
  ).Sender.frame(data, { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true });
  return { data, frame };
}

const NO_SOCKETS: ReadonlySet<string> = new Set();
const NO_FLAGS: Flags = {};
/**
 * What a WebSocket socket is given for a prepared broadcast: its transport sends the frame and never
 * reads the text, and engine.io keeps no empty text on its packet.
 */
const FRAME_ONLY = [''];
