/**
 * The durable floor's log (floor-server.ts --durable; bench:server --floor durable): what
 * "durable" (every command logged before its ack) adds to the bare relay, and nothing else. Every play, power-up and bot play is appended
 * to a log in an embedded PostgreSQL started as the server starts its own (the same binaries and
 * settings: fsync, synchronous_commit and full_page_writes on), and group-committed by the server's
 * own GameLog (games/log.ts: one batch in flight, gathered for GATHER_MS), one INSERT per batch; each
 * append's callback (its ack and broadcasts) runs once its batch is committed. So the durable
 * floor is the simplest server that does the job as the product defines it: the real server's extra work
 * over it is its game logic, not its durability. bench:cluster's floor nodes log to the cluster's
 * shared PostgreSQL instead, each to a table of its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { type EmbeddedLog, startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { GameLog } from '../../apps/server/src/games/log.ts';
import type { Command } from '@memeslam/engine';

export interface FloorLog {
  /** Appends one entry for `gameId`; `then` runs once it is committed. */
  append(gameId: string, command: object, then: () => void): void;
  /** The game has ended: its entry count is forgotten (its rows stay). */
  forget(gameId: string): void;
  /** Entries committed so far, and the database's durability settings (for the test). */
  figures(): Promise<{ committed: number; batches: number; settings: Record<string, string> }>;
  close(): Promise<void>;
}

const fail = (message: string) => {
  console.error(`floor log: ${message}`);
  process.exit(1);
};
const quiet: EmbeddedLog = { info: () => {}, warn: (m) => console.error(m), error: (m) => console.error(m) };

/**
 * The log in its own embedded PostgreSQL; or, given `databaseUrl` (bench:cluster's floor nodes, which
 * share one PostgreSQL as the cluster's nodes do), in a table of its own there, dropped at close.
 */
export async function openFloorLog(databaseUrl?: string): Promise<FloorLog> {
  const { connection, stop } = databaseUrl
    ? { connection: { connectionString: databaseUrl }, stop: null }
    : await embedded();
  const table = databaseUrl ? `floor_log_${randomBytes(6).toString('hex')}` : 'floor_log';
  const client = new pg.Client(connection);
  await client.connect();
  await client.query(`create table ${table} (
    game_id text not null, n integer not null, at double precision not null, command jsonb,
    primary key (game_id, n))`);
  const gameLog = new GameLog({
    storage: {
      async write(batch) {
        const rows = batch.flatMap(({ gameId, write }) =>
          write.entries.map((e) => ({ game_id: gameId, n: e.n, at: e.at, command: e.command })),
        );
        await client.query({
          name: 'floor-log-write',
          text: `insert into ${table} (game_id, n, at, command)
            select v.game_id, v.n, v.at, v.command
            from json_to_recordset($1::json) as v(game_id text, n integer, at double precision, command jsonb)`,
          values: [JSON.stringify(rows)],
        });
        return [];
      },
    },
    // Its warnings and errors only (a write refused, the database away), as the floor has no logger.
    log: {
      warn: (o: object, m: string) => console.error(m, o),
      error: (o: object, m: string) => console.error(m, o),
    } as unknown as FastifyBaseLogger,
    onRefused: (gameId, error) => fail(`a write of ${gameId} was refused: ${String(error)}`),
  });
  const lengths = new Map<string, number>();
  let closed = false;

  return {
    append(gameId, command, then) {
      if (closed) return;
      const n = (lengths.get(gameId) ?? 0) + 1;
      lengths.set(gameId, n);
      const entry = { n, at: performance.now(), seq: n, command: command as Command };
      void gameLog.append(gameId, { entries: [entry] }).then(then);
    },
    forget(gameId) {
      lengths.delete(gameId);
    },
    async figures() {
      const { rows } = await client.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')`,
      );
      const settings = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
      return { committed: gameLog.steps, batches: gameLog.batches, settings };
    },
    async close() {
      closed = true;
      await gameLog.drain();
      if (!stop) await client.query(`drop table ${table}`);
      await client.end();
      await stop?.();
    },
  };
}

/** An embedded PostgreSQL started as the server starts its own, in a folder removed when it stops. */
async function embedded() {
  const dir = mkdtempSync(join(tmpdir(), 'memeslam-floor-'));
  const database = await startEmbeddedPostgres({
    dir: join(dir, 'postgres'),
    passwordFile: join(dir, 'postgres-password'),
    log: quiet,
  });
  return {
    connection: database.connection,
    stop: async () => {
      await database.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
