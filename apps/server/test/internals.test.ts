/**
 * Every private internal of socket.io, engine.io and ws that the tuned transport relies on
 * (apps/server/src/realtime/internals.ts), checked against the installed packages on a real
 * connection: after an upgrade that changed one, this file fails with the internal's name and the
 * package's version, before any game test fails in a puzzling way.
 */
import { readFileSync } from 'node:fs';
import { ServerResponse, createServer } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, Socket as TcpSocket } from 'node:net';
import { dirname, join } from 'node:path';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { Adapter } from 'socket.io-adapter';
import { type Socket as ClientSocket, io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  type BroadcastTarget,
  type EngineConnection,
  INTERNALS,
  type InternalName,
  type UpgradeResponse,
  corkableSocket,
  internalChanged,
  preEncoded,
  replaceFlush,
  upgradeResponse,
  writePreEncoded,
  writeQueue,
} from '../src/realtime/internals.ts';

const serverRequire = createRequire(new URL('../src/realtime/internals.ts', import.meta.url));

/** The directory of `pkg` as `from` resolves it (packages whose `exports` hide package.json included). */
function packageDir(pkg: string, from = serverRequire): string {
  let dir = dirname(from.resolve(pkg));
  while (dir !== dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === pkg) return dir;
    } catch {
      // not this directory
    }
    dir = dirname(dir);
  }
  throw new Error(`${pkg} is not installed where apps/server resolves it`);
}

