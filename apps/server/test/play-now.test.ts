/**
 * Play now over real sockets, on a clock moved by hand: two people land in one game; alone, the bot
 * offer after 20 s; bots fill a table after 20 s; never in the queue and in a game at once; leaving
 * (cancel, or the last tab closing) leaves the queue at once; leaving a game right after it began
 * costs a two-minute wait. Behind a named proxy, the same-address rule takes an IPv6 client's /64 as
 * one address.
 */
import { queueCooldownText } from '@memeslam/protocol';
import { BOT_FILL_AFTER_MS, MAX_SAME_ADDRESS_MEETINGS } from '../src/matchmaking/pairing.ts';
import { COOLDOWN_MS } from '../src/matchmaking/queue.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../src/clock.ts';
import { users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { Client, newPerson } from './helpers/sockets.ts';
import { connectFrom } from './helpers/forwarded.ts';

describe.each(DATABASE_MODES)('Play now on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const person = (prefix: string) => newPerson(server.base, prefix, clients);

  /** Lets the queue's work of the moment finish (a round trip through the server). */
  const roundTrip = (client: Client) => client.emit('getPowerUpStatus');

  it('seats two people who press Play now in one game, which starts by itself', async () => {
    const a = await person('pa');
    const b = await person('pb');
    expect(await a.client.emit('joinQueue', { size: 2 })).toMatchObject({
      success: true,
      data: { searching: 1, size: 2 },
    });
    expect((await b.client.emit('joinQueue', { size: 'any' })).success).toBe(true);
    const [foundA, foundB] = await Promise.all([a.client.waitFor('matchFound'), b.client.waitFor('matchFound')]);
    expect(foundA).toEqual(foundB);
    expect(foundA).toMatchObject({ people: 2, bots: 0 });
    clock.advance(10_000);
    await Promise.all([a.client.waitFor('handDealt'), b.client.waitFor('handDealt')]);
    const game = (await call(server.base, 'GET', `/game/${foundA.gameId}`, { token: a.token })).body.data.game;
    expect(game.players.map((p: { userId: string }) => p.userId).sort()).toEqual([a.user.id, b.user.id].sort());
    expect(game).toMatchObject({ status: 'active', isBotGame: false });
    // In a game in play: the queue is refused.
    expect(await a.client.emit('joinQueue', { size: 2 })).toMatchObject({ success: false, code: 'ALREADY_IN_GAME' });
    // Leaving right after the start: a loss, and Play now waits two minutes for this player.
    await a.client.emit('leaveGame', {});
    const refused = await a.client.emit('joinQueue', { size: 2 });
    expect(refused).toMatchObject({ success: false, code: 'QUEUE_COOLDOWN', error: queueCooldownText(COOLDOWN_MS) });
    clock.advance(COOLDOWN_MS);
    expect((await a.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    await a.client.emit('leaveQueue', {});
  });

  it('offers someone alone a bot game after 20 s; Cancel leaves the queue at once', async () => {
    const a = await person('alone');
    await a.client.emit('joinQueue', { size: 3 });
    clock.advance(BOT_FILL_AFTER_MS - 1000);
    await roundTrip(a.client);
    expect(a.client.all('botGameOffered')).toEqual([]);
    const status = a.client.all('queueStatus').at(-1);
    expect(status).toMatchObject({ searching: 1, size: 3 });
    expect(status.waitedMs).toBeGreaterThanOrEqual(BOT_FILL_AFTER_MS - 2000);
    clock.advance(1000);
    expect(await a.client.waitFor('botGameOffered')).toMatchObject({ waitedMs: BOT_FILL_AFTER_MS });
    expect((await a.client.emit('leaveQueue', {})).success).toBe(true);
    const seen = a.client.all('queueStatus').length;
    clock.advance(5000);
    await roundTrip(a.client);
    expect(a.client.all('queueStatus')).toHaveLength(seen);
  });

  it('after 20 s fills a table of three with a bot paced like the people present', async () => {
    const a = await person('trio1');
    const b = await person('trio2');
    // Their recorded paces (medians of their last games' medians): 1.8 s and 2.6 s per play.
    await server.app.db
      .update(users)
      .set({ playPaces: [1800] })
      .where(eq(users.id, a.user.id));
    await server.app.db
      .update(users)
      .set({ playPaces: [2600] })
      .where(eq(users.id, b.user.id));
    await a.client.emit('joinQueue', { size: 3 });
    await b.client.emit('joinQueue', { size: 3 });
    await roundTrip(b.client);
    expect(a.client.all('matchFound')).toEqual([]);
    clock.advance(BOT_FILL_AFTER_MS);
    const found = await a.client.waitFor('matchFound');
    expect(found).toMatchObject({ people: 2, bots: 1 });
    expect(await b.client.waitFor('matchFound')).toEqual(found);
    const game = (await call(server.base, 'GET', `/game/${found.gameId}`, { token: a.token })).body.data.game;
    expect(game).toMatchObject({ maxPlayers: 3, isBotGame: true, botSettings: { numberOfBots: 1 } });
    // The bot plays at the people's median pace, not at the host's alone.
    expect(server.app.games.find(found.roomCode)?.setup.bots?.matchPaceMs).toBe(2200);
    clock.advance(10_000);
    await a.client.waitFor('handDealt');
    await a.client.emit('leaveGame', {});
    await b.client.emit('leaveGame', {});
  });

  it('lets go of someone who takes a seat elsewhere, or whose last tab closes', async () => {
    const a = await person('elsewhere');
    const b = await person('closes');
    await a.client.emit('joinQueue', { size: 4 });
    await b.client.emit('joinQueue', { size: 4 });
    expect((await a.client.emit('createGame', { maxPlayers: 2 })).success).toBe(true);
    b.client.close();
    const c = await person('third');
    // The server hears of the closed tab a moment later: asking again is harmless (it keeps the wait).
    await expect.poll(async () => (await c.client.emit('joinQueue', { size: 4 })).data.searching).toBe(1);
    await c.client.emit('leaveQueue', {});
    await a.client.emit('leaveGame', {});
  });
});

describe.each(DATABASE_MODES)('Play now behind a named proxy on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, { TRUST_PROXY: '127.0.0.1' }, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  /** A person whose socket comes through the proxy from `address`. */
  const personFrom = async (prefix: string, address: string) => {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(prefix) });
    const client = await connectFrom(server.base, res.body.data.token as string, address);
    if (!(client instanceof Client)) throw new Error(`not connected: ${client}`);
    clients.push(client);
    return { client, id: res.body.data.user.id as string };
  };

  it(`two accounts of one IPv6 /64 meet at most ${MAX_SAME_ADDRESS_MEETINGS} times; someone of another /64 still meets them`, async () => {
    // Two addresses of 2001:db8:50:60::/64: one place, as far as the farming rule goes (docs/limits.md).
    const a = await personFrom('sa', '2001:db8:50:60::a');
    const b = await personFrom('sb', '2001:db8:50:60:1:2:3:b');
    for (let met = 0; met < MAX_SAME_ADDRESS_MEETINGS; met += 1) {
      const seenA = a.client.all('matchFound').length;
      const seenB = b.client.all('matchFound').length;
      // Searching again leaves the table (not started: the clock stands) and seats them anew.
      expect((await a.client.emit('joinQueue', { size: 2 })).success).toBe(true);
      expect((await b.client.emit('joinQueue', { size: 2 })).success).toBe(true);
      const found = await a.client.waitFor('matchFound', () => true, frameIndex(a.client, 'matchFound', seenA));
      expect(await b.client.waitFor('matchFound', () => true, frameIndex(b.client, 'matchFound', seenB))).toEqual(
        found,
      );
    }
    const seenA = a.client.all('matchFound').length;
    const seenB = b.client.all('matchFound').length;
    expect((await a.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    expect(await b.client.emit('joinQueue', { size: 2 })).toMatchObject({ success: true, data: { searching: 2 } });
    await a.client.emit('getPowerUpStatus');
    await b.client.emit('getPowerUpStatus');
    expect(a.client.all('matchFound')).toHaveLength(seenA);
    expect(b.client.all('matchFound')).toHaveLength(seenB);
    // From another /64: a pair at once, with one of the two.
    const c = await personFrom('sc', '2001:db8:50:61::c');
    expect((await c.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    expect(await c.client.waitFor('matchFound')).toMatchObject({ people: 2, bots: 0 });
    await Promise.all([a, b, c].map((p) => p.client.emit('leaveQueue', {})));
  });
});

/** The index in `client.frames` just past its `seen`-th frame of `event` (where to wait from). */
function frameIndex(client: Client, event: string, seen: number): number {
  let count = 0;
  for (let i = 0; i < client.frames.length; i += 1) {
    if (client.frames[i]?.event !== event) continue;
    count += 1;
    if (count === seen) return i + 1;
  }
  return 0;
}
