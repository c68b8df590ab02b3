/**
 * The admin page in a real browser: access refused to players; the tournament form, its split and
 * the statistics; the new tournament on the leaderboard's Tournament tab.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_TEXTS, LEADERBOARD_TEXTS, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { users } from '../apps/server/src/db/schema.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

async function signIn(page: Page, base: string, role: 'user' | 'superadmin', server: E2eServer) {
  const username = `ad_${randomBytes(3).toString('hex')}`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'secret123' }),
  });
  const { data } = (await res.json()) as { data: { user: { id: string } } };
  await server.app.db.update(users).set({ role }).where(eq(users.id, data.user.id));
  await page.goto(`${base}/login`);
  await page.getByLabel('Email or username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
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
      await signIn(page, server().base, 'superadmin', server());
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('tab', { name: 'Create Tournament', selected: true }).waitFor();

      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.fixFormErrors).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.nameRequired).waitFor();

      await page.getByLabel('Name', { exact: true }).fill('Admin Cup');
      await page.getByLabel('Start date').fill('2031-05-01T18:00');
      await page.getByLabel('End date').fill('2031-05-02T18:00');
      await page.getByLabel('Total amount').fill('1000');
      await page.getByRole('button', { name: 'More winners' }).click();
      const split = page.getByRole('table');
      await expect.poll(() => split.innerText()).toContain('400');
      for (let k = 0; k < 12; k += 1) await page.getByRole('button', { name: 'Fewer winners' }).click();
      expect(await page.getByLabel('Number of winners').innerText()).toBe('1');
      expect(await split.innerText()).toContain('1000');
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.created).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.managementComingSoon).waitFor();

      await page.getByRole('tab', { name: 'Statistics' }).click();
      await page.getByText('Total tournaments').waitFor();
      await expect.poll(() => page.getByRole('region', { name: 'Statistics' }).innerText()).toContain('superadmin');
      await journey.screenshot('admin-stats');

      const listed = await fetch(`${server().base}/api/tournaments`);
      const body = (await listed.json()) as {
        data: { tournaments: { name: string; prizePool: { winnersCount: number } }[] };
      };
      expect(body.data.tournaments.find((t) => t.name === 'Admin Cup')?.prizePool.winnersCount).toBe(1);

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
});
