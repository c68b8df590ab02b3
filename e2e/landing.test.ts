/** The landing page and the SPA fallback, in a real browser against the real server. */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('landing', () => {
  const browser = useBrowser();
  const server = useServer();

  it('shows MemeSlam at / and serves the app for unknown client routes', async () => {
    const journey = await openJourney(browser(), server().base);
    try {
      const home = await journey.goto('/');
      expect(home.status()).toBe(200);
      // Robust to a redesign: "MemeSlam" anywhere in the rendered body, and React rendered into #root.
      await journey.page.locator('#root > *').first().waitFor();
      await journey.page.getByText('MemeSlam').first().waitFor();
      expect(await journey.page.locator('body').innerText()).toContain('MemeSlam');
      expect(await journey.page.title()).toContain('MemeSlam');
      expect(existsSync(await journey.screenshot('landing'))).toBe(true);

      const unknown = await journey.goto('/no/such/page');
      expect(unknown.status()).toBe(200);
      expect(unknown.headers()['content-type']).toContain('text/html');
      await journey.page.locator('#root > *').first().waitFor();
      expect((await journey.page.locator('#root').innerText()).trim()).not.toBe('');
      await journey.screenshot('unknown-route');

      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});

describeJourneys('docs and tokenomics', () => {
  const browser = useBrowser();
  const server = useServer();

  it('shows the token facts and opens a FAQ answer from the nav', async () => {
    const journey = await openJourney(browser(), server().base);
    try {
      await journey.goto('/');
      await journey.page.getByRole('link', { name: 'Tokenomics' }).first().click();
      await expect.poll(() => new URL(journey.page.url()).pathname).toBe('/tokenomics');
      await journey.page.getByText('1,000,000,000').waitFor();
      await journey.page.getByText('Coming Soon').waitFor();
      const question = journey.page.getByRole('button', { name: 'Do I need tokens to play?' });
      expect(await question.getAttribute('aria-expanded')).toBe('false');
      await question.click();
      expect(await question.getAttribute('aria-expanded')).toBe('true');
      await journey.page.getByText('Games against people and bots are free.', { exact: false }).waitFor();
      expect(await journey.page.getByRole('button', { expanded: false }).count()).toBe(4);
      await journey.screenshot('tokenomics');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('how to play: tabs with previous/next and dots, the matching demo, Play Now on the last step', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/');
      await page.getByRole('link', { name: 'Docs' }).first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/how-to-play');
      expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('tab', { name: 'Cards', selected: true }).waitFor();

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
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
