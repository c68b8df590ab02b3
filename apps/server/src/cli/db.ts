/**
 * Backups of the configured database (the same environment as the server):
 *   npm run db:backup -- [file]             default: ./memeslam-backup-<time>.jsonl.gz
 *   npm run db:restore -- <file> [--replace]
 * With the embedded database a backup uses the PostgreSQL of a server running on DATA_DIR (one
 * consistent snapshot while it serves), or starts it for the while. A restore needs the server
 * stopped (every node of a cluster): it replaces what the database holds.
 */
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, restoreBackup, writeBackup } from '../db/backup.ts';
import { openPool } from '../db/client.ts';
import { consoleLog } from '../db/embedded.ts';

const USAGE = 'usage: npm run db:backup -- [file]  |  npm run db:restore -- <file> [--replace]';

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  const replace = rest.includes('--replace');
  const files = rest.filter((arg) => arg !== '--replace');
  if ((command !== 'backup' && command !== 'restore') || files.length > 1 || (command === 'restore' && !files[0])) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const opened = await openPool({ ...config, log: consoleLog, attach: command === 'backup' });
  const client = await opened.pool.connect();
  try {
    if (command === 'backup') {
      const file = files[0] ?? `memeslam-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl.gz`;
      const rows = await writeBackup(client, file);
      console.log(`Backed up ${rows} rows to ${file}`);
    } else {
      const file = files[0] as string;
      const rows = await restoreBackup(client, file, { replace });
      console.log(`Restored ${rows} rows from ${file}`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError) && !isFileError(error)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    client.release();
    await opened.close();
  }
}

function isFileError(error: unknown): error is Error {
  return error instanceof Error && ['ENOENT', 'EACCES', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
