/**
 * Keyboard play in a real browser: every key means one thing whatever is selected. 1–3 pick a hand
 * card, J K L ; a pile, so after a refused play (its card stays selected for a retry) a card key
 * selects that card instead of throwing the selected one at a pile. On a touch screen the key badges
 * and the keys line are not shown, and the hint says "tap".
 *
 * Against a server whose clock moves only when the journey says and whose deal is chosen (the bot
 * never acts, so the piles stay as dealt), with an empty stock: the piles hold only their top cards,
 * so a Reversal would send nothing back and is refused with its reason, not used up.
 */
import { type Card, type GameState, createGame, matches } from '@memeslam/engine';
import { GAME_TEXTS, HINTS, cannotPlayCardText } from '@memeslam/protocol';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { ENGINE_RULES } from '../apps/server/src/games/types.ts';
import { keysLegend } from '../apps/web/src/game/keys.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { type Journey, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { createBotGame } from './helpers/game.ts';
import { enterGame, seedWhere, startWithClock, topsOf } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

const TWO_PLAYERS = { numberOfBots: 1, maxPlayers: 2, botDifficulty: 'easy', gameSpeed: 'slow', cardsPerPlayer: 30 };

/** A two-pile deal where the person holds a card that fits no pile and, in another slot, one that fits. */
function board(state: GameState) {
  const tops = topsOf(state);
  const hand = state.players[0]?.hand ?? [];
  const fitting = (card: Card) => tops.some((top) => matches(card, top));
  const fits = hand.findIndex(fitting);
  return {
    tops,
    hand,
    stuck: hand.findIndex((card) => !fitting(card)),
    fits,
    pile: fits < 0 ? -1 : tops.findIndex((top) => matches(hand[fits] as Card, top)),
  };
}

const deal = seedWhere({ players: 2, cardsPerPlayer: 30 }, (state) => {
  const { stuck, fits } = board(state);
  return stuck >= 0 && fits >= 0;
});

/** Which hand cards are selected, in slot order. */
const pressed = (page: Page) =>
  page.locator('[data-hand-card]').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-pressed') === 'true'));
const pileTops = (page: Page) =>
  page.locator('[data-pile]').evaluateAll((piles) => piles.map((p) => p.getAttribute('data-top')));

