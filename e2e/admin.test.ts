/**
 * The admin page in a real browser: access refused to players; the tournament form, its split and
 * the statistics; the creation in the admin audit's table; the new tournament on the leaderboard's
 * Tournament tab.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_ACTION_LABELS,
  ADMIN_TEXTS,
  LEADERBOARD_TEXTS,
  SCORING_METHOD_LABELS,
  TOURNAMENT_TEXTS,
  type Tournament,
} from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { gamePlayers, games, tournamentParticipants, tournaments, users } from '../apps/server/src/db/schema.ts';
import { gameSettings } from '../apps/server/test/helpers/settings.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

async function signIn(
  page: Page,
  base: string,
  role: 'user' | 'superadmin',
  server: E2eServer,
): Promise<{ id: string; username: string }> {
  const username = `ad_${randomBytes(3).toString('hex')}`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'admin secret 123' }),
  });
  const { data } = (await res.json()) as { data: { user: { id: string; username: string } } };
  await server.app.db.update(users).set({ role }).where(eq(users.id, data.user.id));
  await page.goto(`${base}/login`);
  await page.getByLabel('Email or username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('admin secret 123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
  return data.user;
}

describeJourneys('admin', () => {
  const browser = useBrowser();
  const server = useServer();

  it('a player is refused and sent back to the dashboard', async () => {
    const journey = await openJourney(browser(), server().base);
    try {
      await signIn(journey.page, server().base, 'user', server());
      expect(await journey.page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await journey.goto('/admin');
      await journey.page.getByText(ADMIN_TEXTS.adminAccessRequired).waitFor();
      await expect.poll(() => new URL(journey.page.url()).pathname).toBe('/dashboard');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a superadmin creates a tournament with the form, sees the statistics, and finds it on the leaderboard', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const admin = await signIn(page, server().base, 'superadmin', server());
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('tab', { name: 'Create Tournament', selected: true }).waitFor();

      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.fixFormErrors).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.nameRequired).waitFor();

      await page.getByLabel('Name', { exact: true }).fill('Admin Cup');
      await page.getByLabel('Start date').fill('2031-05-01T18:00');
      await page.getByLabel('End date').fill('2031-05-02T18:00');
      // The form's defaults, and scoring methods in words.
      expect(await page.getByLabel('Min games required').inputValue()).toBe('5');
      const scoring = page.getByLabel('Scoring method');
      expect(await scoring.locator('option').allInnerTexts()).toEqual(Object.values(SCORING_METHOD_LABELS));
      await scoring.selectOption({ label: SCORING_METHOD_LABELS.winRate });

      await page.getByLabel('Total amount').fill('1000');
      await page.getByRole('button', { name: 'More winners' }).click();
      const place = (n: number) => page.getByLabel(`Prize for place ${n}`);
      await expect.poll(() => place(1).inputValue()).toBe('400');
      for (let k = 0; k < 12; k += 1) await page.getByRole('button', { name: 'Fewer winners' }).click();
      expect(await page.getByLabel('Number of winners').innerText()).toBe('1');
      expect(await place(1).inputValue()).toBe('1000');
      for (let k = 0; k < 3; k += 1) await page.getByRole('button', { name: 'More winners' }).click();
      expect(await Promise.all([1, 2, 3, 4].map((n) => place(n).inputValue()))).toEqual(['400', '250', '200', '150']);

      // Each place's amount is editable; the sum is checked against the pool before anything is sent.
      await place(1).fill('450');
      await expect.poll(() => page.getByLabel('Prize sum').innerText()).toBe('1050 of 1000 SLAM');
      await page.getByText(TOURNAMENT_TEXTS.prizeDistributionMismatch).waitFor();
      // The first attempt's toast is gone before the second attempt, so the one seen next is its own.
      await expect.poll(() => page.getByText(TOURNAMENT_TEXTS.fixFormErrors).count(), { timeout: 15_000 }).toBe(0);
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.fixFormErrors).waitFor();
      await journey.screenshot('admin-prize-sum');
      await place(4).fill('100');
      await expect.poll(() => page.getByLabel('Prize sum').innerText()).toBe('1000 of 1000 SLAM');
      expect(await page.getByText(TOURNAMENT_TEXTS.prizeDistributionMismatch).count()).toBe(0);
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.created).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.managementComingSoon).waitFor();

      await page.getByRole('tab', { name: 'Statistics' }).click();
      await page.getByText('Total tournaments').waitFor();
      await expect.poll(() => page.getByRole('region', { name: 'Statistics' }).innerText()).toContain('superadmin');
      await journey.screenshot('admin-stats');
      // The admin audit: the creation, by this admin, newest first (docs/security.md).
      const audit = page.getByRole('region', { name: 'Admin audit' });
      const newest = audit.getByRole('row').nth(1);
      await expect
        .poll(() => newest.innerText())
        .toMatch(new RegExp(`${admin.username}\\s+${ADMIN_ACTION_LABELS['tournament.create']}\\s+Admin Cup`));
      expect(await audit.getByRole('columnheader').allInnerTexts()).toEqual(['When', 'Who', 'Action', 'Target']);

      const listed = await fetch(`${server().base}/api/tournaments`);
      const body = (await listed.json()) as { data: { tournaments: Tournament[] } };
      const created = body.data.tournaments.find((t) => t.name === 'Admin Cup');
      expect(created?.prizePool.winnersCount).toBe(4);
      expect(created?.prizePool.distribution.map((p) => p.amount)).toEqual([450, 250, 200, 100]);
      expect(created?.settings).toMatchObject({ minGamesRequired: 5, scoringMethod: 'winRate' });

      // The only tournament, and not ended, so it is the current one: an upcoming banner (it starts in 2031).
      await page.getByRole('link', { name: 'Leaderboard' }).first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/leaderboard');
      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.tournament, exact: true }).click();
      const banner = page.getByRole('region', { name: 'Tournament', exact: true });
      await banner.getByRole('heading', { name: 'Admin Cup' }).waitFor();
      await banner.getByText(TOURNAMENT_TEXTS.upcoming, { exact: true }).waitFor();
      await banner.getByText(TOURNAMENT_TEXTS.startingSoon).waitFor();
      await banner.getByText(TOURNAMENT_TEXTS.startsIn).waitFor();
      expect(await banner.innerText()).toContain('1,000');
      expect(await banner.getByText(TOURNAMENT_TEXTS.noActiveTournament).count()).toBe(0);
      await journey.screenshot('admin-tournament-on-leaderboard');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a prize of 1e12 is refused by the form; a failing payout shows on the statistics tab with its error', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const admin = await signIn(page, server().base, 'superadmin', server());
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Too Rich');
      await page.getByLabel('Start date').fill('2031-05-01T18:00');
      await page.getByLabel('End date').fill('2031-05-02T18:00');
      await page.getByLabel('Total amount').fill('1000000000000');
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.prizeAmountTooLarge).first().waitFor();
      await page.getByText(TOURNAMENT_TEXTS.fixFormErrors).waitFor();

      // A tournament from before amounts were bounded, ended, with a winner: its payout overflows the ledger.
      const { db } = server().app;
      const [row] = await db
        .insert(tournaments)
        .values({
          name: 'Legacy Pot',
          startDate: new Date(Date.now() - 2 * 3_600_000),
          endDate: new Date(Date.now() - 3_600_000),
          settings: {
            prizePool: { currency: 'SLAM', winnersCount: 1 },
            settings: {
              maxParticipants: null,
              minGamesRequired: 1,
              scoringMethod: 'totalPoints',
              allowBots: true,
              requireVerifiedSolana: false,
            },
            isFeatured: false,
          },
          prizeTotal: '1000000000000',
          prizeAmounts: ['1000000000000'],
        })
        .returning();
      const gameId = randomUUID();
      await db.insert(tournamentParticipants).values({ tournamentId: (row as { id: string }).id, userId: admin.id });
      await db.insert(games).values({
        id: gameId,
        roomCode: `L${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 6),
        status: 'finished',
        isBotGame: true,
        settings: gameSettings(),
        winnerId: admin.id,
        endReason: 'win',
        durationMs: 60_000,
        finishedAt: new Date(Date.now() - 1.5 * 3_600_000),
      });
      await db.insert(gamePlayers).values({
        gameId,
        seat: 0,
        playerId: admin.id,
        userId: admin.id,
        username: 'admin',
        isBot: false,
        place: 1,
        points: 50,
      });
      await server().app.tournaments.settle();

      await page.getByRole('tab', { name: 'Statistics' }).click();
      const alert = page.getByRole('region', { name: 'Statistics' }).getByRole('alert');
      await alert.getByText('1 tournament payout is failing').waitFor();
      expect(await alert.innerText()).toMatch(/Legacy Pot \(ended .+\): numeric field overflow — 1 attempt, last /);
      await journey.screenshot('admin-failing-payout');
      await page.setViewportSize({ width: 390, height: 844 });
      await journey.screenshot('admin-failing-payout-phone');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
