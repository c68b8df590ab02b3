/**
 * Global setup of the projects that boot servers (server, quiet, e2e, bench): one embedded PostgreSQL
 * for the whole run, shared by these projects — the server's own code (src/db/embedded.ts), from the
 * same npm binaries — in which every boot makes a database of its own. It listens on a free loopback port, so child processes
 * (real server nodes) reach it by URL. Durability settings stay as the server's (fsync on).
 *
 * The migrations run once, into a template database (MIGRATED_TEMPLATE), and each boot's database is a
 * copy of it (helpers/databases.ts): a copy costs PostgreSQL about half of what making a database and
 * migrating it did (about 150 of 300 ms of CPU, PostgreSQL's and the test's, measured on this cluster),
 * at every one of the hundreds of boots of a run. The migrations themselves still run for real at every
 * run: here, into the template, and from an empty database in the suites that test them (`empty`).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';
import { connectionUrl, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { MIGRATED_TEMPLATE } from './databases.ts';

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
  const url = connectionUrl(postgres.connection, 'postgres');
  await makeTemplate(url, root, (message) => console.warn(`[tests] ${message}`));
  console.log(`[tests] embedded PostgreSQL for the tests up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    url,
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

/** The template every boot's database is copied from: the server's own migrations, run by its own code. */
async function makeTemplate(adminUrl: string, root: string, warn: (message: string) => void): Promise<void> {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${MIGRATED_TEMPLATE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${MIGRATED_TEMPLATE}`;
  const database = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: root,
    log: { info: () => {}, warn, error: warn },
  });
  await database.close();
  // A copy fails while anyone is connected to its template: nobody may connect to it from now on.
  await admin(`ALTER DATABASE ${MIGRATED_TEMPLATE} WITH ALLOW_CONNECTIONS false`);
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
