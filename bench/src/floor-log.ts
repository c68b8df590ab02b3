/**
 * The durable floor's log (floor-server.ts --durable; bench:server --floor durable): what DESIGN's
 * "durable" adds to the bare relay, and nothing else. Every play, power-up and bot play is appended
 * to a log in an embedded PostgreSQL started as the server starts its own (the same binaries and
 * settings: fsync, synchronous_commit and full_page_writes on); appends are group-committed as the
 * server's are (games/log.ts): one batch in flight, a batch started a turn of the event loop after its
 * first append and at least GATHER_MS after the last one started, one INSERT of the rows gathered; and
 * each append's callback (its ack and broadcasts) runs once its batch is committed. So the durable
 * floor is the simplest server that does the job as DESIGN defines it: the real server's extra work
 * over it is its game logic, not its durability.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type EmbeddedLog, startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { GATHER_MS } from '../../apps/server/src/games/log.ts';

export interface FloorLog {
  /** Appends one entry for `gameId`; `then` runs once it is committed. */
  append(gameId: string, command: object | null, then: () => void): void;
  /** The game has ended: its entry count is forgotten (its rows stay). */
  forget(gameId: string): void;
  /** Entries committed so far, and the database's durability settings (for the test). */
  figures(): Promise<{ committed: number; batches: number; settings: Record<string, string> }>;
  close(): Promise<void>;
}

interface Pending {
  readonly row: { game_id: string; n: number; at: number; command: object | null };
  readonly then: () => void;
}

const quiet: EmbeddedLog = { info: () => {}, warn: (m) => console.error(m), error: (m) => console.error(m) };

export async function openFloorLog(): Promise<FloorLog> {
  const dir = mkdtempSync(join(tmpdir(), 'memeslam-floor-'));
  const database = await startEmbeddedPostgres({
    dir: join(dir, 'postgres'),
    passwordFile: join(dir, 'postgres-password'),
    log: quiet,
  });
  const client = new pg.Client({ ...database.connection });
  await client.connect();
  await client.query(`create table floor_log (
    game_id text not null, n integer not null, at double precision not null, command jsonb,
    primary key (game_id, n))`);
  const lengths = new Map<string, number>();
  let gathering: Pending[] = [];
  /** The batch being written, if any: close waits for it. */
  let writing: Promise<void> | null = null;
  let committed = 0;
  let batches = 0;
  let closed = false;
  let lastStart = -Infinity;
  let scheduled = false;

  /** A batch waits for company: a turn of the event loop, and what is left of GATHER_MS since the last one started. */
  const schedule = (): void => {
    if (scheduled || writing || gathering.length === 0) return;
    scheduled = true;
    const run = () => {
      const wait = lastStart + GATHER_MS - performance.now();
      if (wait > 0) {
        setTimeout(run, wait);
        return;
      }
      scheduled = false;
      write();
    };
    setImmediate(run);
  };

  const write = (): void => {
    if (closed || writing || gathering.length === 0) return;
    lastStart = performance.now();
    const batch = gathering;
    gathering = [];
    writing = client
      .query({
        name: 'floor-log-write',
        text: `insert into floor_log (game_id, n, at, command)
          select v.game_id, v.n, v.at, v.command
          from json_to_recordset($1::json) as v(game_id text, n integer, at double precision, command jsonb)`,
        values: [JSON.stringify(batch.map((p) => p.row))],
      })
      .then(
        () => {
          committed += batch.length;
          batches += 1;
          for (const p of batch) p.then();
        },
        (error: unknown) => {
          console.error(`floor log: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      )
      .finally(() => {
        writing = null;
        schedule();
      });
  };

  return {
    append(gameId, command, then) {
      const n = (lengths.get(gameId) ?? 0) + 1;
      lengths.set(gameId, n);
      gathering.push({ row: { game_id: gameId, n, at: performance.now(), command }, then });
      schedule();
    },
    forget(gameId) {
      lengths.delete(gameId);
    },
    async figures() {
      const { rows } = await client.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')`,
      );
      return { committed, batches, settings: Object.fromEntries(rows.map((r) => [r.name, r.setting])) };
    },
    async close() {
      closed = true;
      gathering = [];
      await writing;
      await client.end();
      await database.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
