/**
 * The embedded database's own thread: PGlite on DATA_DIR/pglite behind pglite-socket, so the server
 * reaches it through node-postgres exactly as it reaches PostgreSQL, and a slow query runs here, not
 * on the server's event loop. Started and stopped by `startEmbedded`, whose messages embedded.ts defines.
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { EmbeddedAddress, EmbeddedWorkerData, FromWorker, ToWorker } from './embedded.ts';

/** The name libpq and node-postgres give a server's socket file in its directory. */
const SOCKET_PORT = 5432;
/**
 * PostgreSQL's default buffer pool (128 MB) lives in PGlite's WASM memory, which never shrinks: an
 * embedded server's working set (live games' logs, the accounts in play) fits a much smaller one.
 */
const SETTINGS = ['-c', 'shared_buffers=16MB'];
/** sun_path is 108 bytes on Linux, 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH = 103;

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread: see startEmbedded in embedded.ts');
const port = parentPort;
const { dataDir, maxConnections, initOnly } = workerData as EmbeddedWorkerData;

// A Unix socket in DATA_DIR reaches no one the directory does not let in; pglite-socket asks for no
// password, so a loopback port (any local user may connect) is only the fallback for a long DATA_DIR.
const socketPath = join(dataDir, `.s.PGSQL.${SOCKET_PORT}`);
const onSocket = Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH;
if (onSocket) await claimSocketPath(socketPath);

const dir = join(dataDir, 'pglite');
mkdirSync(dir, { recursive: true });
const db = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...SETTINGS] });
// A new data folder only: made, closed, and the thread gone with the memory initdb took.
if (initOnly) {
  await db.close();
  process.exit(0);
}
let closing = false;

// Once PGlite throws inside a query, pglite-socket 0.2.17 serves no one again (its queue stays marked
// busy) and every query after it would wait forever. Throw it out of the thread instead: the server
// thread logs it, and its queries fail at once.
const execProtocolRawStream = db.execProtocolRawStream.bind(db);
db.execProtocolRawStream = async (message, options) => {
  try {
    return await execProtocolRawStream(message, options);
  } catch (error) {
    if (!closing) {
      setImmediate(() => {
        throw error;
      });
    }
    throw error;
  }
};
const server = new PGLiteSocketServer({
  db,
  ...(onSocket ? { path: socketPath } : { host: '127.0.0.1', port: 0 }),
  maxConnections,
});
server.addEventListener('error', (event) => {
  port.postMessage({ type: 'error', error: asError((event as CustomEvent<unknown>).detail) } satisfies FromWorker);
});
await server.start();
// Connecting to a Unix socket takes write permission on it: the owner only, whatever the umask.
if (onSocket) chmodSync(socketPath, 0o600);
// getServerConn() is the socket's path, or host:port with the port the system chose.
const conn = server.getServerConn();
const address: EmbeddedAddress = onSocket
  ? { host: dataDir, port: SOCKET_PORT }
  : { host: conn.slice(0, conn.lastIndexOf(':')), port: Number(conn.slice(conn.lastIndexOf(':') + 1)) };

port.on('message', (message: ToWorker) => {
  if (message.type !== 'close') return;
  // An error here is thrown out of the worker: the server thread's close() rejects with it.
  closing = true;
  void (async () => {
    await server.stop();
    await db.close();
    port.postMessage({ type: 'closed' } satisfies FromWorker);
  })();
});
port.postMessage({ type: 'ready', address } satisfies FromWorker);

/**
 * A socket file left by a process that died is removed; one that answers belongs to a running server
 * on the same DATA_DIR, and two PGlite instances on one data directory would corrupt it.
 */
async function claimSocketPath(path: string): Promise<void> {
  const answered = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (answered) {
    throw new Error(`this DATA_DIR's embedded database is already open: a server answers at ${path}; stop it first`);
  }
  rmSync(path, { force: true });
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
