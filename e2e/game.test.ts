/**
 * Playing in a real browser against the real server: a bot game from the dashboard's Quick Start
 * played card by card to its result; two people in one room racing for the same pile and
 * freezing each other, watched by a spectator; and a game on a phone-sized screen.
 */
import { type Card, EARLY_LEAVE_MIN_CARDS, EARLY_LEAVE_MS, cardById, matches } from '@memeslam/engine';
import {
  BOT_AUTO_START_DELAY_MS,
  COUNTDOWN_COMPLETE_AFTER_ZERO_MS,
  COUNTDOWN_DURATION_MS,
  type GameResult,
  HINTS,
} from '@memeslam/protocol';
import type { Page, WebSocketRoute } from 'playwright-core';
import { expect, it } from 'vitest';
import { PILE_KEYS } from '../apps/web/src/game/keys.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { RESULT_HEADINGS, createBotGame, playOneCard, playUntilEnd } from './helpers/game.ts';
import { useServer } from './helpers/server.ts';

function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
  return page.locator(selector).evaluateAll((els, attr) => els.map((el) => el.getAttribute(attr)), name);
}
const handOf = async (page: Page) =>
  (await attributes(page, '[data-hand-card]', 'data-hand-card')).filter((id) => id !== null);
const topsOf = (page: Page) => attributes(page, '[data-pile]', 'data-top');
const pileCardsOf = async (page: Page) =>
  (await attributes(page, '[data-pile]', 'data-cards')).map((ids) => (ids ?? '').split(' ').filter(Boolean));
const card = (id: string | null | undefined): Card | undefined => (id ? cardById(id) : undefined);

/** Both screens agree on every pile and neither waits on a play. */
async function settled(a: Page, b: Page): Promise<void> {
  await expect.poll(async () => JSON.stringify(await topsOf(a)) === JSON.stringify(await topsOf(b))).toBe(true);
}

