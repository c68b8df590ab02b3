/**
 * The group commit's and the game record's statements join a JSON recordset, which PostgreSQL plans
 * as 100 rows whatever it holds, with `games` and `users`. On that guess the planner hashed the whole
 * table at every call until it was many times larger than a few thousand rows (the log's
 * writes took a third of a core). Each join also names its keys in an array: read by primary key.
 * And the log's own connection never scans a table whole, so a plan cached while `games` was small
 * does not scan it once it has grown.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Prepared } from '../src/db/client.ts';
import { FENCED_WRITE, FINISH, WRITE, WRITE_AGAIN } from '../src/games/store-statements.ts';
import { SERVER_SETTINGS_MODES } from './helpers/boot.ts';
import { withScratchDatabase } from './helpers/scratch-database.ts';

const ROWS = 3000;

/** The `enable_seqscan` setting of the connection a statement runs on. */
async function seqScan(run: Prepared): Promise<string | undefined> {
  const text = "select current_setting('enable_seqscan') as value";
  const { rows } = (await run({ name: 'store-plans-seqscan', text, values: [] })) as { rows: { value: string }[] };
  return rows[0]?.value;
}

describe.each(SERVER_SETTINGS_MODES)("the store's statements on %s PostgreSQL", (mode) => {
  it('read games and people by key in their generic plans, with thousands of each', async () => {
    await withScratchDatabase(mode, async (database) => {
      const run = (text: string) => database.db.execute(sql.raw(text));
      await run(`insert into users (username, email, password_hash)
        select 'player' || i, 'player' || i || '@example.com', 'x' from generate_series(1, ${ROWS}) as i`);
      await run(`insert into games (id, room_code, status, host_id, settings)
        select gen_random_uuid(), 'ROOM' || i, case when i % 3 = 0 then 'active' else 'finished' end,
          (select id from users limit 1), '{}'
        from generate_series(1, ${ROWS}) as i`);
      await run('analyze users');
      await run('analyze games');

      const statements = { WRITE, WRITE_AGAIN, FENCED_WRITE, FINISH };
      for (const [name, statement] of Object.entries(statements)) {
        const parameters = [...statement.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
        const nulls = Array.from({ length: Math.max(...parameters) }, () => 'null').join(', ');
        const plan = await database.db.transaction(async (tx) => {
          await tx.execute(sql.raw('set local plan_cache_mode = force_generic_plan'));
          await tx.execute(sql.raw(`prepare planned as ${statement.text}`));
          const { rows } = (await tx.execute(sql.raw(`explain execute planned(${nulls})`))) as unknown as {
            rows: { 'QUERY PLAN': string }[];
          };
          await tx.execute(sql.raw('deallocate planned'));
          return rows.map((row) => row['QUERY PLAN']).join('\n');
        });
        expect(plan, name).toMatch(/Index|Bitmap/);
        expect(plan, `${name}:\n${plan}`).not.toMatch(/Seq Scan on (games|users)\b/);
      }
    });
  });

  it("keep the log's connection off whole-table scans, whatever it planned while `games` was small", async () => {
    await withScratchDatabase(mode, async (database) => {
      expect(await seqScan(database.logPrepared)).toBe('off');
      expect(await seqScan(database.prepared)).toBe('on');
    });
  });
});
