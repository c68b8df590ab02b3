/**
 * One socket write per connection and turn of the event loop, not one per message. engine.io hands
 * each packet to the transport as soon as it is queued, and each WebSocket frame is its own `writev`
 * system call: under load the largest single cost of the server (issue 24's profile). A connection's
 * flush is put off to the end of the loop's turn (setImmediate: after every I/O callback of the turn),
 * so what the turn brings a socket (acks, the rooms' broadcasts, the player's new hand) is flushed
 * together, and the TCP socket is corked around that flush, so it leaves in one system call.
 */

/** What is used of an engine.io connection: its flush, and the TCP socket under a WebSocket transport. */
export interface EngineConnection {
  flush(): void;
  readonly transport?: { readonly socket?: { readonly _socket?: Corkable } };
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
    if (corkable) tcp.cork();
    try {
      flush();
    } finally {
      if (corkable) tcp.uncork();
    }
  };
  connection.flush = () => {
    if (pending) return;
    pending = true;
    setImmediate(flushNow);
  };
}
