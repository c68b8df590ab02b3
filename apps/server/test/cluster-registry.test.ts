/**
 * Cluster mode after Redis restarted empty (a defect the chaos run found): Redis's registry of who
 * sits where is gone until every node has registered its seats again, and a node paused meanwhile
 * registers nothing. A create or join must still find the user's seat elsewhere — in the database —
 * and free it first, so nobody sits in two unfinished games. Before the fix the create below
 * succeeded at once and left the player seated in both.
 */
import { SERVER_TEXTS } from '@memeslam/protocol';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from './helpers/boot.ts';
import { type OwnRedis, clusterSkipReason, connectTo, register, startCluster, startRedis } from './helpers/cluster.ts';

const skip = clusterSkipReason({ front: false, ownRedis: true });
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(skip !== null)('the seat registry lost with Redis', () => {
  it('a create on another node frees the lobby its owner (paused) could not register again', async () => {
    const redis: OwnRedis = await startRedis();
    cleanups.push(() => redis.close());
    const cluster = await startCluster({ nodes: 2, front: false, redis });
    cleanups.push(() => cluster.close());
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());

    const me = await register(cluster.url(0), 'registry');
    const onA = await connectTo(cluster.url(0), me.token);
    cleanups.push(() => onA.close());
    const lobby = await onA.emit('createGame', { maxPlayers: 4 });
    expect(lobby.success).toBe(true);

    // Node A freezes; Redis comes back empty; A cannot register its seats again.
    cluster.pause(0, true);
    cleanups.push(() => cluster.pause(0, false));
    await redis.stop('SIGKILL');
    await redis.start();

    const onB = await connectTo(cluster.url(1), me.token);
    cleanups.push(() => onB.close());
    // Until the lobby's game is taken over from the paused node (Redis must be up a lease's length
    // first), the create is refused with the clear "reconnecting" answer; then it goes through.
    const setup = { numberOfBots: 1, botDifficulty: 'easy', gameSpeed: 'normal', autoStart: false, cardsPerPlayer: 20 };
    let created = await onB.emit('create-bot-game', setup);
    const deadline = Date.now() + 20_000;
    while (!created.success && created.error === SERVER_TEXTS.clusterUnavailable && Date.now() < deadline) {
      created = await onB.emit('create-bot-game', setup);
    }
    expect(created).toMatchObject({ success: true });
    // The old lobby was left for the new game: no human is left in it, so it is closed.
    await expect
      .poll(
        async () => (await db.query('select status from games where id = $1', [lobby.data.gameId])).rows[0]?.status,
        // A takeover waits for a lease to run out (3 s): a look four times a second, not vitest's twenty.
        { timeout: 15_000, interval: 250 },
      )
      .toBe('finished');
    cluster.pause(0, false);
    const mine = await call(cluster.url(1), 'GET', '/game/my-games', { token: me.token });
    expect(mine.body.data.games.map((g: { gameId: string }) => g.gameId)).toEqual([created.data.gameId]);
  }, 90_000);
});
