/**
 * The public pages' links and assets, in a real browser against the real server: the tokenomics
 * page's community and trading links, the terms and privacy pages, and every public page loaded
 * without a failed request. One browser and one server for them all.
 */
import { expect, it } from 'vitest';
import { resolveLinks } from '../apps/web/src/config/site-links.ts';
import { expectAccessible } from './helpers/axe.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('public links', () => {
  const browser = useBrowser();
  const server = useServer();

  it('links to the community account and the trading site set for the build, in new tabs', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const { community, trade } = resolveLinks(process.env).links;
      await journey.goto('/tokenomics');
      const section = page.getByRole('region', { name: 'Community and trading' });
      const links = [
        [section.getByRole('link', { name: /^Join the Community/ }), community],
        [section.getByRole('link', { name: /^Trade SLAM/ }), trade],
      ] as const;
      for (const [link, href] of links) {
        expect(await link.getAttribute('href')).toBe(href);
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toContain('noopener');
      }
      const post = new URL((await section.getByRole('link', { name: 'Share on X' }).getAttribute('href')) ?? '');
      expect(post.searchParams.get('text')).toContain('MemeSlam');
      expect(post.searchParams.get('url')).toBe(`${server().base}/`);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('the register form links to short real pages for the terms of service and the privacy policy', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/register');
      for (const [name, path, heading] of [
        ['terms of service', '/terms', 'Terms of service'],
        ['privacy policy', '/privacy', 'Privacy policy'],
      ] as const) {
        await page.getByRole('link', { name }).click();
        await atPath(page, path);
        await page.getByRole('heading', { name: heading }).waitFor();
        await expectAccessible(page, heading);
        // Back to the form as a person goes back: the app stays loaded.
        await page.goBack();
        await atPath(page, '/register');
      }
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('loads the public pages without a single 4xx/5xx or failed request; the favicon is there', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const bad: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) bad.push(`${response.status()} ${response.url()}`);
    });
    // Requests still out when the test moves to the next page would be cut off by the test itself
    // (net::ERR_ABORTED): each page is left only once every request it made has ended.
    const inFlight = new Set<unknown>();
    page.on('request', (request) => inFlight.add(request));
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => {
      inFlight.delete(request);
      bad.push(`failed ${request.url()}: ${request.failure()?.errorText}`);
    });
    try {
      for (const path of ['/', '/login', '/register', '/how-to-play', '/tokenomics', '/leaderboard', '/no/such/page']) {
        const response = await journey.goto(path);
        expect(response.headers()['content-encoding'], path).toBe('br');
        await page.locator('#root > *').first().waitFor();
        await page.waitForLoadState('networkidle');
        await expect.poll(() => inFlight.size, { timeout: 15_000 }).toBe(0);
      }
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(icon).toBe('/favicon.svg');
      for (const path of [icon, '/favicon.ico']) {
        const res = await page.request.get(path ?? '');
        expect(res.status(), path ?? '').toBe(200);
        expect(res.headers()['content-type']).toContain('image/svg+xml');
      }
      expect(bad).toEqual([]);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
