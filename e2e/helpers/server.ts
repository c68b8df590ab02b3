/**
 * Boots the real server in-process for the browser journeys: the built web app from apps/web/dist
 * (e2e/global-setup.ts builds it), a temporary DATA_DIR, a database of its own in the test run's
 * embedded PostgreSQL (apps/server/test/helpers/postgres-setup.ts), no rate limits, on a free port of
 * 127.0.0.1. The environment's DATABASE_URL is deliberately ignored.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { scratchPostgres } from '../../apps/server/test/helpers/databases.ts';

/** The built web app the server serves (E2E_WEB_DIST when set, as in global-setup.ts). */
export const WEB_ROOT = process.env.E2E_WEB_DIST ?? resolve(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');

export interface E2eServer {
  /** http://127.0.0.1:port, without a trailing slash */
  readonly base: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * What a journey may choose of the server besides its environment: a hand-driven clock, chosen deals,
 * and rules that set a board up (the engine's, with a deal changed).
 */
export type ServerOptions = Pick<AppOptions, 'clock' | 'seeds' | 'rules'>;

export async function startServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<E2eServer> {
  if (!existsSync(join(WEB_ROOT, 'index.html'))) {
    throw new Error(`No built web app at ${WEB_ROOT}: the e2e project's globalSetup builds it (vitest --project e2e)`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-e2e-'));
  const database = await scratchPostgres();
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  };
  try {
    // Only the variables listed here: nothing leaks in from process.env (no SMTP_URL, say).
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      RATE_LIMITS: 'off',
      ...env,
    });
    const app = await buildApp(config, { ...options, webRoot: WEB_ROOT });
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      return {
        base,
        app,
        async close() {
          try {
            await app.close();
          } finally {
            await cleanUp();
          }
        },
      };
    } catch (error) {
      await app.close();
      throw error;
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/**
 * One server for the enclosing describe block, started before its journeys and closed after; env
 * adds configuration (REQUIRE_EMAIL_VERIFICATION, say) and options a clock or seeds, as
 * startServer's do.
 */
export function useServer(env: Record<string, string> = {}, options: ServerOptions = {}): () => E2eServer {
  let server: E2eServer | undefined;
  beforeAll(async () => {
    server = await startServer(env, options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('useServer(): the server is not started yet (use it inside a test)');
    return server;
  };
}
