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
 * Here the type byte, the packet's head (its own type: `2` for an event) and its JSON are written
 * into the frame's buffer one after the other, so neither `'4' + text` nor the text itself (`'2' +
 * JSON`, flattened the same way: at 2,000 games the frames' allocations went from 9.5 to 0.8 MB/s, and
 * the server's from 59.7 to 54.6 KB per play, under bench:server) is copied, and the room's
 * sockets are walked directly. Anything else (several rooms, exclusions) is the stock adapter's.
 * The packets written are byte for byte the stock adapter's (local-adapter.test.ts).
 *
 * `prepare` encodes a broadcast to one room at once and sends it later: a game's step holds its
 * broadcasts until its writes are durable, and what waits is then the packet's text (its JSON and
 * head), instead of the payload's objects, which lived long enough to be promoted to V8's old
 * generation. The text waits as strings, not as the frame's buffer: buffers held that long kept their pools'
 * memory outside V8's heap, which brought on two to three times as many mark-compacts (docs/benchmarks.md,
 * "Server benchmark"). A prepared broadcast goes to the room's sockets as they are when it is sent;
 * it does not call socket.io's outgoing-packet listeners (`onAnyOutgoing`), which this server does
 * not use. The private parts of socket.io, engine.io and ws it writes through are named in internals.ts.
 */
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';
import { type Packet, PacketType } from 'socket.io-parser';
import { type BroadcastTarget, preEncoded, writePreEncoded } from './internals.ts';
import { JsonOnlyEncoder } from './json-only-parser.ts';

/** engine.io's "message" packet type, which every socket.io packet travels in. */
const MESSAGE = 0x34; // '4'

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
    this.#write(sids, this.#encoder.encodeParts(packet), opts.flags ?? {}, packet);
  }

  /** An event to everyone in `room`, encoded now; the function returned sends it. */
  prepare(room: string, event: string, args: readonly unknown[]): () => void {
    const parts = this.#encoder.encodeParts({
      type: PacketType.EVENT,
      nsp: this.nsp.name as string,
      data: [event, ...args],
    });
    return () => this.#write(this.rooms.get(room) ?? NO_SOCKETS, parts, NO_FLAGS, null);
  }

  /**
   * `parts`: the packet's head and JSON (JsonOnlyEncoder.encodeParts), written into the frame one
   * after the other; their joined text, which only other transports than WebSocket read, is never
   * copied into a flat string here. `packet`: for socket.io's outgoing-packet listeners (null: none
   * are told).
   */
  #write(sids: ReadonlySet<string>, [head, json]: [string, string], flags: Flags, packet: Packet | null): void {
    const headBytes = 1 + Buffer.byteLength(head);
    const data = Buffer.allocUnsafe(headBytes + Buffer.byteLength(json));
    data[0] = MESSAGE;
    data.write(head, 1, 'utf8');
    data.write(json, headBytes, 'utf8');
    // engine.io's WebSocket transport sends this frame as it is; other transports send the text.
    const options = preEncoded(data, flags);
    const packets = [head + json];
    const sockets = this.nsp.sockets as Map<string, BroadcastTarget>;
    for (const sid of sids) {
      const socket = sockets.get(sid);
      if (!socket) continue;
      if (packet) socket.notifyOutgoingListeners?.(packet);
      writePreEncoded(socket, packets, options);
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
