/** The leaderboard in a real browser: rankings by tab with medals, and the tournament tab's states. */
import { randomBytes } from 'node:crypto';
import { LEADERBOARD_TEXTS, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { users } from '../apps/server/src/db/schema.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, startServer } from './helpers/server.ts';

describeJourneys('leaderboard', () => {
  const browser = useBrowser();
  let server: E2eServer;
  const names: string[] = [];
  let adminToken = '';
  beforeAll(async () => {
    server = await startServer();
    // Three players with different records, put straight into the database.
    // The third has the best rating, the first a provisional one, the second none (no rated game).
    const records = [
      { gamesPlayed: 10, gamesWon: 2, totalPoints: 900, rating: 1580.4, ratingDeviation: 180, ratedGames: 4 },
      { gamesPlayed: 4, gamesWon: 4, totalPoints: 500 },
      { gamesPlayed: 20, gamesWon: 5, totalPoints: 300, rating: 1702.6, ratingDeviation: 70, ratedGames: 18 },
    ];
    for (const [k, record] of records.entries()) {
      const username = `lb${k}_${randomBytes(2).toString('hex')}`;
      const res = await fetch(`${server.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'admin secret 123' }),
      });
      const { data } = (await res.json()) as { data: { token: string; user: { id: string } } };
      await server.app.db.update(users).set(record).where(eq(users.id, data.user.id));
      if (k === 0) {
        await server.app.db.update(users).set({ role: 'superadmin' }).where(eq(users.id, data.user.id));
        adminToken = data.token;
      }
      names.push(username);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ranks by each tab with medals, and shows the tournament tab states', async () => {
    const journey = await openJourney(browser(), server.base);
    const { page } = journey;
    try {
      await journey.goto('/leaderboard');
      const rows = page.getByRole('list', { name: 'Rankings' }).first().getByRole('listitem');
      await rows.first().waitFor();
      expect(await rows.allInnerTexts()).toEqual([
        expect.stringContaining(names[0]!),
        expect.stringContaining(names[1]!),
        expect.stringContaining(names[2]!),
      ]);
      // Medals are drawn (SVG), named for screen readers: "Rank 1, Gold medal".
      for (const [k, medal] of ['Gold medal', 'Silver medal', 'Bronze medal'].entries()) {
        expect(await rows.nth(k).getByRole('img', { name: medal }).count()).toBe(1);
        expect(await rows.nth(k).innerText()).toContain(`Rank ${k + 1}`);
      }
      await page.getByText('Total points scored').waitFor();

      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.winRate }).click();
      const rates = page.getByRole('tabpanel').getByRole('listitem');
      await rates.first().waitFor();
      expect(await rates.first().innerText()).toContain(names[1]!);
      expect(await rates.first().innerText()).toContain('100%');

      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.rating }).click();
      const rated = page.getByRole('tabpanel').getByRole('listitem');
      await rated.first().waitFor();
      expect(await rated.allInnerTexts()).toEqual([
        expect.stringMatching(new RegExp(`${names[2]}[\\s\\S]*1703(?!\\?)`)),
        expect.stringMatching(new RegExp(`${names[0]}[\\s\\S]*1580\\?`)),
      ]);

      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.tournament }).click();
      await page.getByText(TOURNAMENT_TEXTS.noActiveTournament).waitFor();

      const start = new Date(Date.now() + 3_600_000);
      const created = await fetch(`${server.base}/api/tournaments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({
          name: 'Friday Slam',
          startDate: start.toISOString(),
          endDate: new Date(start.getTime() + 3_600_000).toISOString(),
          totalAmount: 1000,
          winnersCount: 3,
        }),
      });
      expect(created.status).toBe(201);
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText('Friday Slam').waitFor();
      await page.getByText(TOURNAMENT_TEXTS.upcoming, { exact: true }).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.startingSoon).waitFor();
      await journey.screenshot('leaderboard-tournament');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
