/**
 * One socket write per connection and turn of the event loop, not one per message. engine.io hands
 * each packet to the transport as soon as it is queued, and each WebSocket frame is its own `writev`
 * system call: under load the largest single cost of the server (issue 24's profile). A connection's
 * flush is put off to the end of the loop's turn (setImmediate: after every I/O callback of the turn),
 * so what the turn brings a socket (acks, the rooms' broadcasts, the player's new hand) is flushed
 * together, and the TCP socket is corked around that flush, so it leaves in one system call.
 *
 * Once the transport has taken a flush's packets (it writes them before the flush returns), each
 * packet lets go of its text and its pre-encoded WebSocket frame. engine.io's packet objects outlive
 * the write, so what they still pointed to survived the young generation and filled the old one:
 * under bench:server at 2,000 games this cut the bytes promoted per scavenge by a quarter and the
 * server's mark-compacts by two fifths (README, "Server benchmark"). The emptied queue is then given
 * back to engine.io as its next one: engine.io starts a new array for each flush, which lives until
 * the socket's next packet (a second or so) and so was promoted with every flush.
 */

/** What is used of an engine.io connection: its flush, and the TCP socket under a WebSocket transport. */
export interface EngineConnection {
  flush(): void;
  /** The packets waiting for the next flush; engine.io starts a new queue when it hands one over. */
  writeBuffer?: SentPacket[];
  readonly transport?: { readonly socket?: { readonly _socket?: Corkable } };
}
interface SentPacket {
  data?: unknown;
  options?: unknown;
}
interface Corkable {
  cork(): void;
  uncork(): void;
}

export function coalesceWrites(connection: EngineConnection): void {
  const flush = connection.flush.bind(connection);
  let pending = false;
  const flushNow = () => {
    pending = false;
    // ws's own socket, private to it; a transport without one (HTTP long-polling) is flushed as is.
    const tcp = connection.transport?.socket?._socket;
    const corkable = typeof tcp?.cork === 'function' && typeof tcp.uncork === 'function';
    const queued = connection.writeBuffer;
    if (corkable) tcp.cork();
    try {
      flush();
    } finally {
      if (corkable) tcp.uncork();
    }
    if (queued && connection.writeBuffer !== queued) {
      for (const packet of queued) {
        packet.data = undefined;
        packet.options = undefined;
      }
      // The WebSocket transport has written them all; the new queue is still empty unless the flush
      // itself queued more (a drain callback sending), in which case it stays.
      if (corkable && connection.writeBuffer?.length === 0) {
        queued.length = 0;
        connection.writeBuffer = queued;
      }
    }
  };
  connection.flush = () => {
    if (pending) return;
    pending = true;
    setImmediate(flushNow);
  };
}
