/**
 * Play now in real browsers, on a server clock moved by hand: two people press Play now on their
 * dashboards and land in one game, and after it Play now on their result screens seats them again;
 * someone alone is offered a bot game after 20 s, keeps waiting or
 * takes it, and Cancel leaves the queue.
 */
import { MATCHMAKING_TEXTS } from '@memeslam/protocol';
import { TIME_CAP_MS } from '@memeslam/engine';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { BOT_FILL_AFTER_MS } from '../apps/server/src/matchmaking/pairing.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { atPath, describeJourneys, openJourney, screenshot, useBrowser } from './helpers/browser.ts';
import { RESULT_HEADINGS } from './helpers/game.ts';
import { startWithClock } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('Play now', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  const server = useServer({}, { clock });

  it('seats two people who press Play now in one game, and again from their result screens', async () => {
    const accounts = await Promise.all([
      registerAccount(server().base, 'quick'),
      registerAccount(server().base, 'pair'),
    ]);
    const journeys = await Promise.all([
      openJourney(browser(), server().base),
      openJourney(browser(), server().base, { phone: true }),
    ]);
    try {
      await Promise.all(journeys.map((j, i) => signIn(j, accounts[i] as (typeof accounts)[number])));
      for (const j of journeys) {
        await j.goto('/dashboard');
        // Any table size (the default): the two make a table of two at once. The server's first page
        // of the run may take a while to come up on a busy machine.
        await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).click({ timeout: 60_000 });
      }
      const lobby = /^\/(lobby|game)\/([A-Z0-9]{6})$/;
      const paths = await Promise.all(journeys.map((j) => atPath(j.page, lobby)));
      const codes = paths.map((p) => lobby.exec(p)?.[2]);
      if (!codes[0] || codes[0] !== codes[1]) throw new Error(`not one room: ${paths.join(', ')}`);
      await startWithClock(server(), clock, codes[0]);
      await Promise.all(journeys.map((j) => j.page.locator('[data-hand-card]').first().waitFor({ timeout: 20_000 })));

      // Nobody plays: the time cap ends the game. Play now on both result screens seats them again.
      for (let ms = 0; ms <= TIME_CAP_MS + 60_000; ms += 60_000) clock.advance(60_000);
      for (const j of journeys) {
        await j.page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor({ timeout: 20_000 });
        await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).click();
        await j.page.getByRole('status').getByText(MATCHMAKING_TEXTS.searching).waitFor();
      }
      // The game moved their ratings apart (new players move far): their windows meet after a wait.
      clock.advance(30_000);
      const again = await Promise.all(journeys.map((j) => atPath(j.page, lobby)));
      const newCodes = again.map((p) => lobby.exec(p)?.[2]);
      if (!newCodes[0] || newCodes[0] !== newCodes[1]) throw new Error(`not one room again: ${again.join(', ')}`);
      expect(newCodes[0]).not.toBe(codes[0]);
      for (const j of journeys) j.assertNoPageErrors();
    } finally {
      await Promise.all(journeys.map((j) => j.close()));
    }
  }, 120_000);

  it('offers someone alone a bot game after 20 s; Keep waiting, Cancel, and Play a bot', async () => {
    const account = await registerAccount(server().base, 'lonely');
    const j = await openJourney(browser(), server().base);
    try {
      await signIn(j, account);
      await j.goto('/dashboard');
      await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).click();
      await j.page.getByRole('status').getByText(MATCHMAKING_TEXTS.searching).waitFor();
      await screenshot(j.page, 'play-now-searching');
      clock.advance(BOT_FILL_AFTER_MS);
      const offer = j.page.getByRole('dialog', { name: MATCHMAKING_TEXTS.botOfferTitle });
      await offer.waitFor();
      await screenshot(j.page, 'play-now-bot-offer');
      await offer.getByRole('button', { name: MATCHMAKING_TEXTS.keepWaiting }).click();
      await offer.waitFor({ state: 'hidden' });
      await j.page.getByRole('status').getByText(MATCHMAKING_TEXTS.searchingCount(1)).waitFor();
      await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.cancel }).click();
      await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).waitFor();

      // Again, and this time the bot game.
      await j.page.getByRole('button', { name: MATCHMAKING_TEXTS.playNow, exact: true }).click();
      await j.page.getByRole('status').getByText(MATCHMAKING_TEXTS.searching).waitFor();
      clock.advance(BOT_FILL_AFTER_MS);
      await offer.getByRole('button', { name: MATCHMAKING_TEXTS.playBot }).click();
      await atPath(j.page, /^\/(lobby|game)\/[A-Z0-9]{6}$/);
      j.assertNoPageErrors();
    } finally {
      await j.close();
    }
  }, 60_000);
});
