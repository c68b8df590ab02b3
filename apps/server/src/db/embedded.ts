/**
 * The server thread's side of the embedded database: starts PGlite in its worker thread
 * (pglite-worker.ts), waits until its socket server listens, and stops it cleanly — socket server,
 * then PGlite, then the thread. What the worker reports after start-up is logged, never dropped.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * PGlite is a single Postgres session. pglite-socket accepts up to this many connections but runs them
 * all in that session, one protocol message at a time (an open transaction's connection goes first):
 * nothing runs in parallel, and session state — prepared statements, settings, an error's skip to
 * Sync — would be shared. One connection is the single session the in-process driver had.
 */
export const EMBEDDED_CONNECTIONS = 1;
/**
 * The socket server admits a few more: node-postgres's pool drops a connection whose query failed and
 * opens a new one at once, before the server has seen the old one close. With room for one only, that
 * new connection was refused and the next query failed with EPIPE (any SQL error broke the next call).
 */
const SERVER_CONNECTIONS = EMBEDDED_CONNECTIONS + 3;

const WORKER_YOUNG_GENERATION_MB = 24;

export interface EmbeddedWorkerData {
  readonly dataDir: string;
  readonly maxConnections: number;
  /** Make a new data folder and exit. */
  readonly initOnly?: boolean;
}

/** Where node-postgres finds the socket server: a Unix socket's directory (host begins with '/') or a loopback port. */
export interface EmbeddedAddress {
  readonly host: string;
  readonly port: number;
}

export type FromWorker =
  | { readonly type: 'ready'; readonly address: EmbeddedAddress }
  | { readonly type: 'closed' }
  /** Something went wrong that the worker lives through; before 'ready' it means start-up failed. */
  | { readonly type: 'error'; readonly error: Error };
export type ToWorker = { readonly type: 'close' };

export interface Embedded {
  readonly address: EmbeddedAddress;
  /** Resolves once PGlite has closed its files and the thread is gone; rejects with the worker's error. */
  stop(): Promise<void>;
}

const spawn = (workerData: EmbeddedWorkerData) =>
  new Worker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData,
    // V8 sizes a thread's young generation by the machine's memory (128 MB here) and keeps what it
    // grew to; the worker's JavaScript is a thin layer around PGlite's WASM memory and needs little.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });

export async function startEmbedded(dataDir: string, log: (message: string, error: Error) => void): Promise<Embedded> {
  // Making a data folder runs initdb, whose memory PGlite's thread never gives back (about 130 MB):
  // a thread of its own makes it and exits, and the database the server uses opens an existing one.
  if (!existsSync(join(dataDir, 'pglite', 'PG_VERSION'))) {
    const [code] = (await once(spawn({ dataDir, maxConnections: 0, initOnly: true }), 'exit')) as [number];
    if (code !== 0) throw new Error(`the embedded database (PGlite in ${dataDir}) could not be created: exit ${code}`);
  }
  const worker = spawn({ dataDir, maxConnections: SERVER_CONNECTIONS });
  const where = `the embedded database (PGlite in ${dataDir})`;
  let state: 'starting' | 'running' | 'stopping' | 'stopped' = 'starting';
  let closed: { resolve(): void; reject(error: Error): void } | null = null;
  let stopped: Promise<void> | null = null;

  return new Promise<Embedded>((resolveStart, rejectStart) => {
    const fail = (error: Error) => {
      if (state === 'starting') {
        state = 'stopped';
        void worker.terminate();
        rejectStart(new Error(`${where} did not start: ${error.message}`, { cause: error }));
      } else if (state === 'stopping') {
        state = 'stopped';
        closed?.reject(new Error(`${where} did not close cleanly: ${error.message}`, { cause: error }));
      } else if (state === 'running') {
        log(`${where} reported an error`, error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (state === 'running') {
        state = 'stopped';
        log(`${where} stopped`, new Error(`its worker exited with code ${code}: every query fails until a restart`));
      } else {
        fail(new Error(`its worker exited with code ${code}`));
      }
    });
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'error') return fail(message.error);
      if (message.type === 'closed' && state === 'stopping') {
        state = 'stopped';
        closed?.resolve();
      }
      if (message.type !== 'ready' || state !== 'starting') return;
      state = 'running';
      resolveStart({
        address: message.address,
        stop() {
          if (stopped) return stopped;
          if (state !== 'running') return Promise.resolve();
          state = 'stopping';
          const confirmed = new Promise<void>((resolve, reject) => (closed = { resolve, reject }));
          worker.postMessage({ type: 'close' } satisfies ToWorker);
          stopped = confirmed.finally(() => worker.terminate());
          return stopped;
        },
      });
    });
  });
}
