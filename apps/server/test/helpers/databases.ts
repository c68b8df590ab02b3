/**
 * Databases for tests, without side effects (the e2e helpers use them too): a database of its own per
 * boot, in the test run's embedded PostgreSQL (helpers/postgres-setup.ts) or on DATABASE_URL's server.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test run's embedded PostgreSQL (postgres-setup.ts): its superuser's URL, on the `postgres` database. */
    embeddedPostgresUrl: string;
  }
}

/** A superuser's URL on the test run's embedded PostgreSQL, or the external one (DATABASE_URL). */
export function adminUrl(mode: 'embedded' | 'external' = 'embedded'): string {
  if (mode === 'embedded') return inject('embeddedPostgresUrl');
  if (!process.env.DATABASE_URL) throw new Error('the external PostgreSQL runs need DATABASE_URL');
  return process.env.DATABASE_URL;
}

/**
 * The test run's embedded PostgreSQL holds a database with every migration applied (postgres-setup.ts),
 * which each boot's database there is a copy of.
 */
export const MIGRATED_TEMPLATE = 'memeslam_migrated';

/**
 * A database of its own, so suites never see each other's rows; on the test run's embedded PostgreSQL or
 * the external one. On the embedded one it holds the migrated schema already (the server's migrations
 * then find nothing to do), unless `empty`: the suites that test the migrations start from nothing.
 * The external one's are always empty: every server booted there migrates its database for real.
 */
export async function scratchPostgres(
  mode: 'embedded' | 'external' = 'embedded',
  { empty = false }: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new URL(adminUrl(mode));
  const name = `memeslam_test_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(
    mode === 'embedded' && !empty ? `CREATE DATABASE ${name} TEMPLATE ${MIGRATED_TEMPLATE}` : `CREATE DATABASE ${name}`,
  );
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
