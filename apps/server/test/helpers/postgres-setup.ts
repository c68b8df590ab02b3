/**
 * Global setup of the projects that boot servers (server, quiet, e2e, bench): one embedded PostgreSQL
 * for the whole run, shared by these projects — the server's own code (src/db/embedded.ts), from the
 * same npm binaries — in which every boot makes a database of its own. It listens on a free loopback port, so child processes
 * (real server nodes) reach it by URL. Durability settings stay as the server's (fsync on).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectionUrl, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import './databases.ts';

/** The run's one PostgreSQL, shared by the projects' setups (they run in one process) until the last one's teardown. */
interface Shared {
  url: Promise<string>;
  stop: () => Promise<void>;
  users: number;
}
const runWide = globalThis as { memeslamTestPostgres?: Shared };

async function start(): Promise<{ url: string; stop: () => Promise<void> }> {
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'memeslam-test-pg-'));
  // Run as root, PostgreSQL runs as an unprivileged user, which must pass through this folder.
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({
    dir: join(root, 'cluster'),
    passwordFile: join(root, 'password'),
    loopback: true,
    // Test files of every project run side by side, each with servers of ten connections.
    settings: { max_connections: '800', shared_buffers: '128MB' },
    log: {
      info: () => {},
      // db-outage.test.ts refuses connections on purpose for minutes: the server's retries are expected.
      warn: (m) => {
        if (!m.includes('is not currently accepting connections')) console.warn(`[postgres] ${m}`);
      },
      error: (m) => console.error(`[postgres] ${m}`),
    },
  });
  console.log(`[tests] embedded PostgreSQL for the tests up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    url: connectionUrl(postgres.connection, 'postgres'),
    async stop() {
      const stopping = performance.now();
      await postgres.stop();
      rmSync(root, { recursive: true, force: true });
      console.log(
        `[tests] embedded PostgreSQL stopped and removed in ${((performance.now() - stopping) / 1000).toFixed(1)} s`,
      );
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!runWide.memeslamTestPostgres) {
    const starting = start();
    runWide.memeslamTestPostgres = {
      url: starting.then((started) => started.url),
      stop: () => starting.then((started) => started.stop()),
      users: 0,
    };
  }
  const shared = runWide.memeslamTestPostgres;
  shared.users += 1;
  project.provide('embeddedPostgresUrl', await shared.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete runWide.memeslamTestPostgres;
    await shared.stop();
  };
}
