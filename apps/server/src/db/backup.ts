/**
 * Logical backups of the app's database, in one gzip file of JSON lines: a header (format, the
 * migrations applied, the tables in load order), then one line per row (PostgreSQL's own JSON of the
 * row), the sequences, and a closing line with the count, without which a restore refuses the file.
 * A backup reads one snapshot (REPEATABLE READ), so it may run while the server serves; a restore
 * rebuilds the schema the backup was taken at, loads the rows in one transaction, then migrates on.
 * The dev outbox's rows (mail never sent, with live verify/reset links) are left out, and the file is
 * readable by its owner only (0600), also when it overwrites a file that had another mode
 * (docs/security.md).
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { migrateTo, migrationTags } from './client.ts';
import {
  type Query,
  type SequenceValue,
  countRows,
  readRows,
  readSequences,
  tablesInOrder,
  writeRows,
  writeSequences,
} from './transfer.ts';

const FORMAT = 'memeslam-backup';
const VERSION = 1;
/**
 * Tables whose rows a backup leaves out: the dev outbox holds the plaintext verify and reset links of
 * mail that was never sent (a backup is copied to places the live database is not). Restored empty.
 */
export const TABLES_LEFT_OUT: ReadonlySet<string> = new Set(['outbox']);

interface Header {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly createdAt: string;
  /** How many of the release's migrations the database had. */
  readonly migrations: number;
  readonly tables: readonly string[];
}

export class BackupError extends Error {}

async function appliedMigrations(query: Query): Promise<number> {
  const { rows } = await query(
    `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'`,
  );
  if (Number(rows[0]?.n) === 0) return 0;
  const applied = await query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return Number(applied.rows[0]?.n ?? 0);
}

/** Writes every row of the database to `file`; returns the rows written. */
export async function writeBackup(client: pg.PoolClient, file: string, now = new Date()): Promise<number> {
  const query: Query = (text, params) => client.query(text, params);
  const gzip = createGzip();
  // `mode` applies only to a new file: an existing one keeps its own unless changed before any byte is written.
  const handle = await open(file, 'w', 0o600);
  let out;
  try {
    await handle.chmod(0o600);
    out = handle.createWriteStream();
  } catch (error) {
    await handle.close();
    throw error;
  }
  const piped = finished(gzip.pipe(out));
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  let rows = 0;
  await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const tables = await tablesInOrder(query);
    const header: Header = {
      format: FORMAT,
      version: VERSION,
      createdAt: now.toISOString(),
      migrations: await appliedMigrations(query),
      tables,
    };
    await write(JSON.stringify(header));
    for (const table of tables) {
      if (TABLES_LEFT_OUT.has(table)) continue;
      const prefix = `{"table":${JSON.stringify(table)},"row":`;
      for await (const batch of readRows(query, table)) {
        for (const row of batch) await write(`${prefix}${row}}`);
        rows += batch.length;
      }
    }
    await write(JSON.stringify({ sequences: await readSequences(query) }));
    await write(JSON.stringify({ end: true, rows }));
  } finally {
    await query('ROLLBACK');
    gzip.end();
    await piped;
  }
  return rows;
}

export interface RestoreOptions {
  /** Drop what the database holds first (otherwise a database with rows is refused). */
  readonly replace: boolean;
}

/** The file's lines, one at a time (a gzip error or a missing file is thrown from here). */
function lineReader(file: string): () => Promise<string | null> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  return async () => {
    const { value, done } = await iterator.next();
    return done ? null : (value as string);
  };
}

/** Reads the whole file once before anything is changed: a damaged or cut file is refused untouched. */
async function checkFile(file: string): Promise<Header> {
  const nextLine = lineReader(file);
  let header: Header;
  try {
    header = JSON.parse((await nextLine()) ?? '') as Header;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    throw new BackupError(`${file} is not a MemeSlam backup (not gzip'd JSON lines)`);
  }
  if (header?.format !== FORMAT || header.version !== VERSION)
    throw new BackupError(`${file} is not a MemeSlam backup`);
  const known = migrationTags().length;
  if (header.migrations > known) {
    throw new BackupError(
      `${file} was taken by a newer release (${header.migrations} migrations; this one knows ${known}): restore it with that release`,
    );
  }
  let rows = 0;
  try {
    for (let line = await nextLine(); line !== null; line = await nextLine()) {
      const record = JSON.parse(line) as { table?: string; end?: boolean; rows?: number };
      if (record.table !== undefined) rows += 1;
      else if (record.end) {
        if (record.rows !== rows)
          throw new BackupError(`${file} is damaged: it says ${record.rows} rows, holds ${rows}`);
        return header;
      }
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is damaged (${(error as Error).message}): nothing was restored`);
  }
  throw new BackupError(`${file} is cut short (no closing line): nothing was restored`);
}

/** Restores `file` into the database; returns the rows loaded. */
export async function restoreBackup(client: pg.PoolClient, file: string, options: RestoreOptions): Promise<number> {
  const query: Query = (text, params) => client.query(text, params);
  const header = await checkFile(file);
  if ((await appliedMigrations(query)) > 0 && (await countRows(query)) > 0 && !options.replace) {
    throw new BackupError(
      'the database holds data: restore into an empty one, or pass --replace to drop its content first',
    );
  }
  if ((await appliedMigrations(query)) > 0) {
    await query('DROP SCHEMA IF EXISTS drizzle CASCADE');
    await query('DROP SCHEMA public CASCADE');
    await query('CREATE SCHEMA public');
  }
  await migrateTo(client, header.migrations);

  const nextLine = lineReader(file);
  await nextLine();
  let rows = 0;
  let sequences: SequenceValue[] = [];
  await query('BEGIN');
  try {
    let table = '';
    let pending: string[] = [];
    const flush = async () => {
      if (pending.length > 0) await writeRows(query, table, pending);
      rows += pending.length;
      pending = [];
    };
    for (let line = await nextLine(); line !== null; line = await nextLine()) {
      const record = JSON.parse(line) as { table?: string; row?: unknown; sequences?: SequenceValue[] };
      if (record.table !== undefined) {
        if (record.table !== table) {
          await flush();
          table = record.table;
        }
        pending.push(JSON.stringify(record.row));
        if (pending.length >= 500) await flush();
      } else {
        await flush();
        if (record.sequences) sequences = record.sequences;
      }
    }
    await writeSequences(query, sequences);
    await query('COMMIT');
  } catch (error) {
    await query('ROLLBACK').catch(() => {});
    throw error;
  }
  await migrateTo(client);
  return rows;
}
