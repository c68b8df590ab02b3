/**
 * The group commit's statement on PostgreSQL: a batch of log entries touches nothing but
 * the log, so it never waits on a game's row. With a foreign key from the log to `games`, every entry
 * took a `FOR KEY SHARE` lock on its game's row, which waits behind any transaction holding that row
 * `FOR UPDATE`. A batch written again skips what is stored; a first attempt does not look. And the
 * log has connections of its own: a write does not queue behind the pool's other work.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { GameStore } from '../src/games/store.ts';
import { SERVER_SETTINGS_MODES } from './helpers/boot.ts';
import { withScratchDatabase } from './helpers/scratch-database.ts';
import { insertGameRow, newHost } from './helpers/game-rows.ts';

/** Long enough for a write that does not wait to land many times over on a loaded machine. */
const NOT_WAITING_MS = 10_000;

/** A game's row, as a new lobby writes it, hosted by a new user. */
async function newGame(database: Database, store: GameStore, roomCode: string): Promise<string> {
  return insertGameRow(store, { roomCode, hostId: await newHost(database.db, roomCode), hostName: roomCode });
}

describe.each(SERVER_SETTINGS_MODES)('the game log on PostgreSQL (%s)', (mode) => {
  it("writes a game's log entries while another transaction holds the game's row, and writes them again safely", async () => {
    await withScratchDatabase(mode, async (database, url) => {
      const holder = new pg.Client({ connectionString: url });
      try {
        const store = new GameStore(database.db, database.prepared, null, database.logPrepared);
        const rows = async <T>(text: string) =>
          ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
        const gameId = await newGame(database, store, 'LOGGED');

        await holder.connect();
        await holder.query('begin');
        await holder.query('select id from games where id = $1 for update', [gameId]);
        const entries = [1, 2, 3].map((n) => ({ n, at: n * 10, seq: n, command: null }));
        const written = store.write([{ gameId, write: { entries } }]).then(() => 'written' as const);
        const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), NOT_WAITING_MS).unref());
        expect(await Promise.race([written, waited])).toBe('written');
        await holder.query('commit');

        const log = async () =>
          (await rows<{ n: number }>(`select n from game_log where game_id = '${gameId}' order by n`)).map((r) => r.n);
        expect(await log()).toEqual([1, 2, 3]);

        // Written again (its answer was lost): what is stored is skipped, the rest lands.
        const more = [3, 4].map((n) => ({ n, at: n * 10, seq: n, command: null }));
        expect(await store.write([{ gameId, write: { entries: more } }])).toEqual([]);
        expect(await log()).toEqual([1, 2, 3, 4]);
        // A first attempt carries no such check: nothing of it can be stored yet.
        const again = store.write([{ gameId, write: { entries: [{ n: 4, at: 40, seq: 4, command: null }] } }], {
          fresh: true,
        });
        await expect(again).rejects.toMatchObject({ code: '23505' });
        expect(await log()).toEqual([1, 2, 3, 4]);
      } finally {
        await holder.end().catch(() => {});
      }
    });
  });
  it("writes a game's log entries while every pooled connection is busy: the log has connections of its own", async () => {
    await withScratchDatabase(mode, async (database, url) => {
      const store = new GameStore(database.db, database.prepared, null, database.logPrepared);
      const gameId = await newGame(database, store, 'POOLED');
      // As many sleeping statements as the pool has connections, all running: any pooled query waits
      // for the first of them to end.
      const sleeping = `select pg_sleep(${NOT_WAITING_MS / 1000})`;
      const sleeps = Array.from({ length: 10 }, () => Promise.resolve(database.db.execute(sql.raw(sleeping))));
      const firstAwake = Promise.race(sleeps).then(
        () => 'waited' as const,
        () => 'waited' as const,
      );
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      const asleep = async () =>
        Number(
          (
            await watcher.query(`select count(*) as n from pg_stat_activity where query = $1 and state = 'active'`, [
              sleeping,
            ])
          ).rows[0].n,
        );
      while ((await asleep()) < 10) await new Promise((resolve) => setImmediate(resolve));

      const entries = [1, 2].map((n) => ({ n, at: n * 10, seq: n, command: null }));
      const written = store.write([{ gameId, write: { entries } }], { fresh: true }).then(() => 'written' as const);
      expect(await Promise.race([written, firstAwake])).toBe('written');
      // The sleepers are cancelled rather than waited out.
      await watcher.query(`select pg_cancel_backend(pid) from pg_stat_activity where query = $1`, [sleeping]);
      await watcher.end();
      await Promise.allSettled(sleeps);
    });
  });
});
