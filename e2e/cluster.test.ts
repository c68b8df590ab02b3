/**
 * Cluster mode as a person meets it: the web app through nginx in front of two nodes on
 * PostgreSQL and Redis. The node running the player's game is killed mid-game; the page reconnects
 * through nginx to the other node, which has taken the game over, and the player plays on to the
 * result with every card they played still played. Play now: two people on the two nodes
 * press it and land in one game; then one searching person's node dies, their page comes back through
 * nginx to the other node and searches on (and queues again when its entry is lost), and they are
 * seated with someone there.
 *
 * nginx picks a node by the client's address, and every page here comes from 127.0.0.1: the page on
 * the other node is opened at that node's own address (each node serves the web app too).
 */
import { resolve } from 'node:path';
import { MATCHMAKING_TEXTS } from '@memeslam/protocol';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Cluster, clusterSkipReason, healthFrom, startCluster } from '../apps/server/test/helpers/cluster.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { type Journey, atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { RESULT_HEADINGS, createBotGame, playOneCard, playUntilEnd } from './helpers/game.ts';
import { WEB_ROOT } from './helpers/server.ts';

// The nodes serve the build the way `npm start` does, from apps/web/dist.
const NODES_WEB_ROOT = resolve(import.meta.dirname, '..', 'apps', 'web', 'dist');
const skip =
  clusterSkipReason({ front: true }) ??
  (WEB_ROOT === NODES_WEB_ROOT ? null : 'E2E_WEB_DIST is set: the nodes serve apps/web/dist, not that build');
if (skip && process.env.CI) throw new Error(`the cluster journey must run in CI: ${skip}`);
if (skip) console.warn(`\n*** SKIPPED: cluster journey: ${skip}. ***\n`);

