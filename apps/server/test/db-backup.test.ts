/**
 * `npm run db:backup` and `db:restore` on the embedded PostgreSQL, as an operator runs them: a backup
 * while the server serves (one snapshot), a restore into a new DATA_DIR that gives back every row of
 * every table exactly (but the dev outbox, left out), a file readable by its owner only (0600) whether
 * new or overwritten, and the refusals (a running server, a database with data, a damaged file).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_DATABASE } from '../src/db/embedded.ts';
import { tablesInOrder } from '../src/db/transfer.ts';
import { call, newAccount, temporaryDataDir } from './helpers/boot.ts';
import { listening, mainScript, run } from './helpers/process.ts';

const dbCli = fileURLToPath(new URL('../src/cli/db.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const envFor = (dataDir: string) => ({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });

/** A connection to the embedded PostgreSQL a running server has up on dataDir. */
async function connectTo(dataDir: string): Promise<pg.Client> {
  const client = new pg.Client({
    host: join(dataDir, 'postgres'),
    port: 5432,
    user: 'postgres',
    password: readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim(),
    database: EMBEDDED_DATABASE,
  });
  await client.connect();
  return client;
}

/** Every row of every table, as PostgreSQL's JSON, sorted: two databases hold the same data when these match. */
async function everyRow(client: pg.Client): Promise<Record<string, string[]>> {
  const query = (text: string, params?: unknown[]) => client.query(text, params);
  const tables: Record<string, string[]> = {};
  for (const table of await tablesInOrder(query)) {
    const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table}" t`);
    tables[table] = rows.map((r) => r.row).sort();
  }
  return tables;
}

async function startServer(dataDir: string) {
  const server = run(mainScript, [], envFor(dataDir));
  const base = await listening(server.child, server.out);
  return {
    base,
    async stop() {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  };
}

describe('backups of the embedded database', () => {
  it('a backup taken while serving restores every row into a new DATA_DIR; refusals are one clear line', async () => {
    const source = temporaryDataDir('memeslam-backup-');
    const target = temporaryDataDir('memeslam-restore-');
    dirs.push(source, target);
    const file = join(source, 'backup.jsonl.gz');

    const first = await startServer(source);
    const account = newAccount('keeper');
    await call(first.base, 'POST', '/auth/register', { body: account });
    await call(first.base, 'POST', '/auth/register', { body: newAccount('second') });
    const direct = await connectTo(source);
    const [user] = (await direct.query<{ id: string }>('SELECT id FROM users ORDER BY username LIMIT 1')).rows;
    // Money to the last digit, jsonb and timestamps come back as they were.
    await direct.query(
      `INSERT INTO wallet_ledger (user_id, kind, amount, currency, reference) VALUES ($1, 'tournamentPrize', '1234.567890123', 'SLAM', 'prize-1')`,
      [user?.id],
    );
    // A dev-outbox mail with a live link: never in a backup (docs/security.md).
    await direct.query(
      `INSERT INTO outbox ("to", subject, text, html, link) VALUES ('a@example.com', 'Reset', 'secret-link', 'x', 'http://localhost/reset-password?token=secret-token')`,
    );
    const before = await everyRow(direct);
    expect(before.outbox?.length).toBeGreaterThan(0);

    // An existing file with a looser mode is overwritten as 0600; a new one is made 0600.
    writeFileSync(file, 'an older file', { mode: 0o644 });
    expect(statSync(file).mode & 0o777).toBe(0o644);
    const backup = run(dbCli, ['backup', file], envFor(source));
    expect(await backup.exited).toBe(0);
    const total = Object.entries(before).reduce(
      (sum, [table, rows]) => sum + (table === 'outbox' ? 0 : rows.length),
      0,
    );
    expect(backup.out()).toContain(`Backed up ${total} rows to ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(gunzipSync(readFileSync(file)).toString('utf8')).not.toContain('secret-token');
    const fresh = join(source, 'fresh.jsonl.gz');
    const again = run(dbCli, ['backup', fresh], envFor(source));
    expect(await again.exited).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    // Written after the backup: not in it.
    await call(first.base, 'POST', '/auth/register', { body: newAccount('later') });
    await direct.end();

    const refusedWhileServing = run(dbCli, ['restore', file], envFor(source));
    expect(await refusedWhileServing.exited).not.toBe(0);
    expect(refusedWhileServing.err()).toMatch(/in use by the server with pid \d+: stop it first/);
    await first.stop();

    const restore = run(dbCli, ['restore', file], envFor(target));
    expect(await restore.exited).toBe(0);
    expect(restore.out()).toContain(`Restored ${total} rows from ${file}`);

    const second = await startServer(target);
    const restored = await connectTo(target);
    try {
      expect(await everyRow(restored)).toEqual({ ...before, outbox: [] });
      const login = await call(second.base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
    } finally {
      await restored.end();
      await second.stop();
    }

    const notEmpty = run(dbCli, ['restore', file], envFor(target));
    expect(await notEmpty.exited).toBe(1);
    expect(notEmpty.err()).toContain('the database holds data: restore into an empty one, or pass --replace');
    const replaced = run(dbCli, ['restore', file, '--replace'], envFor(target));
    expect(await replaced.exited).toBe(0);

    const cut = join(source, 'cut.jsonl.gz');
    const bytes = readFileSync(file);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = run(dbCli, ['restore', cut, '--replace'], envFor(target));
    expect(await damaged.exited).toBe(1);
    expect(damaged.err()).toMatch(/is damaged|is cut short/);
    const missing = run(dbCli, ['restore', join(source, 'nothing.gz')], envFor(target));
    expect(await missing.exited).toBe(1);
    expect(missing.err()).toContain('ENOENT');
    const usage = run(dbCli, ['restore'], envFor(target));
    expect(await usage.exited).toBe(2);
    expect(usage.err()).toContain('usage: npm run db:backup');
  }, 120_000);
});
