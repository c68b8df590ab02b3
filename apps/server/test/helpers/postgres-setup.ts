/**
 * Global setup of the projects that boot servers (server, e2e, bench): one embedded PostgreSQL for
 * the whole run — the server's own code (src/db/embedded.ts), from the same npm binaries — in which
 * every boot makes a database of its own. It listens on a free loopback port, so child processes
 * (real server nodes) reach it by URL. Durability settings stay as the server's (fsync on).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectionUrl, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import './databases.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'memeslam-test-pg-'));
  // Run as root, PostgreSQL runs as an unprivileged user, which must pass through this folder.
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({
    dir: join(root, 'cluster'),
    passwordFile: join(root, 'password'),
    loopback: true,
    // Test files run side by side, each with servers of ten connections.
    settings: { max_connections: '500', shared_buffers: '128MB' },
    log: {
      info: () => {},
      // db-outage.test.ts refuses connections on purpose for minutes: the server's retries are expected.
      warn: (m) => {
        if (!m.includes('is not currently accepting connections')) console.warn(`[postgres] ${m}`);
      },
      error: (m) => console.error(`[postgres] ${m}`),
    },
  });
  project.provide('embeddedPostgresUrl', connectionUrl(postgres.connection, 'postgres'));
  console.log(
    `[${project.name}] embedded PostgreSQL for the tests up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return async () => {
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
