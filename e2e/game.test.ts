/**
 * Playing in a real browser against the real server: a bot game from the dashboard's Quick Start
 * played card by card to its result; two people in one room racing for the same pile and
 * freezing each other, watched by a spectator; and a game on a phone-sized screen.
 *
 * What the spec times (Quick Start's way to the board, a freeze's 8 s) runs on the server's real
 * clock; the rest on a clock the journey moves (clock.ts): the bots play when the person has nothing
 * to play, so a game lasts as long as its clicks take.
 */
import { randomBytes } from 'node:crypto';
import { type Card, EARLY_LEAVE_MIN_CARDS, type GameState, matches } from '@memeslam/engine';
import {
  BOT_AUTO_START_DELAY_MS,
  COUNTDOWN_COMPLETE_AFTER_ZERO_MS,
  COUNTDOWN_DURATION_MS,
  type GameResult,
  HINTS,
} from '@memeslam/protocol';
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { PILE_KEYS } from '../apps/web/src/game/keys.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { atPath, describeJourneys, openJourney, stylesheetMotion, useBrowser } from './helpers/browser.ts';
import { catchUp, clockedGame } from './helpers/clock.ts';
import { RESULT_HEADINGS, createBotGame, playOneCard, playUntilEnd } from './helpers/game.ts';
import { seedWhere, startWithClock, topsOf as dealtTops } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
  return page.locator(selector).evaluateAll((els, attr) => els.map((el) => el.getAttribute(attr)), name);
}
const handOf = async (page: Page) =>
  (await attributes(page, '[data-hand-card]', 'data-hand-card')).filter((id) => id !== null);
const topsOf = (page: Page) => attributes(page, '[data-pile]', 'data-top');
const pileCardsOf = async (page: Page) =>
  (await attributes(page, '[data-pile]', 'data-cards')).map((ids) => (ids ?? '').split(' ').filter(Boolean));

/** Both screens agree on every pile and neither waits on a play. */
async function settled(a: Page, b: Page): Promise<void> {
  await expect.poll(async () => JSON.stringify(await topsOf(a)) === JSON.stringify(await topsOf(b))).toBe(true);
}

/**
 * The two-player race's deal (host in seat 0, guest in seat 1, 20 cards each): a pile whose top both
 * hands match, with cards that do not match each other, so the race is on the first move and exactly
 * one of the two cards can land. A random deal may have no such pile, or be stuck until the server
 * flips new tops, and a search for a race by playing could run out of tries.
 */
const race = (() => {
  const pick = (state: GameState) =>
    dealtTops(state)
      .map((top, pile) => {
        const [host, guest] = state.players.map((p) => p.hand.filter((x) => matches(x, top)));
        const pair = host?.flatMap((mine) => (guest ?? []).map((theirs) => ({ mine, theirs })));
        return { pile, ...pair?.find(({ mine, theirs }) => !matches(mine, theirs)) };
      })
      .find((choice) => choice.mine && choice.theirs);
  const { seed, state } = seedWhere({ players: 2, cardsPerPlayer: 20 }, (dealt) => pick(dealt) !== undefined);
  const { pile, mine, theirs } = pick(state) as { pile: number; mine: Card; theirs: Card };
  return { seed, state, pile, mine, theirs };
})();

/**
 * A bot game's deal (the person in seat 0 of 2, 30 cards each: the bot games' defaults) where the
 * person can play at once: on the hand-moved clock nothing changes the board until the journey says.
 */
const playableDeal = seedWhere({ players: 2, cardsPerPlayer: 30 }, (state) =>
  (state.players[0]?.hand ?? []).some((card) => dealtTops(state).some((top) => matches(card, top))),
).seed;

/** A lobby's or a game's address, and its room code. */
const ROOM_PATH = /^\/(?:lobby|game)\/([A-Z0-9]{6})$/;

