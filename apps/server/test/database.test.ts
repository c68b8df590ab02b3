/**
 * The database handle on both drivers: a failed statement leaves the next ones working (node-postgres's
 * pool drops the failed connection and opens another, which the embedded database's socket must admit),
 * prepared statements included.
 */
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { consoleLog } from '../src/db/embedded.ts';
import { SERVER_SETTINGS_MODES, scratchPostgres, temporaryDataDir } from './helpers/boot.ts';

describe.each([...SERVER_SETTINGS_MODES, 'own' as const])('the database on %s', (mode) => {
  it('a statement that fails does not break the ones after it, one at a time or many at once', async () => {
    const dataDir = temporaryDataDir();
    // An empty database: opening it runs every migration, on each driver.
    const scratch = mode === 'own' ? null : await scratchPostgres(mode, { empty: true });
    const database = await openDatabase({ databaseUrl: scratch?.url ?? null, dataDir, log: consoleLog });
    try {
      const value = async (statement: string) =>
        ((await database.db.execute(sql.raw(statement))) as unknown as { rows: { v: number }[] }).rows[0]?.v;
      for (let round = 0; round < 3; round += 1) {
        await expect(value('select 1/0 as v')).rejects.toThrow();
        expect(await value('select 2 as v')).toBe(2);
      }
      const many = await Promise.allSettled(
        Array.from({ length: 300 }, (_, i) => value(i % 5 === 0 ? 'select 1/0 as v' : `select ${i} as v`)),
      );
      const failed = many.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      expect(failed).toEqual(Array.from({ length: 60 }, (_, k) => k * 5));

      // A prepared statement survives the connection it was prepared on being replaced: the embedded
      // database's connections share one session, where its name would otherwise be taken.
      const prepared = async (divisor: number) =>
        (
          (await database.prepared({ name: 'probe', text: 'select 12 / $1::integer as v', values: [divisor] })) as {
            rows: { v: number }[];
          }
        ).rows[0]?.v;
      for (let round = 0; round < 3; round += 1) {
        expect(await prepared(4)).toBe(3);
        await expect(value('select 1/0 as v')).rejects.toThrow();
        await expect(prepared(0)).rejects.toThrow(/division by zero/);
        expect(await prepared(6)).toBe(2);
      }
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
