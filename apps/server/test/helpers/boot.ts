/**
 * Boots the real server on a free port with a temporary DATA_DIR, on a PostgreSQL database made for
 * the one boot, and tears it all down. Where the database lives is the mode:
 * - `embedded`: in the test run's embedded PostgreSQL (helpers/postgres-setup.ts), every suite;
 * - `external`: on the server at DATABASE_URL (CI: the machine's own), for the suites whose behaviour
 *   depends on the PostgreSQL server's settings;
 * - `own`: the server starts its own embedded PostgreSQL under DATA_DIR, as `npm start` does.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { scratchPostgres } from './databases.ts';

export { adminUrl, scratchPostgres } from './databases.ts';

export type DatabaseMode = 'embedded' | 'external' | 'own';

const externalUrl = process.env.DATABASE_URL;

/** Every suite runs on these. */
export const DATABASE_MODES: readonly DatabaseMode[] = ['embedded'];

/** The suites whose behaviour depends on the PostgreSQL server's settings run on these. */
export const SERVER_SETTINGS_MODES: readonly DatabaseMode[] = externalUrl ? ['embedded', 'external'] : ['embedded'];

/** Says loudly, once per file that asks, that the external PostgreSQL runs are skipped (never in CI). */
export function warnIfNoExternal(): void {
  if (externalUrl) return;
  if (process.env.CI) throw new Error('CI must run the suites on the external PostgreSQL too: set DATABASE_URL');
  console.warn('\n*** SKIPPED: the external PostgreSQL runs of this suite (DATABASE_URL is unset). ***\n');
}
warnIfNoExternal();

/** A temporary DATA_DIR; run as root, the embedded PostgreSQL's unprivileged user must pass through it. */
export function temporaryDataDir(prefix = 'memeslam-data-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export interface Booted {
  readonly app: FastifyInstance;
  readonly config: Config;
  /** http://127.0.0.1:port */
  readonly base: string;
  readonly dataDir: string;
  /** Stops this server cleanly and starts another on the same database and DATA_DIR. */
  restart(options?: Omit<AppOptions, 'webRoot'>): Promise<void>;
  close(): Promise<void>;
}

export async function boot(
  mode: DatabaseMode,
  env: Record<string, string> = {},
  options: Omit<AppOptions, 'webRoot'> = {},
): Promise<Booted> {
  const dataDir = temporaryDataDir();
  const webRoot = join(dataDir, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>MemeSlam</title>');
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log(1)');
  const scratch = mode === 'own' || env.DATABASE_URL ? null : await scratchPostgres(mode);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'http://memeslam.test',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const start = async (appOptions: Omit<AppOptions, 'webRoot'>) => {
    const app = await buildApp(config, { webRoot, ...appOptions });
    return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  let running = await start(options);
  return {
    get app() {
      return running.app;
    },
    get base() {
      return running.base;
    },
    config,
    dataDir,
    async restart(next = options) {
      await running.app.close();
      running = await start(next);
    },
    async close() {
      await running.app.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call the way the web client makes it. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever JSON came back
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(`${base}/api${path}`, { method, headers, body: payload });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * POST /api/auth/register as the web app sends it: a 503 with Retry-After (the hashing line is full, as
 * on a busy CI machine: docs/limits.md) is asked again after that wait, a few times at most.
 */
export async function registerCall(base: string, account: unknown) {
  let answer = await call(base, 'POST', '/auth/register', { body: account });
  for (let tries = 0; answer.status === 503 && answer.headers.has('retry-after') && tries < 10; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after')) * 1000));
    answer = await call(base, 'POST', '/auth/register', { body: account });
  }
  return answer;
}

let counter = 0;
/** A fresh, valid registration body. */
export function newAccount(prefix = 'player') {
  counter += 1;
  const tag = `${prefix}${counter}${randomBytes(2).toString('hex')}`.slice(0, 20);
  return { username: tag, email: `${tag.toLowerCase()}@example.com`, password: 'correct horse 1' };
}