describeJourneys('keyboard play', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  const rules = {
    ...ENGINE_RULES,
    createGame: (...args: Parameters<typeof createGame>) => ({ ...createGame(...args), stock: [] }),
  };
  const server = useServer({}, { clock, seeds: () => deal.seed, rules });

  async function heldGame(prefix: string, phone = false) {
    const account = await registerAccount(server().base, prefix);
    const journey = await openJourney(browser(), server().base, { phone });
    await signIn(journey, account);
    const { roomCode } = await createBotGame(server().base, account, TWO_PLAYERS);
    await startWithClock(server(), clock, roomCode);
    await enterGame(journey, roomCode);
    return journey;
  }

  /**
   * A Reversal while the piles hold only their dealt top cards (so before anything is played): refused
   * with its reason, and still there to use once the piles grow.
   */
  async function reversalRefused(journey: Journey, phone: boolean): Promise<void> {
    const { page } = journey;
    const powerUps = page.getByRole('region', { name: 'Power-ups' });
    await powerUps.getByText('5/5').waitFor();
    if (phone) await page.getByRole('button', { name: 'Reversal', exact: true }).tap();
    else await page.keyboard.press('r');
    await page.locator('[data-sonner-toast]', { hasText: GAME_TEXTS.nothingToSendBack }).waitFor();
    expect(await powerUps.getByText('5/5').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Reversal, used' }).count()).toBe(0);
  }

  // One dealt game per screen: the checks that need the board as dealt come first in each.
  it('keeps card keys and pile keys apart: a refused card stays selected, and a card key then selects a card; refuses a Reversal that would send nothing back, and keeps it (desktop)', async () => {
    const journey = await heldGame('keys');
    const { page } = journey;
    try {
      const { tops, hand, stuck, fits, pile } = board(deal.state);
      const dealtTops = tops.map((top) => top.id);
      expect(await pileTops(page)).toEqual(dealtTops);
      expect(
        await page.locator('[data-hand-card]').evaluateAll((c) => c.map((e) => e.getAttribute('data-hand-card'))),
      ).toEqual(hand.map((card) => card.id));
      await expect.poll(() => page.locator('[data-keys-legend]').textContent()).toBe(keysLegend(2));
      const badges = await page.locator('[data-pile] + span kbd').allTextContents();
      expect(badges).toEqual(['J', 'K']);

      // Before any card is played, R's Reversal is refused and kept; nothing is selected by it.
      await reversalRefused(journey, false);
      expect(await pileTops(page)).toEqual(dealtTops);
      expect((await pressed(page)).some(Boolean)).toBe(false);

      // A pile key with nothing selected says so, in one toast however often it is pressed (one per cause).
      await page.keyboard.press('j');
      const selectFirst = page.locator('[data-sonner-toast]', { hasText: GAME_TEXTS.selectTheCardFirst });
      await selectFirst.first().waitFor();
      for (let i = 0; i < 4; i += 1) await page.keyboard.press('j');
      await expect.poll(() => page.getByText(GAME_TEXTS.selectTheCardFirst).count()).toBe(1);
      expect(await selectFirst.count()).toBe(1);
      // Players get no debug panel (a development build's only).
      expect(await page.getByRole('button', { name: /debug/i }).count()).toBe(0);

      // The card that fits no pile, then a pile key: refused, and the card stays selected.
      await page.keyboard.press(String(stuck + 1));
      await expect.poll(() => pressed(page)).toEqual(hand.map((_, slot) => slot === stuck));
      await page.keyboard.press('j');
      await page
        .getByText(cannotPlayCardText(hand[stuck] as Card, tops[0] as Card))
        .first()
        .waitFor();
      expect(await pressed(page)).toEqual(hand.map((_, slot) => slot === stuck));

      // The other card's key selects that card; nothing is thrown at a pile.
      await page.keyboard.press(String(fits + 1));
      await expect.poll(() => pressed(page)).toEqual(hand.map((_, slot) => slot === fits));
      expect(await pileTops(page)).toEqual(dealtTops);

      // A third pile's key on a two-pile board does nothing.
      await page.keyboard.press('l');
      expect(await pressed(page)).toEqual(hand.map((_, slot) => slot === fits));
      expect(await pileTops(page)).toEqual(dealtTops);

      // The pile key of the pile it fits plays it.
      await page.keyboard.press(['j', 'k'][pile] as string);
      await expect.poll(async () => (await pileTops(page))[pile]).toBe(hand[fits]?.id);
      await expect.poll(() => page.locator(`[data-hand-card="${hand[fits]?.id}"]`).count()).toBe(0);

      // The same card key twice selects and deselects; Escape clears.
      await page.keyboard.press('1');
      await expect.poll(async () => (await pressed(page))[0]).toBe(true);
      await page.keyboard.press('1');
      await expect.poll(async () => (await pressed(page))[0]).toBe(false);
      await page.keyboard.press('2');
      await expect.poll(async () => (await pressed(page))[1]).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(async () => (await pressed(page)).some(Boolean)).toBe(false);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);

  it('shows no key badges and no keys line on a touch screen; refuses a Reversal that would send nothing back, and keeps it (phone)', async () => {
    const journey = await heldGame('touch', true);
    const { page } = journey;
    try {
      const badges = page.locator(
        '[data-pile] + span kbd, [data-hand-card] + kbd, section[aria-label="Power-ups"] kbd',
      );
      expect(await badges.count()).toBe(2 + 3 + 5);
      expect(await badges.evaluateAll((all) => all.filter((k) => k.checkVisibility()).length)).toBe(0);
      expect(await page.locator('[data-keys-legend]').isVisible()).toBe(false);
      // The hint speaks of tapping.
      await page.getByRole('status').getByText(HINTS.selectCardThenPile.replace('click', 'tap')).waitFor();
      // The pile numbers stay.
      expect(await page.locator('[data-pile] + span').allTextContents()).toEqual([
        expect.stringMatching(/^J? ?(Pile )?1/),
        expect.stringMatching(/^K? ?(Pile )?2/),
      ]);
      await reversalRefused(journey, true);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);
});
