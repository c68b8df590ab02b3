/** The server's own database code on a database of its own, for the suites that test its statements on PostgreSQL. */
import { rmSync } from 'node:fs';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { consoleLog } from '../../src/db/embedded.ts';
import { type DatabaseMode, scratchPostgres, temporaryDataDir } from './boot.ts';

/** Opens a new database (on the test run's embedded PostgreSQL, or DATABASE_URL's), runs `work`, then drops it. */
export async function withScratchDatabase(
  mode: DatabaseMode,
  work: (database: Database, url: string) => Promise<void>,
): Promise<void> {
  const dataDir = temporaryDataDir();
  const scratch = await scratchPostgres(mode === 'external' ? 'external' : 'embedded');
  try {
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir, log: consoleLog });
    try {
      await work(database, scratch.url);
    } finally {
      await database.close();
    }
  } finally {
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
