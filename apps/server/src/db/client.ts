/**
 * Opens the database the configuration names — PGlite under DATA_DIR, run in its own worker thread
 * (embedded.ts), or PostgreSQL at DATABASE_URL — and applies the numbered migrations before anything
 * else touches it. Both are reached the same way: node-postgres and drizzle's node-postgres driver.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { EMBEDDED_CONNECTIONS, startEmbedded } from './embedded.ts';
import * as schema from './schema.ts';

/** The database or a transaction on it: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs a named statement, parsed and planned once per connection. */
export type Prepared = (statement: { name: string; text: string; values: unknown[] }) => Promise<unknown>;

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Statements the database runs side by side for the live games' log, leaving connections for the rest. */
  readonly logWriters: number;
  readonly prepared: Prepared;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));
const POSTGRES_CONNECTIONS = 10;
/** Log batches in flight at once on PostgreSQL: a commit waiting for its WAL flush holds up no other. */
const POSTGRES_LOG_WRITERS = 4;
/** Any fixed number: nodes that start together take turns at migrating. */
const MIGRATION_LOCK = 7_316_001;

export async function openDatabase(options: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  const embedded = options.databaseUrl
    ? null
    : await startEmbedded(options.dataDir, (message, error) => console.error(message, error));
  const pool = new pg.Pool(
    embedded
      ? {
          ...embedded.address,
          user: 'postgres',
          database: 'postgres',
          // Explicit, so no PGSSLMODE in the environment asks the socket server for TLS it has not got.
          ssl: false,
          max: EMBEDDED_CONNECTIONS,
          // The one connection stays open: nothing to gain from reconnecting to our own thread.
          idleTimeoutMillis: 0,
        }
      : { connectionString: options.databaseUrl as string, max: POSTGRES_CONNECTIONS },
  );
  // An idle client's error must not crash the process: PostgreSQL restarted and the pool replaces the
  // client, or the embedded worker stopped, which startEmbedded has logged.
  pool.on('error', () => {});
  const close = async () => {
    await pool.end();
    await embedded?.stop();
  };
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return {
    db: drizzle(pool, { schema }) as unknown as Db,
    kind: embedded ? 'pglite' : 'postgres',
    logWriters: embedded ? EMBEDDED_CONNECTIONS : POSTGRES_LOG_WRITERS,
    prepared: preparedOn(pool),
    close,
  };
}

/**
 * Prepared statements belong to a session, and the embedded database's connections share its one
 * session: a connection that replaces a dropped one would find a plain name taken. Each connection
 * names its statements with a number of its own. A statement that fails drops its connection, as
 * `pool.query` does.
 */
function preparedOn(pool: pg.Pool): Prepared {
  const numbers = new WeakMap<pg.PoolClient, number>();
  let next = 0;
  return async ({ name, text, values }) => {
    const client = await pool.connect();
    let number = numbers.get(client);
    if (number === undefined) numbers.set(client, (number = next++));
    try {
      const result = await client.query({ name: `${name}-${number}`, text, values });
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  };
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
