/**
 * Opens the database the configuration names — the embedded PostgreSQL under DATA_DIR (embedded.ts),
 * or the PostgreSQL server at DATABASE_URL — checks that it keeps what it commits, and applies the
 * numbered migrations before anything else touches it. One code path: node-postgres and drizzle.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type EmbeddedLog, startEmbeddedPostgres } from './embedded.ts';
import { upgradeFromPglite } from './pglite-upgrade.ts';
import * as schema from './schema.ts';

/** The database or a transaction on it: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs a named statement, parsed and planned once per connection. */
export type Prepared = (statement: { name: string; text: string; values: unknown[] }) => Promise<unknown>;

export interface Database {
  readonly db: Db;
  /** `embedded`: the PostgreSQL this server runs under DATA_DIR; `external`: DATABASE_URL. */
  readonly kind: 'embedded' | 'external';
  /** The embedded PostgreSQL's postmaster (its processes' figures in the server benchmark). */
  readonly postmasterPid: () => number | undefined;
  /** Statements the database runs side by side for the live games' log, leaving connections for the rest. */
  readonly logWriters: number;
  readonly prepared: Prepared;
  /**
   * The live games' log writes, on `logWriters` connections of their own: every ack waits for them,
   * so they never queue for a pooled connection behind other work (a burst of new games held 30 and
   * more queries waiting for the pool's 10 connections; README, "Server benchmark").
   */
  readonly logPrepared: Prepared;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));
const POOL_CONNECTIONS = 10;
/**
 * Log batches in flight at once. One: the next batch gathers while one commits, so batches grow with
 * the load. Four side by side (measured with bench:server at 1,000 games) cost the database
 * about twice the CPU, commits contending for the WAL, with no better ack latency.
 */
const LOG_WRITERS = 1;
/**
 * The log's connections run only the group commit's statements, which read `games` by key. A plan
 * PostgreSQL caches for them while the table is small (a new database) would scan it whole once it
 * has grown, until the table's next ANALYZE: measured at 2,000 games, 751 buffers read at every batch.
 */
const LOG_SETTINGS = '-c enable_seqscan=off';
/** What a commit needs to survive a crash of the machine, not only of the process. */
const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes'] as const;
/** Any fixed number: nodes that start together take turns at migrating. */
const MIGRATION_LOCK = 7_316_001;

export interface DatabaseOptions {
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly log: EmbeddedLog;
  /** Operator tools: share the embedded PostgreSQL of a server that runs on this DATA_DIR. */
  readonly attach?: boolean;
}

/** A pool on the configured PostgreSQL, the embedded one started first; closing it stops that one. */
export interface Pool {
  readonly pool: pg.Pool;
  /** The live games' log writes' own connections (opened on first use). */
  readonly logPool: pg.Pool;
  readonly kind: Database['kind'];
  readonly postmasterPid: () => number | undefined;
  close(): Promise<void>;
}

export async function openPool(options: DatabaseOptions): Promise<Pool> {
  const embedded = options.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dir: join(options.dataDir, 'postgres'),
        passwordFile: join(options.dataDir, 'postgres-password'),
        log: options.log,
        attach: options.attach ?? false,
      });
  const poolOf = (max: number, settings?: string) => {
    const opened = new pg.Pool({
      ...(embedded
        ? // Explicit, so no PGSSLMODE in the environment asks a Unix socket for TLS.
          { ...embedded.app, ssl: false }
        : { connectionString: options.databaseUrl as string }),
      max,
      ...(settings ? { options: settings } : {}),
    });
    // An idle client's error must not crash the process: PostgreSQL restarted and the pool replaces the client.
    opened.on('error', () => {});
    return opened;
  };
  const pool = poolOf(POOL_CONNECTIONS);
  const logPool = poolOf(LOG_WRITERS, LOG_SETTINGS);
  return {
    pool,
    logPool,
    kind: embedded ? 'embedded' : 'external',
    postmasterPid: () => embedded?.pid,
    async close() {
      await Promise.all([pool.end(), logPool.end()]);
      await embedded?.stop();
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const opened = await openPool(options);
  try {
    const client = await opened.pool.connect();
    try {
      await checkDurability(client, opened.kind === 'embedded' ? null : options.log);
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(drizzle(client, { schema }), { migrationsFolder });
      if (opened.kind === 'embedded') await upgradeFromPglite(options.dataDir, client, options.log);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
  return {
    db: drizzle(opened.pool, { schema }),
    kind: opened.kind,
    postmasterPid: opened.postmasterPid,
    logWriters: LOG_WRITERS,
    prepared: preparedOn(opened.pool),
    logPrepared: preparedOn(opened.logPool),
    close: opened.close,
  };
}

/** The migrations this release knows, oldest first (drizzle's journal). */
export function migrationTags(): string[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/**
 * Applies the first `count` migrations only (a restore rebuilds the schema its backup was taken at,
 * loads the rows, then applies the rest): a copy of the folder whose journal stops there.
 */
export async function migrateTo(
  client: pg.PoolClient | pg.Client,
  count: number = migrationTags().length,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'memeslam-migrations-'));
  try {
    await cp(migrationsFolder, folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, count);
    await writeFile(journalFile, JSON.stringify(journal));
    await migrate(drizzle(client, { schema }), { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Each pooled connection parses and plans a named statement once, the first time it runs it. */
function preparedOn(pool: pg.Pool): Prepared {
  return (statement) => pool.query(statement);
}

/**
 * The embedded database is started with fsync, synchronous_commit and full_page_writes on, and refuses
 * to serve otherwise. An external server is the operator's: one without them is served, with a warning.
 */
async function checkDurability(client: pg.PoolClient, warnOnly: EmbeddedLog | null): Promise<void> {
  const { rows } = await client.query<{ name: string; setting: string }>(
    'SELECT name, setting FROM pg_settings WHERE name = ANY($1)',
    [DURABILITY_SETTINGS],
  );
  const off = rows.filter((row) => row.setting !== 'on').map((row) => `${row.name}=${row.setting}`);
  if (off.length === 0) return;
  const message = `the database does not keep every commit through a crash of the machine (${off.join(', ')})`;
  if (!warnOnly) throw new Error(message);
  warnOnly.warn(`${message}: acknowledged plays may be lost on a power cut`);
}

/** A cheap round trip, for /health. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
