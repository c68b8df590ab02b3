/**
 * The token epoch on PostgreSQL (migration 0010): raised in the transaction of every token version
 * change and account deletion, whoever makes it, so that a node trusts the versions it holds while the
 * epoch stays put (auth/token-versions.ts).
 */
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { bumpTokenVersion, deleteUser, tokenEpochOf, updateUser } from '../src/users/repository.ts';
import { SERVER_SETTINGS_MODES } from './helpers/boot.ts';
import { withScratchDatabase } from './helpers/scratch-database.ts';
import { newHost } from './helpers/game-rows.ts';

describe.each(SERVER_SETTINGS_MODES)('the token epoch (%s)', (mode) => {
  it('moves with every token version change and account deletion, once committed, and with nothing else', async () => {
    await withScratchDatabase(mode, async (database, url) => {
      const other = new pg.Client({ connectionString: url });
      try {
        const { db } = database;
        const epoch = () => tokenEpochOf(db);
        expect(await epoch()).toBe(0);
        const a = await newHost(db, 'epocha');
        const b = await newHost(db, 'epochb');
        expect(await epoch()).toBe(0);

        // Other columns, and the same version written again, leave it.
        await updateUser(db, a, { gamesPlayed: 3 });
        await db
          .update(users)
          .set({ tokenVersion: sql`${users.tokenVersion}` })
          .where(eq(users.id, a));
        expect(await epoch()).toBe(0);

        await bumpTokenVersion(db, a);
        expect(await epoch()).toBe(1);
        // Any writer: a statement of its own, as another node or `npm run admin` would send it.
        await other.connect();
        await other.query('update users set token_version = token_version + 1 where id = $1', [b]);
        expect(await epoch()).toBe(2);

        // Not before the change is committed, and not at all when it is rolled back.
        await other.query('begin');
        await other.query('update users set token_version = token_version + 1 where id = $1', [b]);
        expect(await epoch()).toBe(2);
        await other.query('rollback');
        expect(await epoch()).toBe(2);
        await other.query('begin');
        await other.query('update users set token_version = token_version + 1 where id = $1', [b]);
        await other.query('commit');
        expect(await epoch()).toBe(3);

        await deleteUser(db, a);
        expect(await epoch()).toBe(4);
      } finally {
        await other.end().catch(() => {});
      }
    });
  });
});
