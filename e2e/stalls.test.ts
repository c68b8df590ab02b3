/**
 * A stalled server in a real browser: a play's answer held back for seconds. The card goes onto the
 * pile at once (optimistic); once the answer is a second late the game says
 * "Reconnecting…" and shows the hand and the pile as the server last had them, with no card in two
 * places or none; when the answer comes, the play lands and the notice goes.
 *
 * Against a server whose clock moves only when the journey says and whose deal is chosen (the bot
 * never acts, so the board stays as dealt).
 */
import { type Card, matches } from '@memeslam/engine';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { createBotGame } from './helpers/game.ts';
import { enterGame, seedWhere, startWithClock, topsOf } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

const deal = seedWhere({ players: 2, cardsPerPlayer: 30 }, (state) => {
  const tops = topsOf(state);
  return (state.players[0]?.hand ?? []).some((card) => tops.some((top) => matches(card, top)));
});

const pileTops = (page: Page) =>
  page.locator('[data-pile]').evaluateAll((piles) => piles.map((p) => p.getAttribute('data-top')));
const handIds = (page: Page) =>
  page.locator('[data-hand-card]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-hand-card')));

describeJourneys('a stalled server', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  const server = useServer({}, { clock, seeds: () => deal.seed });

  it('says "Reconnecting…" when a play is a second late and keeps the hand as the server has it until it answers', async () => {
    const account = await registerAccount(server().base, 'stall');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    // Every playCard frame waits for `release` before it reaches the server.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const upstream = ws.connectToServer();
      ws.onMessage((message) => {
        if (typeof message === 'string' && /^42\d*\["playCard",/.test(message)) {
          void released.then(() => upstream.send(message));
          return;
        }
        upstream.send(message);
      });
    });
    try {
      await signIn(journey, account);
      const { roomCode } = await createBotGame(server().base, account, {
        numberOfBots: 1,
        maxPlayers: 2,
        botDifficulty: 'easy',
        gameSpeed: 'slow',
        cardsPerPlayer: 30,
      });
      await startWithClock(server(), clock, roomCode);
      await enterGame(journey, roomCode);
      const tops = topsOf(deal.state);
      const hand = deal.state.players[0]?.hand ?? [];
      const card = hand.find((c) => tops.some((top) => matches(c, top))) as Card;
      const pile = tops.findIndex((top) => matches(card, top));
      const dealtTops = tops.map((top) => top.id);
      const reconnecting = page.getByRole('status').filter({ hasText: 'Reconnecting…' });

      await page.locator(`[data-hand-card="${card.id}"]`).click();
      await page.locator(`[data-pile="${pile}"]`).click();
      // At once: on the pile, out of the hand (the optimistic play).
      await expect.poll(async () => (await pileTops(page))[pile]).toBe(card.id);
      // A second without an answer: the notice, and the board as the server has it.
      await reconnecting.waitFor();
      expect(await handIds(page)).toEqual(hand.map((c) => c.id));
      expect(await pileTops(page)).toEqual(dealtTops);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await reconnecting.isVisible()).toBe(true);

      // The answer comes: the play lands, the notice goes.
      release();
      await expect.poll(async () => (await pileTops(page))[pile]).toBe(card.id);
      await expect.poll(async () => (await handIds(page)).includes(card.id)).toBe(false);
      await reconnecting.waitFor({ state: 'detached' });
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);
});
