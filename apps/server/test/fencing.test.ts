/**
 * Cluster mode's fencing, on PostgreSQL: a write carries its node's epoch for the game and
 * is refused, whole, once another node has raised the epoch by taking the game over; the game's
 * row and log stay as the new owner left them.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GameStore } from '../src/games/store.ts';
import { SERVER_SETTINGS_MODES } from './helpers/boot.ts';
import { withScratchDatabase } from './helpers/scratch-database.ts';
import { insertGameRow, newHost } from './helpers/game-rows.ts';

describe.each(SERVER_SETTINGS_MODES)('fencing epochs on PostgreSQL (%s)', (mode) => {
  it("refuses a node's writes to a game once another node took it over; the other games of its batch land", async () => {
    await withScratchDatabase(mode, async (database) => {
      // Two nodes' views of the same games: A made them (epoch 1); B takes one over.
      const epochsOfA = new Map<string, number>();
      const a = new GameStore(database.db, database.prepared, (id) => epochsOfA.get(id) ?? 0);
      const b = new GameStore(database.db, database.prepared, () => 2);
      const rows = async <T>(text: string) =>
        ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
      const hostId = await newHost(database.db, 'fenced');
      const games = [randomUUID(), randomUUID()];
      for (const [i, id] of games.entries()) {
        epochsOfA.set(id, 1);
        await insertGameRow(a, { id, roomCode: `FENCE${i}`, hostId, hostName: 'fenced' });
      }
      const [taken, kept] = games as [string, string];
      const entry = (n: number) => ({ n, at: n * 10, seq: n, command: null });
      expect(await a.write([{ gameId: taken, write: { entries: [entry(1)] } }])).toEqual([]);

      expect(await b.raiseEpoch(taken)).toBe(2);
      expect(await b.write([{ gameId: taken, write: { entries: [entry(2)] } }])).toEqual([]);
      // A, unaware, writes to both games in one batch: the game it lost is fenced off, the other lands.
      const fenced = await a.write([
        { gameId: taken, write: { entries: [entry(2), entry(3)], row: { status: 'finished' } } },
        { gameId: kept, write: { entries: [entry(1)] } },
      ]);
      expect(fenced).toEqual([taken]);
      const log = await rows<{ game_id: string; n: number; at: number }>(
        `select game_id, n, at from game_log order by game_id, n`,
      );
      expect(log.filter((r) => r.game_id === taken).map((r) => [r.n, r.at])).toEqual([
        [1, 10],
        [2, 20],
      ]);
      expect(log.filter((r) => r.game_id === kept).map((r) => r.n)).toEqual([1]);
      const [row] = await rows<{ status: string; owner_epoch: number }>(
        `select status, owner_epoch from games where id = '${taken}'`,
      );
      expect(row).toEqual({ status: 'active', owner_epoch: 2 });
    });
  });
});
