/**
 * The landing page and the SPA fallback, the public pages its links reach (tokenomics, how to play,
 * the leaderboard), in a real browser against the real server.
 *
 * One browser and one server for the file, and few page loads: where a person would follow the
 * app's own links from page to page, so does the journey (each full load of the landing page costs
 * the browser as much as many clicks). Fresh pages remain where the point is a fresh load: the
 * server's answer for an unknown route, reduced motion at first paint, a tournament created behind
 * the page's back, a signed-in browser.
 */
import { TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { MARKETING_TEXTS } from '@memeslam/protocol/texts';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { users } from '../apps/server/src/db/schema.ts';
import { SHARE_TEXT, resolveLinks } from '../apps/web/src/config/site-links.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { describeJourneys, openJourney, screenshot, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

const pathname = (page: Page) => new URL(page.url()).pathname;
const squash = (texts: string[]) => texts.map((text) => text.replace(/\s+/g, ' ').trim());

describeJourneys('landing', () => {
  const browser = useBrowser();
  const server = useServer();
  let adminToken = '';
  const expected = resolveLinks(process.env).links;
  beforeAll(async () => {
    const admin = await registerAccount(server().base, 'landadm');
    await server().app.db.update(users).set({ role: 'superadmin' }).where(eq(users.id, admin.user.id));
    adminToken = admin.token;
  });

  async function createTournament(body: Record<string, unknown>): Promise<void> {
    const created = await fetch(`${server().base}/api/tournaments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
  }

  it('signed out at /: the page draws its sections, shares on X, rotates and pauses its cards (paused from the start for reduced motion), and unknown client routes get the app', async () => {
    const journey = await openJourney(browser(), server().base, { motion: true });
    const { page, context } = journey;
    try {
      // The share sites are not reachable from here: answer for them, so the new page has its address.
      await context.route(/^https:\/\/(x\.com|t\.me)\//, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>post</title>' }),
      );
      const home = await journey.goto('/');
      expect(home.status()).toBe(200);
      // Robust to a redesign: "MemeSlam" anywhere in the rendered body, and React rendered into #root.
      await page.locator('#root > *').first().waitFor();
      await page.getByText('MemeSlam').first().waitFor();
      expect(await page.locator('body').innerText()).toContain('MemeSlam');
      expect(await page.title()).toContain('MemeSlam');
      // The page draws: a PNG of it can be taken (whether or not SCREENSHOTS=1 keeps the journey's shots).
      const png = await page.screenshot();
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(10_000);
      await journey.screenshot('landing');

      // Hero, ways in, community and share, stats, features, steps, token launch and closing call.
      const main = page.getByRole('main');
      const hero = main.getByRole('region', { name: 'MemeSlam' });
      await hero.getByRole('heading', { level: 1, name: 'MemeSlam' }).waitFor();
      expect(await hero.getByRole('link', { name: 'Start Playing Free' }).getAttribute('href')).toBe('/register');
      expect(await hero.getByRole('link', { name: 'Sign In', exact: true }).getAttribute('href')).toBe('/login');
      expect(await main.getByRole('link', { name: 'Go to Dashboard' }).count()).toBe(0);
      expect(await hero.innerText()).toContain('Games last 2 to 5 minutes');

      // Community and share: new tabs that get no handle on this one.
      const community = hero.getByRole('link', { name: 'Join the Community' });
      expect(await community.getAttribute('href')).toBe(expected.community);
      for (const link of [
        community,
        hero.getByRole('link', { name: 'Share on X' }),
        hero.getByRole('link', { name: 'Share on Telegram' }),
      ]) {
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toContain('noopener');
      }
      const telegram = new URL(
        (await hero.getByRole('link', { name: 'Share on Telegram' }).getAttribute('href')) ?? '',
      );
      expect(telegram.host).toBe('t.me');
      expect(telegram.searchParams.get('text')).toBe(SHARE_TEXT);
      expect(telegram.searchParams.get('url')).toBe(`${server().base}/`);

      const stats = main.getByRole('region', { name: 'Game facts' }).getByRole('listitem');
      expect(squash(await stats.allInnerTexts())).toEqual([
        '180 unique cards',
        '6 crypto memes',
        '2-6 players',
        '6 colors',
        '2-5 minute games',
      ]);

      const features = main.getByRole('region', { name: 'Built for fast hands' });
      expect(await features.getByRole('listitem').count()).toBe(6);
      expect(await features.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
        'No turns, all action',
        'Five power-ups',
        'Bots at every level',
        'Play with friends',
        'Tournaments with prizes',
        'Fair by design',
      ]);

      const steps = main.getByRole('region', { name: 'Three steps to your first win' });
      expect(await steps.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
        'Get your cards',
        'Match and slam',
        'Empty your deck first',
      ]);
      expect(await steps.innerText()).toContain('30 cards: 3 in hand');

      const token = main.getByRole('region', { name: 'The SLAM token' });
      await token.getByText(MARKETING_TEXTS.contractComingSoon, { exact: true }).waitFor();
      for (const fact of ['Burned liquidity', 'Renounced contract', '1% tournament tax']) {
        await token.getByText(fact, { exact: true }).waitFor();
      }

      const closing = main.getByRole('region', { name: 'Ready to slam?' });
      expect(await closing.getByRole('link', { name: 'Start Playing Free' }).getAttribute('href')).toBe('/register');
      expect(await closing.getByRole('link', { name: 'Sign In', exact: true }).getAttribute('href')).toBe('/login');
      expect(await closing.getByRole('link', { name: 'Join the Community' }).getAttribute('href')).toBe(
        expected.community,
      );

      // Share on X opens a new page with the post prefilled.
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        main.getByRole('link', { name: 'Share on X' }).first().click(),
      ]);
      await popup.waitForLoadState();
      const post = new URL(popup.url());
      expect(`${post.origin}${post.pathname}`).toBe('https://x.com/intent/post');
      expect(post.searchParams.get('text')).toBe(SHARE_TEXT);
      expect(post.searchParams.get('url')).toBe(`${server().base}/`);
      expect(await popup.evaluate(() => window.opener)).toBeNull();
      await popup.close();

      // The hero cards rotate, each going on the one before; they pause.
      const cards = page.getByRole('group', { name: 'Sample cards' }).getByRole('img');
      const top = () => cards.last().getAttribute('aria-label');
      const first = await top();
      expect(first).toMatch(/^(Red|Blue|Green|Yellow|Orange|Purple) [1-5] \w+$/);
      await expect.poll(top, { timeout: 10_000 }).not.toBe(first);
      // The caption names the new top card, the one under it and what they share.
      await expect
        .poll(async () => page.getByText(/goes on .*: same (number|color|logo)\./).innerText())
        .toContain(`${(await top()) ?? ''} goes on`);
      await page.getByRole('button', { name: 'Pause cards' }).click();
      await page.getByRole('button', { name: 'Play cards' }).waitFor();

      // Loaded for someone who asks for reduced motion, they start paused.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await journey.goto('/');
      await page.getByRole('group', { name: 'Sample cards' }).waitFor();
      await page.getByRole('button', { name: 'Play cards' }).waitFor();
      expect(await page.getByRole('button', { name: 'Pause cards' }).count()).toBe(0);

      const unknown = await journey.goto('/no/such/page');
      expect(unknown.status()).toBe(200);
      expect(unknown.headers()['content-type']).toContain('text/html');
      await page.locator('#root > *').first().waitFor();
      expect((await page.locator('#root').innerText()).trim()).not.toBe('');
      await journey.screenshot('unknown-route');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 90_000);

  it('its links, followed in one page: the token facts and a FAQ answer, how to play, and /how-to-play, /tokenomics and /leaderboard', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const home = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' });
    try {
      await journey.goto('/');

      // Tokenomics, from the nav: the token facts, and a FAQ answer opened.
      await page.getByRole('link', { name: 'Tokenomics' }).first().click();
      await expect.poll(() => pathname(page)).toBe('/tokenomics');
      await page.getByText('1,000,000,000').waitFor();
      await page.getByText('Coming Soon').waitFor();
      const question = page.getByRole('button', { name: 'Do I need tokens to play?' });
      expect(await question.getAttribute('aria-expanded')).toBe('false');
      await question.click();
      expect(await question.getAttribute('aria-expanded')).toBe('true');
      await page.getByText('Games against people and bots are free.', { exact: false }).waitFor();
      expect(await page.getByRole('button', { expanded: false }).count()).toBe(4);
      await journey.screenshot('tokenomics');

      // How to play, from the nav's Docs: tabs with previous/next and dots, the matching demo, Play Now on the last step.
      await page.getByRole('link', { name: 'Docs' }).first().click();
      await expect.poll(() => pathname(page)).toBe('/how-to-play');
      expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('tab', { name: 'Cards', selected: true }).waitFor();

      // The demo draws the game's own cards (four in the hand, the pile's top), not text tiles.
      const demo = page.getByRole('region', { name: 'Try it: pick a card, then the pile' });
      expect(await demo.locator('svg[role="img"]').count()).toBe(5);
      const pile = page.getByRole('button', { name: /Discard pile/ });
      await pile.click();
      await page.getByText('Select a card first!').waitFor();
      await page.getByRole('button', { name: 'Red 3 Bonk' }).click();
      await pile.click();
      await page.getByText('Correct match!').waitFor();
      await page.getByRole('button', { name: 'Green 5 Wif' }).click();
      await pile.click();
      await page.getByText('Not a valid match!').waitFor();
      await journey.screenshot('how-to-play-demo');

      await page.getByRole('button', { name: 'Go to Winning' }).click();
      await page.getByRole('tab', { name: 'Winning', selected: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Play Now' }).getAttribute('href')).toBe('/lobby');

      // The landing page's own links, each followed from the landing page (back through the nav's Home).
      for (const [name, path] of [
        ['Read the full guide', '/how-to-play'],
        ['Read the tokenomics', '/tokenomics'],
      ] as const) {
        await home.click();
        await expect.poll(() => pathname(page)).toBe('/');
        await page.getByRole('main').getByRole('link', { name }).click();
        await expect.poll(() => pathname(page)).toBe(path);
      }
      await home.click();
      await expect.poll(() => pathname(page)).toBe('/');
      const footer = page.getByRole('navigation', { name: 'Explore' });
      for (const [name, path] of [
        ['Leaderboard', '/leaderboard'],
        ['Tokenomics', '/tokenomics'],
        ['How to Play', '/how-to-play'],
      ] as const) {
        expect(await footer.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(path);
      }
      await footer.getByRole('link', { name: 'Leaderboard', exact: true }).click();
      await expect.poll(() => pathname(page)).toBe('/leaderboard');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 90_000);

  it('prize section: the no-tournament state, then the current tournament created through the API', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/');
      const prizes = page.getByRole('region', { name: 'Play for the prize pool' });
      await prizes.scrollIntoViewIfNeeded();
      await prizes.getByRole('heading', { name: TOURNAMENT_TEXTS.noActiveTournament }).waitFor();
      expect(await prizes.getByRole('link', { name: 'See the leaderboard' }).getAttribute('href')).toBe('/leaderboard');

      const start = Date.now() + 2 * 3_600_000;
      await createTournament({
        name: 'Landing Cup',
        startDate: new Date(start).toISOString(),
        endDate: new Date(start + 86_400_000).toISOString(),
        totalAmount: 1000,
        winnersCount: 3,
      });
      await page.reload();
      await prizes.scrollIntoViewIfNeeded();
      await prizes.getByRole('heading', { name: 'Landing Cup' }).waitFor();
      await prizes.getByText(TOURNAMENT_TEXTS.upcoming, { exact: true }).waitFor();
      await prizes.getByText(TOURNAMENT_TEXTS.startingSoon).waitFor();
      const upcoming = await prizes.innerText();
      expect(upcoming).toContain('1,000 SLAM');
      expect(upcoming).toMatch(/Winners\s+3/);
      expect(upcoming).toMatch(/Starts in\s+1h 5\dm/);
      expect(
        squash(await prizes.getByRole('list', { name: 'Prize split' }).getByRole('listitem').allInnerTexts()),
      ).toEqual(['1st 500 SLAM', '2nd 300 SLAM', '3rd 200 SLAM']);
      await journey.screenshot('landing-prize-upcoming');

      // A live one is current before an upcoming one.
      await createTournament({
        name: 'Live Slam',
        startDate: new Date(Date.now() - 3_600_000).toISOString(),
        endDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        totalAmount: 5000,
        currency: 'SOL',
        winnersCount: 2,
      });
      await page.reload();
      await prizes.scrollIntoViewIfNeeded();
      await prizes.getByRole('heading', { name: 'Live Slam' }).waitFor();
      await prizes.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      const live = await prizes.innerText();
      expect(live).toContain('5,000 SOL');
      expect(live).toMatch(/Ends in\s+1d 23h/);
      await prizes.getByRole('link', { name: 'View the standings' }).click();
      await expect.poll(() => pathname(page)).toBe('/leaderboard');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('signed in: a welcome with the username and Go to Dashboard instead of the ways in', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const account = await registerAccount(server().base, 'lander');
      await signIn(journey, account);
      await journey.goto('/');
      const main = page.getByRole('main');
      await main.getByText(`Welcome back, ${account.username}!`).waitFor();
      expect(await main.getByRole('link', { name: 'Start Playing Free' }).count()).toBe(0);
      expect(await main.getByRole('link', { name: 'Sign In', exact: true }).count()).toBe(0);
      expect(await main.getByRole('link', { name: 'Go to Dashboard' }).count()).toBe(2);
      await journey.screenshot('landing-signed-in');
      await main.getByRole('link', { name: 'Go to Dashboard' }).first().click();
      await expect.poll(() => pathname(page)).toBe('/dashboard');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('lays out without sideways scrolling on a phone, a tablet and a desktop', async () => {
    // One page, loaded at the phone's size and then resized: the app follows the window's size
    // through media queries (CSS, and matchMedia listeners), not only when it loads.
    const context = await browser().newContext({ baseURL: server().base, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto('/');
      for (const [name, viewport] of [
        ['mobile', { width: 390, height: 844 }],
        ['tablet', { width: 820, height: 1180 }],
        ['desktop', { width: 1280, height: 800 }],
      ] as const) {
        await page.setViewportSize(viewport);
        // Down to the closing call, so the prize panel loads too.
        await page.getByRole('region', { name: 'Ready to slam?' }).scrollIntoViewIfNeeded();
        await page
          .getByRole('region', { name: 'Play for the prize pool' })
          .getByRole('heading', { level: 3 })
          .waitFor();
        const overflow = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          wider: [...document.querySelectorAll('main *')].filter(
            (element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5,
          ).length,
        }));
        expect(overflow, name).toEqual({ page: 0, wider: 0 });
        await screenshot(page, `landing-${name}`);
      }
    } finally {
      await context.close();
    }
  });
});