function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(packageDir(pkg), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The message a failed check gives: the package and its version, the internal, and what it is used for. */
function changed(internal: InternalName, detail = ''): string {
  const { pkg } = INTERNALS[internal];
  return `${pkg} ${version(pkg)}: ${internalChanged(internal, detail)}`;
}

/** A bare socket.io server (WebSocket and long-polling) with one client of each transport connected. */
describe('the private internals the tuned transport relies on', () => {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket', 'polling'] });
  const connections: (EngineConnection & { request: unknown })[] = [];
  const upgrades: { req: object; res: UpgradeResponse; headersSeen: boolean }[] = [];
  io.engine.use((req: object, res: object, next: () => void) => {
    const upgrade = upgradeResponse(res);
    if (upgrade) upgrades.push({ req, res: upgrade, headersSeen: false });
    else expect(res).toBeInstanceOf(ServerResponse);
    next();
  });
  io.engine.on('headers', (_headers: unknown, req: object) => {
    const upgrade = upgrades.find((u) => u.req === req);
    if (upgrade) upgrade.headersSeen = true;
  });
  io.engine.on('connection', (connection: EngineConnection & { request: unknown }) => connections.push(connection));
  let base = '';
  const clients: ClientSocket[] = [];
  const sockets = new Map<string, ServerSocket>();

  async function client(transport: 'websocket' | 'polling') {
    const socket = connect(base, { transports: [transport], reconnection: false, query: { transport } });
    clients.push(socket);
    const server = new Promise<ServerSocket>((resolve) =>
      io.on('connection', (s) => {
        if (s.handshake.query.transport === transport) resolve(s);
      }),
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    sockets.set(transport, await server);
  }

  beforeAll(async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    await client('websocket');
    await client('polling');
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await io.close();
  });

  const server = (transport: 'websocket' | 'polling') => sockets.get(transport) as ServerSocket;
  const engineOf = (transport: 'websocket' | 'polling') =>
    server(transport).conn as unknown as EngineConnection & { request: unknown };

  it(`engine.io: Socket#flush() and Socket#writeBuffer (${INTERNALS.engineFlush.use})`, async () => {
    const connection = engineOf('websocket');
    expect(connections, 'engine.io no longer emits "connection" with its Socket').toContain(connection);
    expect(typeof connection.flush, changed('engineFlush', 'no flush method')).toBe('function');
    expect(Array.isArray(connection.writeBuffer), changed('engineWriteBuffer', 'not an array')).toBe(true);
    // A packet queued waits in writeBuffer until the flush, which hands the queue to the transport
    // and starts a new array.
    let queuedAtFlush: unknown[] | undefined;
    const own = connection.flush;
    replaceFlush(connection, (flush) => () => {
      const before = writeQueue(connection);
      queuedAtFlush = before ? [...before] : undefined;
      flush();
      expect(writeQueue(connection), changed('engineWriteBuffer', 'the same array after a flush')).not.toBe(before);
      connection.flush = own;
    });
    const got = new Promise((resolve) => clients[0]?.once('probe', resolve));
    server('websocket').emit('probe', 1);
    expect(await got).toBe(1);
    expect(queuedAtFlush?.length, changed('engineWriteBuffer', 'the packet was not queued there')).toBe(1);
  });

  it(`engine.io's WebSocket#socket and ws's WebSocket#_socket (${INTERNALS.wsTcpSocket.use})`, () => {
    const ws = engineOf('websocket').transport?.socket;
    expect(ws instanceof WebSocket, changed('engineTransportSocket', 'not the ws WebSocket apps/server imports')).toBe(
      true,
    );
    expect(ws?._socket instanceof TcpSocket, changed('wsTcpSocket', 'not a net.Socket')).toBe(true);
    expect(corkableSocket(engineOf('websocket')), changed('wsTcpSocket', 'cannot be corked')).toBe(ws?._socket);
    // Long-polling has no socket of its own: its writes are flushed as they are.
    expect(corkableSocket(engineOf('polling'))).toBeNull();
  });

  it('ws: one copy, the one engine.io loads (apps/server declares the range engine.io does)', () => {
    const engineRequire = createRequire(join(packageDir('engine.io'), 'package.json'));
    expect(packageDir('ws', engineRequire), `engine.io ${version('engine.io')} loads another ws than apps/server`).toBe(
      packageDir('ws'),
    );
    const declared = (
      JSON.parse(readFileSync(join(packageDir('engine.io'), 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies.ws;
    const ours = (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies.ws;
    expect(ours, `engine.io ${version('engine.io')} declares ws ${declared}: move apps/server's range with it`).toBe(
      declared,
    );
  });

  it(`ws: Sender.frame() (${INTERNALS.wsSenderFrame.use})`, () => {
    const data = Buffer.from('42["x",1]');
    const frame = Buffer.concat(preEncoded(data, {}).wsPreEncodedFrame);
    // RFC 6455: FIN and the text opcode, no mask, the length in 7 bits, then the payload.
    expect(frame, changed('wsSenderFrame', 'not an unmasked final text frame')).toEqual(
      Buffer.concat([Buffer.from([0x81, data.length]), data]),
    );
  });

  it(`socket.io: Client#writeToEngine() and engine.io's wsPreEncodedFrame (${INTERNALS.enginePreEncodedFrame.use})`, async () => {
    for (const transport of ['websocket', 'polling'] as const) {
      const target = server(transport) as unknown as BroadcastTarget;
      expect(typeof target.client.writeToEngine, changed('socketWriteToEngine', 'no such method')).toBe('function');
      const client = clients[transport === 'websocket' ? 0 : 1] as ClientSocket;
      const got = new Promise<string>((resolve) => {
        client.once('fromText', () => resolve('text'));
        client.once('fromFrame', () => resolve('frame'));
      });
      // The text and the frame carry different events: which one arrives says which was sent.
      writePreEncoded(target, ['2["fromText"]'], preEncoded(Buffer.from('42["fromFrame"]'), {}));
      const expected = transport === 'websocket' ? 'frame' : 'text';
      expect(await got, changed('enginePreEncodedFrame', `the ${transport} transport sent the wrong form`)).toBe(
        expected,
      );
    }
  });

  it(`socket.io: Socket#notifyOutgoingListeners() (${INTERNALS.socketNotifyOutgoing.use})`, () => {
    const socket = server('websocket');
    const target = socket as unknown as BroadcastTarget;
    expect(typeof target.notifyOutgoingListeners, changed('socketNotifyOutgoing', 'no such method')).toBe('function');
    const heard: unknown[] = [];
    const listener = (...args: unknown[]) => heard.push(args);
    socket.onAnyOutgoing(listener);
    target.notifyOutgoingListeners?.({ type: 2, nsp: '/', data: ['told', 1] });
    socket.offAnyOutgoing(listener);
    expect(heard, changed('socketNotifyOutgoing', 'the listener was not told')).toEqual([['told', 1]]);
  });

  it(`engine.io: a WebSocket upgrade's stand-in response (${INTERNALS.engineUpgradeResponse.use})`, () => {
    const upgrade = upgrades.find((u) => engineOf('websocket').request === u.req) ?? upgrades[0];
    expect(upgrade, changed('engineUpgradeResponse', 'the middlewares saw no stand-in response')).toBeDefined();
    expect(
      (upgrade?.res as { req?: unknown }).req,
      changed('engineUpgradeResponse', 'its req is not the request'),
    ).toBe(upgrade?.req);
    expect(upgrade?.headersSeen, changed('engineUpgradeResponse', "no 'headers' event with that request")).toBe(true);
  });

  it("socket.io-adapter: one copy, the one socket.io's namespaces use (local-adapter.ts extends it)", () => {
    expect(
      io.of('/').adapter instanceof Adapter,
      `socket.io ${version('socket.io')} uses another socket.io-adapter`,
    ).toBe(true);
  });
});
