/**
 * Accessibility of the leaderboard tabs, the tournament states and the admin tabs.
 * Each state is checked with axe-core (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone
 * (390×844) sizes, in a real browser against the real server; a journey fails on any serious or
 * critical violation, listing all it found (helpers/audit.ts). Beside axe: a form field keeps its label
 * as its accessible name while its error shows, and icons are drawings, not emoji.
 */
import { LEADERBOARD_TEXTS, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { tournaments, users } from '../apps/server/src/db/schema.ts';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { axeViolations, blocking } from './helpers/axe.ts';
import { DESKTOP, audit, expectFieldError, setRole, call, reportChecks } from './helpers/audit.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

afterAll(() => reportChecks('boards'));

describeJourneys('accessibility: boards', () => {
  const browser = useBrowser();
  const server = useServer();

  it('leaderboard tabs and the tournament states; admin tabs', async () => {
    const a = audit();
    const ranked: Account[] = [];
    const records = [
      { gamesPlayed: 10, gamesWon: 2, totalPoints: 900 },
      { gamesPlayed: 4, gamesWon: 4, totalPoints: 500 },
      { gamesPlayed: 20, gamesWon: 5, totalPoints: 300 },
      { gamesPlayed: 3, gamesWon: 1, totalPoints: 100 },
    ];
    for (const record of records) {
      const account = await registerAccount(server().base, 'axl');
      // Verified addresses: they join a people-only tournament below (docs/fair-play.md).
      await server()
        .app.db.update(users)
        .set({ ...record, emailVerifiedAt: new Date() })
        .where(eq(users.id, account.user.id));
      ranked.push(account);
    }
    const admin = await setRole(server(), ranked[0]!, 'superadmin');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, admin);
      await journey.goto('/leaderboard');
      await page.getByRole('list', { name: 'Rankings' }).first().getByRole('listitem').first().waitFor();
      await a.check(page, 'leaderboard, total points');
      await journey.screenshot('a11y-leaderboard-medals');
      for (const tab of [
        LEADERBOARD_TEXTS.tabs.gamesWon,
        LEADERBOARD_TEXTS.tabs.winRate,
        LEADERBOARD_TEXTS.tabs.gamesPlayed,
      ]) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel').getByRole('listitem').first().waitFor();
        await a.check(page, `leaderboard, ${tab.toLowerCase()}`, [DESKTOP]);
      }
      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.tournament }).click();
      await page.getByText(TOURNAMENT_TEXTS.noActiveTournament).waitFor();
      await a.check(page, 'leaderboard, no tournament');

      const start = new Date(Date.now() + 3_600_000);
      const { tournament } = await call<{ tournament: { id: string } }>(server(), admin, '/tournaments', {
        name: 'Accessible Cup',
        description: 'Every screen for everyone',
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + 3_600_000).toISOString(),
        totalAmount: 1000,
        winnersCount: 3,
      });
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.startingSoon).waitFor();
      await a.check(page, 'leaderboard, upcoming tournament');

      // Started an hour ago: live, first without participants, then with them.
      await server()
        .app.db.update(tournaments)
        .set({ startDate: new Date(Date.now() - 3_600_000) })
        .where(eq(tournaments.id, tournament.id));
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      await a.check(page, 'leaderboard, live tournament');
      for (const account of ranked) await call(server(), account, `/tournaments/${tournament.id}/join`, {});
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      await a.check(page, 'leaderboard, live tournament with participants');

      // On to the admin tabs by the nav bar's link, in the one document.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('tab', { name: 'Create Tournament', selected: true }).waitFor();
      await a.check(page, 'admin, create tournament');
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.nameRequired).waitFor();
      await expectFieldError(page, 'Name', TOURNAMENT_TEXTS.nameRequired);
      await expectFieldError(page, 'Start date', TOURNAMENT_TEXTS.startDateRequired);
      await expectFieldError(page, 'Total amount', TOURNAMENT_TEXTS.prizeAmountRequired, 'spinbutton');
      await a.check(page, 'admin, create tournament with validation errors');
      for (const tab of await page.getByRole('tab').allInnerTexts()) {
        if (tab === 'Create Tournament') continue;
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel').waitFor();
        // A tab may load more than one thing (the statistics and the admin audit): wait for all of them.
        const loading = page.getByRole('status').filter({ hasText: /^Loading/ });
        await expect.poll(() => loading.count(), { timeout: 15_000 }).toBe(0);
        await a.check(page, `admin, ${tab.toLowerCase()} tab`);
      }
      journey.assertNoPageErrors();
      a.done();
    } finally {
      await journey.close();
    }
  }, 240_000);

  it('the checker itself: it finds faults on a page, again on the same document, and after a navigation', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const faulty =
        '<!doctype html><html lang="en"><head><title>Faults</title></head><body><main>' +
        '<img src="/x.png"><button style="color:#777;background:#888">Go</button></main></body></html>';
      const rules = async () => blocking(await axeViolations(page)).map((violation) => violation.id);
      await page.setContent(faulty);
      expect(await rules()).toEqual(expect.arrayContaining(['image-alt', 'color-contrast']));
      // axe is already in this document: a second run measures the page as it stands now.
      await page.locator('img').evaluate((img) => img.setAttribute('alt', 'A picture'));
      expect(await rules()).toEqual(['color-contrast']);
      // A new document has no axe in it yet; the checker brings it there.
      await journey.goto('/');
      await page.getByText('MemeSlam').first().waitFor();
      expect(await rules()).toEqual([]);
    } finally {
      await journey.close();
    }
  });
});