describeJourneys('game', () => {
  const browser = useBrowser();

  describe('on the real clock', () => {
    // Every game gets a random deal but the one a journey chose for its next deal.
    let chosenSeed: string | null = null;
    const server = useServer(
      {},
      {
        seeds: () => {
          const seed = chosenSeed ?? randomBytes(16).toString('hex');
          chosenSeed = null;
          return seed;
        },
      },
    );

    it("Quick Start Easy: the countdown, and the board within the spec's timers + 1 s", async () => {
      const account = await registerAccount(server().base, 'qs');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      try {
        await signIn(journey, account);
        await journey.goto('/dashboard');
        // The clock starts at a click on the loaded dashboard (its page and its numbers in), as a person's
        // would: loading the dashboard is not the Quick Start's time.
        const quickStart = page.getByRole('button', { name: 'Quick Start Easy' });
        await expect.poll(() => quickStart.isEnabled(), { timeout: 20_000 }).toBe(true);
        await page
          .locator('dt', { hasText: 'Games Played' })
          .locator('xpath=following-sibling::dd')
          .getByText('0')
          .first()
          .waitFor();
        const clicked = Date.now();
        await quickStart.click();
        await page.getByText('GO!').waitFor({ timeout: 30_000 });
        await journey.screenshot('game-countdown');
        await atPath(page, /^\/game\//);
        await page.locator('[data-hand-card]:not([disabled])').first().waitFor({ timeout: 20_000 });
        // Nothing waits but the spec's own timers and, within 1 s more, the create call, the pages and the
        // join. The constants add up to 7 s (the bot game's auto-start, the countdown, its completion after
        // zero); the completion falls inside the countdown (GO! at 4 s, the board at 5 s), so what runs
        // on the clock is 6 s and the create call, the pages and the join have 2 s in all.
        const specWaits = BOT_AUTO_START_DELAY_MS + COUNTDOWN_DURATION_MS + COUNTDOWN_COMPLETE_AFTER_ZERO_MS;
        expect(Date.now() - clicked).toBeLessThan(specWaits + 1000);
        await page.getByText(HINTS.selectCardThenPile).waitFor();
        await journey.screenshot('game-playing-desktop');
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 120_000);

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
        chosenSeed = race.seed;

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

        // Dealt as chosen: the screens show the deal the test picked.
        const [handA, handB] = race.state.players.map((p) => p.hand.map((x) => x.id));
        await expect.poll(() => topsOf(a.page)).toEqual(dealtTops(race.state).map((x) => x.id));
        await expect.poll(() => handOf(a.page)).toEqual(handA);
        await expect.poll(() => handOf(b.page)).toEqual(handB);
        await Promise.all([
          a.page.locator('[data-hand-card]:not([disabled])').first().waitFor(),
          b.page.locator('[data-hand-card]:not([disabled])').first().waitFor(),
        ]);

        // The race: both select their card that matches the same pile and click it at the same moment.
        const { pile, mine, theirs } = race;
        await a.page.locator(`[data-hand-card="${mine.id}"]`).click();
        await b.page.locator(`[data-hand-card="${theirs.id}"]`).click();
        await Promise.all([
          a.page.locator(`[data-pile="${pile}"]`).click(),
          b.page.locator(`[data-pile="${pile}"]`).click(),
        ]);
        await settled(a.page, b.page);
        // Each of the two cards is in exactly one place, the same in both views: its owner's hand or the
        // pile. The two do not match each other, so exactly one of them lands: the first the server takes.
        await expect
          .poll(async () => {
            const [pilesA, pilesB] = [await pileCardsOf(a.page), await pileCardsOf(b.page)];
            const inHandA = (await handOf(a.page)).includes(mine.id);
            const inHandB = (await handOf(b.page)).includes(theirs.id);
            const onPile = (id: string) => [pilesA[pile]?.includes(id), pilesB[pile]?.includes(id)];
            return JSON.stringify([inHandA, ...onPile(mine.id), inHandB, ...onPile(theirs.id)]);
          })
          .toMatch(/^\[(true,false,false,false,true,true|false,true,true,true,false,false)\]$/);
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

        // The host leaves. Had they contested the game (60 s of play and 5 cards) the guest would win by
        // forfeit; the host has played one card at most, so it is a walk-away: aborted, nobody wins
        // (docs/fair-play.md).
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
        expect(leaver?.cardsPlayed).toBeLessThan(EARLY_LEAVE_MIN_CARDS);
        expect(result.reason).toBe('aborted');
        await b.page.getByRole('heading', { name: 'Game Over' }).waitFor({ timeout: 15_000 });
        await b.screenshot('game-aborted');
        for (const j of [a, b, c]) j.assertNoPageErrors();
      } finally {
        await Promise.all([a.close(), b.close(), c.close()]);
      }
    }, 240_000);
  });

  describe('on a hand-moved server clock', () => {
    const clock = new ManualClock(Date.now());
    // Every game gets a deal where the person can play at once.
    const server = useServer({}, { clock, seeds: () => playableDeal });

    it('Quick Start Easy played card by card to its result, the dashboard counts the game; a second, and Challenge AI Again makes a third with the same bots', async () => {
      const account = await registerAccount(server().base, 'qsplay');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      /** The game the page is on its way into, started on the clock once the page shows its room. */
      const entered = async () => {
        const roomCode = ROOM_PATH.exec(await atPath(page, ROOM_PATH))?.[1] as string;
        await startWithClock(server(), clock, roomCode);
        await atPath(page, `/game/${roomCode}`);
        await page.locator('[data-hand-card]:not([disabled])').first().waitFor({ timeout: 20_000 });
        return clockedGame(server(), clock, roomCode, account.user.id);
      };
      try {
        await signIn(journey, account);
        await journey.goto('/dashboard');
        const quickStart = page.getByRole('button', { name: 'Quick Start Easy' });
        await expect.poll(() => quickStart.isEnabled(), { timeout: 20_000 }).toBe(true);
        const gamesPlayed = page.locator('dt', { hasText: 'Games Played' }).locator('xpath=following-sibling::dd');
        await gamesPlayed.getByText('0').first().waitFor();
        // The page counts down to the server's start against its own clock: the two agree from here.
        catchUp(clock);
        await quickStart.click();
        const first = await entered();
        const plays = await playUntilEnd(page, 240_000, { idle: first.untilPlayable });
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
        await expect.poll(() => gamesPlayed.textContent(), { timeout: 10_000 }).toBe('1');

        // A second game, which the bot plays out while the person looks on, and Challenge AI Again from its
        // result makes a third with the same bots.
        catchUp(clock);
        await page.getByRole('button', { name: 'Quick Start Easy' }).click();
        await (await entered()).untilOver();
        await page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor();
        const firstRoom = new URL(page.url()).pathname;
        catchUp(clock);
        await page.getByRole('button', { name: 'Challenge AI Again' }).click();
        await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).not.toBe(firstRoom);
        await entered();
        await page
          .getByRole('article', { name: /\(Bot\)/ })
          .getByText('Easy Bot')
          .waitFor();
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 180_000);

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
        catchUp(clock);
        const { roomCode } = await createBotGame(server().base, account, { gameSpeed: 'slow' });
        await startWithClock(server(), clock, roomCode);
        const game = clockedGame(server(), clock, roomCode, account.user.id);
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
            await game.untilPlayable();
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
          // Had the bot played on that pile a moment earlier, the server would refuse the card and it would
          // go back to the hand, a fair race. Only a play the server counted ends the loop.
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
        catchUp(clock);
        const { roomCode } = await createBotGame(server().base, account, { gameSpeed: 'slow' });
        await startWithClock(server(), clock, roomCode);
        const game = clockedGame(server(), clock, roomCode, account.user.id);
        await journey.goto(`/game/${roomCode}`);
        await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
        let plays = 0;
        for (let tries = 0; plays < 3 && tries < 60; tries++) {
          if (await playOneCard(page)) plays += 1;
          else {
            await game.untilPlayable();
            await page
              .locator('[data-hand-card][data-playable]:not([disabled])')
              .first()
              .waitFor({ timeout: 5000 })
              .catch(() => undefined);
          }
        }
        expect(plays).toBe(3);
        // The journey asks for reduced motion (openJourney), and the stylesheet stills what would move.
        const still = await stylesheetMotion(page);
        expect(still).toEqual({ loops: '1', slideSeconds: expect.any(Number) });
        expect(still.slideSeconds).toBeLessThan(0.001);
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
});
