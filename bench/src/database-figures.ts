/**
 * bench:server's external mode: the database's own work per acknowledged play (docs/capacity.md's
 * inputs), read from PostgreSQL's statistics before and after a window.
 */
import pg from 'pg';
import { round } from './stats.ts';

/**
 * The external database's work so far (the run's own database on DATABASE_URL's server): transactions
 * committed and rows written in it, and the server's WAL position (the whole server's: others' writes
 * count too, so run it on a quiet PostgreSQL).
 */
export async function databaseFigures(scratch: { name: string; url: string }) {
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ commits: string; rows: string; wal: string }>(
      `SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS rows,
              pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal
         FROM pg_stat_database WHERE datname = $1`,
      [scratch.name],
    );
    const row = rows[0] as { commits: string; rows: string; wal: string };
    // Which tables those rows went to, and how (inserted / updated / deleted).
    const tables = await client.query<{ name: string; ins: string; upd: string; del: string }>(
      `SELECT relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del FROM pg_stat_user_tables`,
    );
    const byTable = new Map(tables.rows.map((t) => [t.name, [Number(t.ins), Number(t.upd), Number(t.del)] as const]));
    return { commits: Number(row.commits), rows: Number(row.rows), wal: Number(row.wal), byTable };
  } finally {
    await client.end();
  }
}

export function perPlay(
  before: Awaited<ReturnType<typeof databaseFigures>>,
  after: Awaited<ReturnType<typeof databaseFigures>>,
  plays: number,
) {
  return {
    commitsPerPlay: round((after.commits - before.commits) / plays, 3),
    rowsPerPlay: round((after.rows - before.rows) / plays, 2),
    walBytesPerPlay: round((after.wal - before.wal) / plays, 0),
    /** Per table with rows written: inserted / updated / deleted per play. */
    rowsPerPlayByTable: Object.fromEntries(
      [...after.byTable].flatMap(([name, counts]) => {
        const was = before.byTable.get(name) ?? [0, 0, 0];
        const per = counts.map((n, i) => round((n - (was[i] ?? 0)) / plays, 2));
        return per.some((n) => n > 0) ? [[name, per.join(' / ')]] : [];
      }),
    ),
  };
}
