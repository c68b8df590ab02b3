/**
 * What one turn of the event loop sends a socket leaves in one TCP write: a bare socket.io server,
 * a real client, and the server side's writes counted on its TCP socket.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket as TcpSocket } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type EngineConnection, coalesceWrites } from '../src/realtime/coalesced-writes.ts';

/** A server whose engine connections are coalesced (or not), with one client connected. */
async function pair(coalesced: boolean) {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  const tcp: TcpSocket[] = [];
  const connections: EngineConnection[] = [];
  io.engine.on('connection', (connection: EngineConnection & { transport: { socket: { _socket: TcpSocket } } }) => {
    if (coalesced) coalesceWrites(connection);
    tcp.push(connection.transport.socket._socket);
    connections.push(connection);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, {
    transports: ['websocket'],
    reconnection: false,
  });
  const [server] = await Promise.all([
    new Promise<ServerSocket>((resolve) => io.once('connection', resolve)),
    new Promise((resolve) => client.once('connect', () => resolve(null))),
  ]);
  const socket = tcp[0] as TcpSocket;
  /** Counts the TCP socket's writes from now on (a corked burst is one _writev). */
  const countWrites = () => {
    let writes = 0;
    const write = socket._write.bind(socket);
    const writev = socket._writev?.bind(socket);
    socket._write = (...args: Parameters<TcpSocket['_write']>) => {
      writes += 1;
      write(...args);
    };
    if (writev) {
      socket._writev = (...args: Parameters<NonNullable<TcpSocket['_writev']>>) => {
        writes += 1;
        writev(...args);
      };
    }
    return () => writes;
  };
  return {
    server,
    client,
    connection: connections[0] as EngineConnection,
    countWrites,
    close: async () => {
      client.close();
      await io.close();
    },
  };
}

describe('coalesced writes', () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  for (const coalesced of [true, false]) {
    it(`sends an ack and two events of one turn in ${coalesced ? 'one write' : 'a write each (uncoalesced)'}`, async () => {
      const p = await pair(coalesced);
      close = p.close;
      const received: string[] = [];
      p.client.on('cardPlayed', () => received.push('cardPlayed'));
      p.client.on('handUpdated', () => received.push('handUpdated'));
      p.server.on('playCard', (_payload: unknown, ack: (answer: unknown) => void) => {
        const writes = p.countWrites();
        ack({ success: true });
        p.server.emit('cardPlayed', { pileIndex: 0 });
        p.server.emit('handUpdated', { hand: [] });
        setImmediate(() => p.server.emit('counted', writes()));
      });
      const counted = new Promise<number>((resolve) => p.client.once('counted', resolve));
      const answer = await p.client.timeout(5000).emitWithAck('playCard', { cardId: 'x', pileIndex: 0 });
      expect(answer).toEqual({ success: true });
      const writes = await counted;
      expect(received).toEqual(['cardPlayed', 'handUpdated']);
      expect(writes).toBe(coalesced ? 1 : 3);
    });
  }

  it('lets go of what a packet carried once it is written, and keeps one queue array', async () => {
    const p = await pair(true);
    close = p.close;
    const queue = p.connection.writeBuffer;
    const received = new Promise((resolve) => p.client.once('cardPlayed', resolve));
    p.server.emit('cardPlayed', { pileIndex: 0, gameState: { status: 'active' } });
    const queued = [...(p.connection.writeBuffer ?? [])];
    expect(queued.map((packet) => typeof packet.data)).toEqual(['string']);
    expect(await received).toEqual({ pileIndex: 0, gameState: { status: 'active' } });
    expect(queued.map((packet) => [packet.data, packet.options])).toEqual([[undefined, undefined]]);
    // engine.io's flush put a new array in its place; the written one, emptied, is back.
    expect(p.connection.writeBuffer).toBe(queue);
    expect(queue).toEqual([]);
    // And it still carries what comes next.
    const next = new Promise((resolve) => p.client.once('handUpdated', resolve));
    p.server.emit('handUpdated', { hand: [] });
    expect(await next).toEqual({ hand: [] });
  });
});
