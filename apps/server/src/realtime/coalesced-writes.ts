/**
 * One socket write per connection and turn of the event loop, not one per message. engine.io hands
 * each packet to the transport as soon as it is queued, and each WebSocket frame is its own `writev`
 * system call: under load the largest single cost of the server (a CPU profile under bench:server). A connection's
 * flush is put off to the end of the loop's turn (setImmediate: after every I/O callback of the turn),
 * so what the turn brings a socket (acks, the rooms' broadcasts, the player's new hand) is flushed
 * together, and the TCP socket is corked around that flush, so it leaves in one system call.
 *
 * Once the transport has taken a flush's packets (it writes them before the flush returns), each
 * packet lets go of its text and its pre-encoded WebSocket frame. engine.io's packet objects outlive
 * the write, so what they still pointed to survived the young generation and filled the old one:
 * under bench:server at 2,000 games this cut the bytes promoted per scavenge by a quarter and the
 * server's mark-compacts by two fifths (docs/benchmarks.md, "Server benchmark"). The emptied queue is then given
 * back to engine.io as its next one: engine.io starts a new array for each flush, which lives until
 * the socket's next packet (a second or so) and so was promoted with every flush.
 */

import { type EngineConnection, corkableSocket, replaceFlush, setWriteQueue, writeQueue } from './internals.ts';

export type { EngineConnection } from './internals.ts';

/** Its private parts (the flush, the queue, the TCP socket) are reached through internals.ts. */
export function coalesceWrites(connection: EngineConnection): void {
  replaceFlush(connection, (flush) => {
    let pending = false;
    const flushNow = () => {
      pending = false;
      // A transport without a TCP socket of its own (HTTP long-polling) is flushed as is.
      const tcp = corkableSocket(connection);
      const queued = writeQueue(connection);
      tcp?.cork();
      try {
        flush();
      } finally {
        tcp?.uncork();
      }
      const next = writeQueue(connection);
      if (queued && next !== queued) {
        for (const packet of queued) {
          packet.data = undefined;
          packet.options = undefined;
        }
        // The WebSocket transport has written them all; the new queue is still empty unless the flush
        // itself queued more (a drain callback sending), in which case it stays.
        if (tcp && next?.length === 0) {
          queued.length = 0;
          setWriteQueue(connection, queued);
        }
      }
    };
    return () => {
      if (pending) return;
      pending = true;
      setImmediate(flushNow);
    };
  });
}