describeJourneys('cluster', () => {
  const browser = useBrowser();
  // One cluster for both journeys: a cluster costs seconds of both cores to start (each node loads the
  // server, the database is made and migrated). Each journey begins with both nodes up and with nginx
  // sending this machine's address to the node its hash picks: the node the journey before killed is
  // started again, and nginx tries it again once its fail_timeout (2 s) is over.
  let shared: Cluster | null = null;
  /** The node nginx's hash sends this machine's address to. */
  let home = -1;
  beforeAll(async () => {
    if (skip) return;
    shared = await startCluster({ nodes: 2, front: true });
    home = await frontNode(shared);
  });
  beforeEach(async () => {
    const cluster = shared;
    if (!cluster) return;
    await cluster.startStopped();
    await expect.poll(() => frontNode(cluster), { timeout: 10_000, interval: 250 }).toBe(home);
  });
  afterAll(async () => {
    await shared?.close();
  });
  const started = () => {
    if (!shared) throw new Error('the cluster did not start');
    return shared;
  };

  it.skipIf(skip !== null)(
    'the node running the game dies mid-game: the page comes back through nginx and the player plays on',
    async () => {
      const cluster = started();
      const front = cluster.front?.url as string;
      const account = await registerAccount(front, 'failover');
      const journey = await openJourney(browser(), front);
      const { page } = journey;
      try {
        await signIn(journey, account);
        // Made through nginx: the node this machine's address lands on runs it.
        const { gameId } = await createBotGame(front, account, { gameSpeed: 'normal', cardsPerPlayer: 20 });
        const owner = await frontNode(cluster);
        await journey.goto(`/game/${gameId}`);
        const played: string[] = [];
        // A click can lose its pile to a bot's play a moment earlier: the server refuses it and the
        // card stays in hand. That is a fair race, so such a play is tried again, up to 10 times.
        for (let attempt = 0; played.length < 2; attempt += 1) {
          expect(attempt, 'two plays acknowledged within 10 attempts').toBeLessThan(10);
          await page.locator(PLAYABLE).first().waitFor({ timeout: 20_000 });
          const before = await handIds(page);
          if (!(await playOneCard(page))) continue;
          let gone: string[] = [];
          await expect
            .poll(
              async () => {
                const now = await handIds(page);
                gone = before.filter((id) => !now.includes(id));
                return gone.length;
              },
              { timeout: 5000 },
            )
            .toBe(1)
            .catch(() => page.keyboard.press('Escape'));
          if (gone.length === 1) played.push(gone[0] as string);
        }
        expect(await cluster.kill(owner, 'SIGKILL')).toBeNull();
        // The page reconnects (through nginx, to the other node, which takes the game over) and the
        // game goes on to its result: the bots' plays come from the new owner now.
        await playUntilEnd(page, 240_000);
        await page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor();
        const replay = await fetch(`${front}/api/game/${gameId}/replay`, {
          headers: { authorization: `Bearer ${account.token}` },
        }).then((r) => r.json() as Promise<{ data: { commands: { command: { type: string; cardId?: string } }[] } }>);
        const replayed = replay.data.commands.flatMap((c) => (c.command.type === 'playCard' ? [c.command.cardId] : []));
        for (const card of played) expect(replayed).toContain(card);
        await journey.screenshot('cluster-failover-result');
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    },
    300_000,
  );

  it.skipIf(skip !== null)(
    'Play now on two nodes: two people land in one game; a searcher whose node dies searches on through the other',
    async () => {
      const cluster = started();
      const front = cluster.front?.url as string;
      const viaFront = await frontNode(cluster);
      const other = cluster.url(1 - viaFront);
      const journeys: Journey[] = [];
      const open = async (base: string, name: string) => {
        const journey = await openJourney(browser(), base);
        journeys.push(journey);
        const account = await registerAccount(base, name);
        await signIn(journey, account);
        await journey.goto('/dashboard');
        return Object.assign(journey, { userId: account.user.id });
      };
      const playNow = (j: Journey) =>
        j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).click({ timeout: 60_000 });
      const sameRoom = async (pair: Journey[]) => {
        const room = /^\/(lobby|game)\/([A-Z0-9]{6})$/;
        const codes = (await Promise.all(pair.map((j) => atPath(j.page, room)))).map((p) => room.exec(p)?.[2]);
        expect(codes[0]).toBeTruthy();
        expect(codes[1]).toBe(codes[0]);
        // The table starts by itself: both are dealt their hands.
        await Promise.all(pair.map((j) => j.page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 })));
      };
      try {
        const [a, b] = [await open(front, 'nodea'), await open(other, 'nodeb')];
        await playNow(a);
        await playNow(b);
        await sameRoom([a, b]);

        const searcher = await open(front, 'dies');
        await playNow(searcher);
        await searcher.page.getByRole('status').getByText(MATCHMAKING_TEXTS.searchingCount(1)).waitFor();
        expect(await cluster.kill(viaFront, 'SIGKILL')).toBeNull();
        // The page reconnects through nginx to the other node and queues again there (its entry in the
        // cluster's queue names that node now: an entry left behind by the dead node would be dropped).
        const living = cluster.nodes[1 - viaFront]?.id;
        const redis = new Redis(cluster.redisUrl);
        try {
          const key = `ms:${new URL(cluster.databaseUrl).pathname.slice(1)}:mm:queue`;
          const nodeOf = async () =>
            (JSON.parse((await redis.hget(key, searcher.userId)) ?? '{}') as { node?: string }).node;
          await expect.poll(nodeOf, { timeout: 60_000, interval: 250 }).toBe(living);
          // An entry lost anyway (as when the node that pairs dies while seating its table): the page,
          // hearing nothing from the queue for 10 s, queues again.
          await redis.hdel(key, searcher.userId);
          await expect.poll(nodeOf, { timeout: 30_000, interval: 250 }).toBe(living);
        } finally {
          redis.disconnect();
        }
        // Someone on that node presses Play now: the two are seated together.
        const there = await open(other, 'there');
        await playNow(there);
        await sameRoom([searcher, there]);
        for (const j of journeys) j.assertNoPageErrors();
      } finally {
        await Promise.all(journeys.map((j) => j.close()));
      }
    },
    300_000,
  );
});

/** The node nginx sends this machine's requests (and pages) to. */
async function frontNode(cluster: Cluster): Promise<number> {
  const front = cluster.front?.url as string;
  const index = cluster.indexOf((await cluster.front?.upstreamsOf(await healthFrom(front, '127.0.0.1')))?.at(-1) ?? '');
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
}

const PLAYABLE = '[data-hand-card][data-playable]:not([disabled])';

async function handIds(page: Page): Promise<string[]> {
  return (
    await page.locator('[data-hand-card]').evaluateAll((els) => els.map((el) => el.getAttribute('data-hand-card')))
  ).filter((id): id is string => id !== null);
}