describeJourneys('game', () => {
  const browser = useBrowser();
  const server = useServer();

  it('Quick Start Easy: countdown, play every card by clicking, result, and the dashboard counts the game', async () => {
    const account = await registerAccount(server().base, 'qs');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, account);
      await journey.goto('/dashboard');
      const clicked = Date.now();
      await page.getByRole('button', { name: 'Quick Start Easy' }).click();
      await page.getByText('GO!').waitFor({ timeout: 30_000 });
      await journey.screenshot('game-countdown');
      await atPath(page, /^\/game\//);
      await page.locator('[data-hand-card]:not([disabled])').first().waitFor({ timeout: 20_000 });
      // What waits besides the spec's own timers (the bot game's auto-start, the countdown, its completion
      // after zero: 7 s): the create call, the pages and the join. Printed, not asserted: about 0.1 s on
      // an idle machine, 3 s in a full run on two busy cores, so a bound would test the machine's load.
      const specWaits = BOT_AUTO_START_DELAY_MS + COUNTDOWN_DURATION_MS + COUNTDOWN_COMPLETE_AFTER_ZERO_MS;
      console.log(`[quick start] playable ${Date.now() - clicked - specWaits} ms after the spec's ${specWaits} ms`);
      await page.getByText(HINTS.selectCardThenPile).waitFor();
      await journey.screenshot('game-playing-desktop');

      const plays = await playUntilEnd(page);
      expect(plays).toBeGreaterThan(0);
      const heading = await page.getByRole('heading', { name: RESULT_HEADINGS }).textContent();
      await page.getByText('Cards Played').first().waitFor();
      await journey.screenshot('game-result');

      await page.getByRole('button', { name: 'Dashboard' }).click();
      await atPath(page, '/dashboard');
      const stats = await fetch(`${server().base}/api/auth/me`, {
        headers: { authorization: `Bearer ${account.token}` },
      }).then((r) => r.json() as Promise<{ data: { user: { stats: { gamesPlayed: number; gamesWon: number } } } }>);
      expect(stats.data.user.stats.gamesPlayed).toBe(1);
      expect(stats.data.user.stats.gamesWon).toBe(heading === 'Victory' ? 1 : 0);
      const gamesPlayed = page.locator('dt', { hasText: 'Games Played' }).locator('xpath=following-sibling::dd');
      await expect.poll(() => gamesPlayed.textContent(), { timeout: 10_000 }).toBe('1');

      // A second game, and Challenge AI Again from its result makes a third with the same bots.
      await page.getByRole('button', { name: 'Quick Start Easy' }).click();
      await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
      await playUntilEnd(page);
      const firstRoom = new URL(page.url()).pathname;
      await page.getByRole('button', { name: 'Challenge AI Again' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).not.toBe(firstRoom);
      await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
      await page
        .getByRole('article', { name: /\(Bot\)/ })
        .getByText('Easy Bot')
        .waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 300_000);

  it('two players race for one pile, freeze each other, and a spectator watches', async () => {
    const base = server().base;
    const [host, guest, watcher] = await Promise.all([
      registerAccount(base, 'host'),
      registerAccount(base, 'guest'),
      registerAccount(base, 'watch'),
    ]);
    const a = await openJourney(browser(), base);
    const b = await openJourney(browser(), base);
    const c = await openJourney(browser(), base);
    try {
      await Promise.all([signIn(a, host), signIn(b, guest), signIn(c, watcher)]);
      const created = await fetch(`${base}/api/game/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
        body: JSON.stringify({ settings: { maxPlayers: 2, cardsPerPlayer: 20 } }),
      }).then((r) => r.json() as Promise<{ data: { roomCode: string } }>);
      const { roomCode } = created.data;

      await a.goto(`/lobby/${roomCode}`);
      await b.goto(`/lobby?join=${roomCode}`);
      await atPath(b.page, `/lobby/${roomCode}`);
      await a.page.getByText(guest.username).first().waitFor();
      await b.page
        .getByRole('button', { name: /Mark Ready|Ready/ })
        .first()
        .click();
      await a.page
        .getByRole('button', { name: /Mark Ready|Ready/ })
        .first()
        .click();
      await a.page.getByRole('button', { name: 'Start Game' }).click();
      await Promise.all([atPath(a.page, `/game/${roomCode}`), atPath(b.page, `/game/${roomCode}`)]);
      await Promise.all([
        a.page.locator('[data-hand-card]').first().waitFor(),
        b.page.locator('[data-hand-card]').first().waitFor(),
      ]);

      // A spectator sees the board and the players, and no hand.
      await c.goto(`/game/${roomCode}`);
      await c.page.getByText('Spectating').waitFor();
      await c.page.locator('[data-pile]').first().waitFor();
      expect(await c.page.locator('[data-hand-card]').count()).toBe(0);

      // The race: both select a card that matches the same pile and click it at the same moment.
      let raced = false;
      for (let attempt = 0; attempt < 40 && !raced; attempt++) {
        await settled(a.page, b.page);
        const tops = (await topsOf(a.page)).map(card);
        const [handA, handB] = [(await handOf(a.page)).map(card), (await handOf(b.page)).map(card)];
        for (const [pile, top] of tops.entries()) {
          const mine = top && handA.find((x) => x && matches(x, top));
          const theirs = top && handB.find((x) => x && matches(x, top));
          if (!mine || !theirs) continue;
          await a.page.locator(`[data-hand-card="${mine.id}"]`).click();
          await b.page.locator(`[data-hand-card="${theirs.id}"]`).click();
          await Promise.all([
            a.page.locator(`[data-pile="${pile}"]`).click(),
            b.page.locator(`[data-pile="${pile}"]`).click(),
          ]);
          await settled(a.page, b.page);
          // Each of the two cards is in exactly one place, the same in both views: its owner's hand or the pile.
          await expect
            .poll(async () => {
              const [pilesA, pilesB] = [await pileCardsOf(a.page), await pileCardsOf(b.page)];
              const inHandA = (await handOf(a.page)).includes(mine.id);
              const inHandB = (await handOf(b.page)).includes(theirs.id);
              const onPile = (id: string) => [pilesA[pile]?.includes(id), pilesB[pile]?.includes(id)];
              return JSON.stringify([inHandA, ...onPile(mine.id), inHandB, ...onPile(theirs.id)]);
            })
            .toMatch(/^\[(true,false,false|false,true,true),(true,false,false|false,true,true)\]$/);
          const [pilesA] = [await pileCardsOf(a.page)];
          expect(pilesA[pile]?.includes(mine.id) || pilesA[pile]?.includes(theirs.id)).toBe(true);
          raced = true;
          break;
        }
        if (!raced && !(await playOneCard(a.page))) await playOneCard(b.page);
      }
      expect(raced).toBe(true);
      await a.screenshot('game-race-host');
      await b.screenshot('game-race-guest');

      // Freeze: the host freezes the guest, who sees the frozen state; the host sees it too. Every
      // count of seconds left the guest is shown is kept, to check it against the server's 8 s.
      await b.page.evaluate(() => {
        const w = window as unknown as { freezeShown: number[] };
        w.freezeShown = [];
        const read = () => {
          const seconds = /\((\d+) s\)/.exec(document.querySelector('[data-status-row]')?.textContent ?? '');
          if (seconds) w.freezeShown.push(Number(seconds[1]));
        };
        new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await a.page.getByRole('button', { name: 'Freeze', exact: true }).click();
      await a.page
        .getByRole('dialog')
        .getByRole('button', { name: new RegExp(guest.username) })
        .click();
      await b.page.getByText(HINTS.youAreFrozen).waitFor();
      await a.page.getByRole('article', { name: new RegExp(`^${guest.username}: .*frozen`) }).waitFor();
      await c.page.getByRole('article', { name: new RegExp(`^${guest.username}: .*frozen`) }).waitFor();
      await b.screenshot('game-frozen');
      expect(await b.page.locator('[data-hand-card]:not([disabled])').count()).toBe(0);
      // It thaws by itself after the 8 s the server holds it, having counted down from 8 s, never 9.
      await b.page.getByText(HINTS.youAreFrozen).waitFor({ state: 'detached', timeout: 15_000 });
      const shown = await b.page.evaluate(() => (window as unknown as { freezeShown: number[] }).freezeShown);
      expect(shown[0]).toBe(8);
      expect(Math.max(...shown)).toBe(8);
      expect(new Set(shown).size).toBeGreaterThanOrEqual(6);

      // The host leaves. Had they contested the game (60 s of play and 5 cards) the guest wins by
      // forfeit; a walk-away before that is aborted and nobody wins (docs/fair-play.md). How many
      // cards the host played above depends on the deal, so the record says which applies.
      await a.page.getByRole('button', { name: 'Leave game' }).first().click();
      await a.page.getByRole('dialog').getByRole('button', { name: 'Leave game' }).click();
      await atPath(a.page, '/dashboard');
      let result: GameResult | null = null;
      for (let tries = 0; !result && tries < 150; tries += 1) {
        const res = await fetch(`${base}/api/game/${roomCode}/result`, {
          headers: { authorization: `Bearer ${guest.token}` },
        });
        if (res.ok) result = ((await res.json()) as { data: { result: GameResult } }).data.result;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!result) throw new Error('the game was not recorded');
      const leaver = result.results.find((r) => r.playerId === host.user.id);
      const contested = (leaver?.cardsPlayed ?? 0) >= EARLY_LEAVE_MIN_CARDS && result.durationMs >= EARLY_LEAVE_MS;
      expect(result.reason).toBe(contested ? 'forfeit' : 'aborted');
      await b.page.getByRole('heading', { name: contested ? 'Victory' : 'Game Over' }).waitFor({ timeout: 15_000 });
      await b.screenshot(contested ? 'game-victory' : 'game-aborted');
      for (const j of [a, b, c]) j.assertNoPageErrors();
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  }, 240_000);

  it('plays by keyboard, uses every power-up but freeze, and gets through a dropped connection', async () => {
    const account = await registerAccount(server().base, 'keys');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    // Every socket goes through this route, so the test can drop the connection like a network would.
    let socket: WebSocketRoute | null = null;
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      ws.connectToServer();
      socket = ws;
    });
    try {
      await signIn(journey, account);
      const { roomCode } = await createBotGame(server().base, account, { gameSpeed: 'slow' });
      await journey.goto(`/game/${roomCode}`);
      await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });

      const stat = (label: string) =>
        page
          .locator('dt', { hasText: new RegExp(`^${label}$`) })
          .first()
          .locator('xpath=following-sibling::dd')
          .textContent();

      // Keyboard: the hand card's number, then the pile's key (J K L ;).
      let played: string | null = null;
      for (let attempt = 0; attempt < 30 && !played; attempt++) {
        const playable = await attributes(page, '[data-hand-card]', 'data-playable');
        const slot = playable.findIndex((flag) => flag !== null);
        if (slot < 0) {
          await page
            .locator('[data-hand-card][data-playable]')
            .first()
            .waitFor({ timeout: 5000 })
            .catch(() => undefined);
          continue;
        }
        const id = (await handOf(page))[slot] ?? null;
        await page.keyboard.press(String(slot + 1));
        const target = page.locator('[data-pile][data-target]').first();
        if (!(await target.count())) {
          await page.keyboard.press('Escape');
          continue;
        }
        const pile = Number(await target.getAttribute('data-pile'));
        await page.keyboard.press(PILE_KEYS[pile]?.label.toLowerCase() ?? '');
        await expect.poll(async () => (await handOf(page)).includes(id ?? '')).toBe(false);
        // A bot may have played on that pile a moment earlier: the server refuses the card and it goes
        // back to the hand, a fair race. Only a play the server counted ends the loop.
        const counted = await expect
          .poll(() => stat('Cards played'))
          .toBe('1')
          .then(
            () => true,
            () => false,
          );
        if (counted) played = id;
      }
      expect(played).not.toBeNull();

      // The Game stats panel counts as the server does: one card, no power-up yet, a speed above zero.
      const counts = async () => ({ cards: await stat('Cards played'), used: await stat('Power-ups used') });
      await expect.poll(counts).toEqual({ cards: '1', used: '0' });
      expect(await stat('Speed')).not.toBe('0.00/s');

      const powerUps = page.getByRole('region', { name: 'Power-ups' });
      const left = (n: number) => powerUps.getByText(`${n}/5`).waitFor();
      await page.keyboard.press('b');
      await left(4);
      await page.getByRole('button', { name: 'Bomb, used' }).waitFor();
      // Told on the board what it did: the card it played and the pile, marked.
      await page
        .getByRole('status')
        .getByText(/^Bomb: your .+ onto pile \d$/)
        .waitFor();
      expect(await page.locator('[data-pile][data-changed]').count()).toBe(1);
      // A Bomb plays one card (the deck's top), once.
      await expect.poll(counts).toEqual({ cards: '2', used: '1' });
      await page.keyboard.press('w');
      await left(3);
      await page
        .getByRole('status')
        .getByText(/^Whirlwind: \d+ cards shuffled into new piles$/)
        .waitFor();
      expect(await page.locator('[data-pile][data-changed]').count()).toBe(await page.locator('[data-pile]').count());
      await expect.poll(counts).toEqual({ cards: '2', used: '2' });
      // Sniper: the power-up, then a card, then any pile (matching is skipped).
      await page.keyboard.press('s');
      await page.getByText(HINTS.sniperReady).waitFor();
      const sniped = (await handOf(page))[0];
      await page.keyboard.press('1');
      await page.keyboard.press('j');
      await left(2);
      await expect.poll(async () => (await handOf(page)).includes(sniped ?? '')).toBe(false);
      await expect.poll(counts).toEqual({ cards: '3', used: '3' });
      const bot = page.getByRole('article', { name: /\(Bot\)/ });
      const botCards = async () => Number((await bot.getAttribute('aria-label'))?.match(/(\d+) cards left/)?.[1]);
      const before = await botCards();
      await page.getByRole('button', { name: 'Reversal' }).click();
      await left(1);
      await page
        .getByRole('status')
        .getByText(/^Reversal: /)
        .waitFor();
      await expect.poll(botCards).toBeGreaterThanOrEqual(before + 3 - 1);

      // The connection drops: the screen says so, socket.io reconnects, and the hand comes back as it was.
      const hand = await handOf(page);
      await (socket as WebSocketRoute | null)?.close({ code: 4000, reason: 'network drop' });
      await page
        .getByText(/Connection lost: /)
        .first()
        .waitFor();
      await page.getByText('Connected to server').first().waitFor({ timeout: 20_000 });
      // Nothing of this player's changed while away (bots never touch another hand).
      await expect.poll(() => handOf(page)).toEqual(hand);
      await journey.screenshot('game-keyboard-powerups');
      // A reload puts the player back in the same game with the same hand and the power-up left.
      await page.reload();
      await expect.poll(() => handOf(page), { timeout: 20_000 }).toEqual(hand);
      await left(1);
      await page.getByRole('button', { name: 'Freeze', exact: true }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 120_000);

  it('is playable on a 390×844 phone screen', async () => {
    const account = await registerAccount(server().base, 'phone');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(journey, account);
      const { roomCode } = await createBotGame(server().base, account, { gameSpeed: 'slow' });
      await journey.goto(`/game/${roomCode}`);
      await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
      let plays = 0;
      for (let tries = 0; plays < 3 && tries < 60; tries++) {
        if (await playOneCard(page)) plays += 1;
        else {
          await page
            .locator('[data-hand-card][data-playable]:not([disabled])')
            .first()
            .waitFor({ timeout: 5000 })
            .catch(() => undefined);
        }
      }
      expect(plays).toBe(3);
      // Everything fits the width: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: 'Game menu' }).click();
      await page.getByRole('button', { name: 'Leave game' }).waitFor();
      await journey.screenshot('game-phone');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 120_000);
});
