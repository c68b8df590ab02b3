/**
 * The upgrade from the PGlite release: a DATA_DIR whose database is PGlite's (`DATA_DIR/pglite`) is
 * copied, on the first start of this release, into the embedded PostgreSQL — accounts, sessions'
 * token versions, e-mail tokens, wallets and ledger, tournaments and payouts, finished games with
 * their replays, live games with their logs (the rooms are rebuilt from them right after, as at any
 * start). PGlite is opened here only, brought to this release's schema by the same migrations, and
 * copied in one transaction; its folder is then renamed, kept as a backup, and the log says where.
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { EmbeddedLog } from './embedded.ts';
import { type Query, copyDatabase, countRows } from './transfer.ts';

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** The folder of the PGlite release's database. */
export const pgliteFolder = (dataDir: string) => join(dataDir, 'pglite');

/** Runs at start, after the migrations, while the migration lock is held. */
export async function upgradeFromPglite(dataDir: string, target: pg.PoolClient, log: EmbeddedLog): Promise<void> {
  const folder = pgliteFolder(dataDir);
  if (!existsSync(join(folder, 'PG_VERSION'))) return;
  const backup = `${folder}-before-postgres-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const into: Query = (text, params) => target.query(text, params);
  // A copy that committed before the folder could be renamed is not made twice.
  if ((await countRows(into)) === 0) {
    log.info(`moving the PGlite database in ${folder} into the embedded PostgreSQL`);
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const source = await PGlite.create(folder);
    try {
      await migrate(drizzle(source), { migrationsFolder });
      const from: Query = (text, params) => source.query(text, params);
      await from('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await into('BEGIN');
      try {
        const copied = await copyDatabase(from, into);
        await into('COMMIT');
        log.info(
          `copied ${Object.entries(copied)
            .map(([table, n]) => `${n} ${table}`)
            .join(', ')}`,
        );
      } catch (error) {
        await into('ROLLBACK').catch(() => {});
        throw new Error(`the PGlite database in ${folder} could not be moved (nothing was changed): ${String(error)}`, {
          cause: error,
        });
      } finally {
        await from('ROLLBACK').catch(() => {});
      }
    } finally {
      await source.close();
    }
  }
  await rename(folder, backup);
  log.info(`the PGlite database now lives in the embedded PostgreSQL; the old folder is kept as a backup in ${backup}`);
}
