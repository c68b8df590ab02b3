/**
 * The game screen's layout and its toasts in a real browser: a four-player game (one person, three
 * bots) fits one screen at 1280×720, 1280×800 and 390×844 without the page scrolling, with whole
 * power-up names and bigger cards on a phone; the "No playable card" notice never moves the board;
 * toasts cover no control and a stream of bot plays is one toast; a refused play keeps its card
 * selected for a retry; leaving a game in play counts as a loss on the dashboard; and result screens,
 * a spectator's too, show their way on without scrolling.
 *
 * It runs against a server whose clock moves only when the journey says (ManualClock) and whose
 * deals are chosen: the bots act only as the journey moves the clock (in the first journeys never,
 * so the board stays as dealt; for the toasts a step at a time; for the result screens on to the end).
 */
import { matches } from '@memeslam/engine';
import { GAME_TEXTS, ackError } from '@memeslam/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { RANKING_RULE } from '../apps/web/src/game/result/summary.ts';
import { LEAVE_COUNTS_AS_LOSS } from '../apps/web/src/game/texts.ts';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { clockedGame } from './helpers/clock.ts';
import { RESULT_HEADINGS, createBotGame } from './helpers/game.ts';
import { expectAccessible } from './helpers/axe.ts';
import { enterGame, seedWhere, startWithClock, topsOf } from './helpers/held-game.ts';
import { type Box, board, measure } from './helpers/board-boxes.ts';
import { useServer } from './helpers/server.ts';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * The phone's hand cards: the card art's lg size (88 × 123 px, the largest of its sizes whose three
 * cards fit a 390 px screen) grown to fill the height the board leaves, with the toast strip at the
 * bottom down to one compact toast. They were 88 × 123 px with a 112 px strip; 114 × 160 px measured.
 */
const PHONE_HAND_CARD = { width: 104, height: 146 };

const FOUR_PLAYERS = { numberOfBots: 3, maxPlayers: 4, botDifficulty: 'easy', gameSpeed: 'slow', cardsPerPlayer: 30 };

/**
 * A seed whose deal gives the person (seat 0 of 4) a playable card, or none while a bot has one
 * (no global deadlock, so nothing on the server changes the piles while the person waits).
 */
function fourPlayerSeed(stuck: boolean): string {
  return seedWhere({ players: 4, cardsPerPlayer: 30 }, (state) => {
    const tops = topsOf(state);
    const [me, ...bots] = state.players.map((p) => p.hand.some((card) => tops.some((top) => matches(card, top))));
    return stuck ? !me && bots.some(Boolean) : Boolean(me);
  }).seed;
}

describeJourneys('layout', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  let nextSeed = fourPlayerSeed(true);
  const server = useServer({}, { clock, seeds: () => nextSeed });

  describe('with the bots held still (chosen deals)', () => {
    async function fourPlayerGame(account: Account, stuck: boolean): Promise<string> {
      nextSeed = fourPlayerSeed(stuck);
      const { roomCode } = await createBotGame(server().base, account, FOUR_PLAYERS);
      await startWithClock(server(), clock, roomCode);
      return roomCode;
    }

    it('fits piles, hand and power-ups on one screen at 1280×720, 1280×800 and 390×844; the "No playable card" notice moves nothing', async () => {
      const account = await registerAccount(server().base, 'fit');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      try {
        await signIn(journey, account);
        // Dealt a hand that matches no pile: after 5 s the notice comes, at 15 s its button.
        const roomCode = await fourPlayerGame(account, true);
        await enterGame(journey, roomCode);
        expect(await page.getByText(/No playable card for/).count()).toBe(0);
        const before = await board(page);
        await page.getByText(/No playable card for/).waitFor({ timeout: 15_000 });
        expect(await board(page)).toEqual(before);
        await page.getByRole('button', { name: 'Force Resolution Now' }).waitFor({ timeout: 20_000 });
        expect(await board(page)).toEqual(before);

        for (const size of SIZES) {
          await page.setViewportSize(size);
          const name = `layout-game-${size.width}x${size.height}`;
          // The board picks its card sizes after measuring the new screen (useBoardFit), a step or two
          // of resize observations: the sizes it settles on are checked, not one it passes through.
          const smallCards = (hand: Box[]) =>
            size.width === 390
              ? hand.filter((card) => card.width < PHONE_HAND_CARD.width || card.height < PHONE_HAND_CARD.height)
              : [];
          await expect
            .poll(async () => {
              const now = await measure(page);
              const { counts, outside, cutNames, pageScrolls, boardScrolls } = now;
              return { ...counts, outside, cutNames, scrolls: pageScrolls, boardScrolls, small: smallCards(now.hand) };
            })
            .toEqual({
              piles: 3,
              hand: 3,
              powerUps: 5,
              outside: [],
              cutNames: [],
              scrolls: false,
              boardScrolls: false,
              small: [],
            });
          const now = await measure(page);
          expect(now.sideways).toBe(false);
          // The page does not scroll, so the game's header never slides under the nav bar.
          await page.mouse.move(size.width / 2, size.height / 2);
          await page.mouse.wheel(0, 800);
          await page.evaluate(() => window.scrollBy(0, 800));
          expect(await page.evaluate(() => window.scrollY)).toBe(0);
          const after = await measure(page);
          expect(after.headerTop).toBe(now.headerTop);
          expect(after.headerTop).toBeGreaterThanOrEqual(after.navBottom);
          if (size.width === 390) {
            for (const card of now.hand) {
              expect(card.width).toBeGreaterThanOrEqual(PHONE_HAND_CARD.width);
              expect(card.height).toBeGreaterThanOrEqual(PHONE_HAND_CARD.height);
            }
          }
          await journey.screenshot(name);
          await expectAccessible(page, `game, no playable card (deadlock notice) @ ${size.width}×${size.height}`);
        }
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 120_000);

    it('keeps a refused card selected: a second click on the pile plays it', async () => {
      const account = await registerAccount(server().base, 'retry');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      // The first play the page sends is answered as the server answers a lost race.
      let refused: string | null = null;
      await page.routeWebSocket(/\/socket\.io\//, (ws) => {
        const upstream = ws.connectToServer();
        ws.onMessage((message) => {
          const play = typeof message === 'string' ? /^42(\d+)\["playCard",(.*)\]$/.exec(message) : null;
          if (play && refused === null) {
            const { cardId } = JSON.parse(play[2] as string) as { cardId: string };
            refused = cardId;
            const error = `Cannot play ${cardId} here`;
            ws.send(`43${play[1]}[${JSON.stringify(ackError('NO_MATCH', error))}]`);
            return;
          }
          upstream.send(message);
        });
      });
      try {
        await signIn(journey, account);
        const roomCode = await fourPlayerGame(account, false);
        await enterGame(journey, roomCode);

        const card = page.locator('[data-hand-card][data-playable]').first();
        const cardId = await card.getAttribute('data-hand-card');
        await card.click();
        const pile = page.locator('[data-pile][data-target]').first();
        const pileIndex = await pile.getAttribute('data-pile');
        await pile.click();
        await page.getByText(`Cannot play ${cardId} here`).waitFor();
        expect(refused).toBe(cardId);
        // Back in the hand and still selected.
        const again = page.locator(`[data-hand-card="${cardId}"]`);
        await expect.poll(() => again.getAttribute('aria-pressed')).toBe('true');

        await page.locator(`[data-pile="${pileIndex}"]`).click();
        await expect.poll(() => again.count()).toBe(0);
        await expect
          .poll(async () => (await page.locator(`[data-pile="${pileIndex}"]`).getAttribute('data-top')) === cardId)
          .toBe(true);
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 60_000);

    it('says leaving counts as a loss, and the dashboard counts it as one', async () => {
      const account = await registerAccount(server().base, 'leaver');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      try {
        await signIn(journey, account);
        const roomCode = await fourPlayerGame(account, false);
        await enterGame(journey, roomCode);
        await page.getByRole('button', { name: 'Leave game' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText(LEAVE_COUNTS_AS_LOSS).waitFor();
        await journey.screenshot('layout-leave-dialog');
        await dialog.getByRole('button', { name: 'Leave game' }).click();
        await atPath(page, '/dashboard');
        const stat = (label: string) =>
          page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd').textContent();
        await expect.poll(() => stat('Games Played')).toBe('1');
        expect(await stat('Games Won')).toBe('0');
        expect(await stat('Win Rate')).toBe('0%');
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 60_000);
  });

  describe('with the bots playing as the journey moves the clock', () => {
    it('shows toasts clear of the header and every control, one bot-play toast for a stream of bot plays', async () => {
      const account = await registerAccount(server().base, 'toasts');
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      try {
        await page.setViewportSize({ width: 390, height: 844 });
        await signIn(journey, account);
        const { roomCode } = await createBotGame(server().base, account, {
          ...FOUR_PLAYERS,
          botDifficulty: 'expert',
          gameSpeed: 'fast',
          cardsPerPlayer: 40,
        });
        await startWithClock(server(), clock, roomCode);
        const game = clockedGame(server(), clock, roomCode, account.user.id);
        await enterGame(journey, roomCode);
        // Watches every toast the page shows: how many bot-play toasts at once, and whether any
        // visible toast overlaps the game's header, a pile, a hand card or a power-up.
        await page.evaluate(() => {
          const w = window as unknown as { toastWatch: { most: number; botTexts: string[]; overlaps: string[] } };
          w.toastWatch = { most: 0, botTexts: [], overlaps: [] };
          const hit = (a: DOMRect, b: DOMRect) =>
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const check = () => {
            const shown = [...document.querySelectorAll('[data-sonner-toast]')].filter(
              (t) => t.getAttribute('data-removed') !== 'true' && t.getAttribute('data-visible') !== 'false',
            );
            const bot = shown.filter((t) => / \(Bot\) played /.test(t.textContent ?? ''));
            w.toastWatch.most = Math.max(w.toastWatch.most, bot.length);
            for (const t of bot) {
              const text = t.textContent ?? '';
              if (!w.toastWatch.botTexts.includes(text)) w.toastWatch.botTexts.push(text);
            }
            // Every control of the game screen: its header, piles, hand, power-ups and quick actions.
            const controls = document.querySelectorAll('[data-game-screen] button');
            for (const t of shown) {
              if (t.getAttribute('data-mounted') !== 'true') continue;
              for (const c of controls) {
                if (hit(t.getBoundingClientRect(), c.getBoundingClientRect())) {
                  w.toastWatch.overlaps.push(`${t.textContent} over ${c.getAttribute('aria-label')}`);
                }
              }
            }
          };
          new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
          setInterval(check, 50);
        });
        const watch = () =>
          page.evaluate(
            () =>
              (window as unknown as { toastWatch: { most: number; botTexts: string[]; overlaps: string[] } })
                .toastWatch,
          );
        // The bot plays the page has shown, once the clock has moved a step on (the bots play as it moves,
        // a stream of plays tens of milliseconds apart).
        const botPlays = async () => {
          await game.next();
          return (await watch()).botTexts.length;
        };
        // Six different bot plays shown.
        await expect.poll(botPlays, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
        await journey.screenshot('layout-toasts-phone');
        const seen = await watch();
        expect(seen.most).toBe(1);
        expect(seen.overlaps).toEqual([]);

        // On a desktop screen, toasts stay top-right over the right column, clear of every control.
        // The placement follows a media query through React, so for a frame after the resize the phone's
        // toast sits at the bottom of the desktop layout (a CI run caught it over the power-ups). What
        // counts is where toasts go once the page has its desktop layout: from the first bot play after it.
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.locator('[data-sonner-toaster][data-y-position="top"]').waitFor({ state: 'attached' });
        const plays = seen.botTexts.length;
        await expect.poll(botPlays, { timeout: 30_000 }).toBeGreaterThan(plays);
        await page.evaluate(() => {
          (window as unknown as { toastWatch: { overlaps: string[] } }).toastWatch.overlaps = [];
        });
        await expect.poll(botPlays, { timeout: 30_000 }).toBeGreaterThan(plays + 4);
        await journey.screenshot('layout-toasts-desktop');
        const wide = await watch();
        expect(wide.most).toBe(1);
        expect(wide.overlaps).toEqual([]);
        journey.assertNoPageErrors();
      } finally {
        await journey.close();
      }
    }, 120_000);

    it("shows the result screens' way on without scrolling; a spectator gets the ranking and no Play Again", async () => {
      const base = server().base;
      const [account, watcher] = await Promise.all([registerAccount(base, 'result'), registerAccount(base, 'viewer')]);
      const player = await openJourney(browser(), base);
      const spectator = await openJourney(browser(), base);
      try {
        await player.page.setViewportSize({ width: 1280, height: 720 });
        await spectator.page.setViewportSize({ width: 390, height: 844 });
        await Promise.all([signIn(player, account), signIn(spectator, watcher)]);
        // One expert bot at blitz speed, 20 cards each.
        const { roomCode, gameId } = await createBotGame(base, account, {
          botDifficulty: 'expert',
          gameSpeed: 'blitz',
          cardsPerPlayer: 20,
        });
        await startWithClock(server(), clock, roomCode);
        const game = clockedGame(server(), clock, roomCode, account.user.id);
        await enterGame(player, roomCode);
        await spectator.goto(`/game/${roomCode}`);
        await spectator.page.getByText('Spectating').waitFor({ timeout: 20_000 });
        // The bot plays the game out as the clock moves (or the time cap ends it): the screens are the point.
        await game.untilOver();
        await player.page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor({ timeout: 20_000 });
        await spectator.page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor({ timeout: 20_000 });

        const inView = (page: Page, names: readonly string[]) =>
          page.evaluate((wanted) => {
            const found = [...document.querySelectorAll('main[aria-label="Game result"] :is(a, button)')].filter((el) =>
              wanted.includes(el.textContent?.trim() ?? ''),
            );
            return found
              .filter((el) => {
                const r = el.getBoundingClientRect();
                return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
              })
              .map((el) => el.textContent?.trim());
          }, names);
        const steps = [GAME_TEXTS.challengeAiAgain, 'Dashboard', 'View replay'];
        for (const size of [
          { width: 1280, height: 720 },
          { width: 390, height: 844 },
        ]) {
          for (const [j, who] of [
            [player, 'player'],
            [spectator, 'spectator'],
          ] as const) {
            await j.page.setViewportSize(size);
            await j.page.evaluate(() => window.scrollTo(0, 0));
            const expected = who === 'player' ? steps : steps.slice(1);
            await expect.poll(() => inView(j.page, steps)).toEqual(expected);
            await j.screenshot(`layout-result-${who}-${size.width}x${size.height}`);
          }
        }

        // The spectator: the final ranking of both players, nothing of their own, no way to play again.
        const result = spectator.page.getByRole('main', { name: 'Game result' });
        expect(await result.getByRole('list', { name: 'Final ranking' }).getByRole('listitem').count()).toBe(2);
        expect(await result.getByRole('button', { name: /Play Again|Challenge AI Again/ }).count()).toBe(0);
        expect(await result.getByRole('region', { name: 'Your Performance' }).count()).toBe(0);
        expect(await result.getByText('Place', { exact: true }).count()).toBe(0);
        expect(await result.getByText(RANKING_RULE).count()).toBe(1);

        // A reload shows the same result (read from the database once the room takes no joins), for the
        // player and the spectator alike: title, end line, the way on, summary, performance and ranking.
        const parts = (page: Page) =>
          page
            .getByRole('main', { name: 'Game result' })
            .evaluate((main) =>
              [
                'h1',
                'header p',
                'nav[aria-label="Next steps"]',
                'section[aria-label="Game Summary"]',
                'section[aria-label="Your Performance"]',
                'section[aria-label="Final Ranking"]',
              ].map((selector) => main.querySelector(selector)?.textContent ?? null),
            );
        for (const j of [player, spectator]) {
          const before = await parts(j.page);
          await j.page.reload();
          await j.page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor({ timeout: 20_000 });
          expect(await parts(j.page)).toEqual(before);
        }

        // The result's time and the replay's agree (both round the exact duration down).
        const time = await player.page
          .locator('dt', { hasText: 'Time' })
          .first()
          .locator('xpath=following-sibling::dd')
          .textContent();
        await player.page.getByRole('link', { name: 'View replay' }).click();
        await atPath(player.page, `/game/${gameId}/replay`);
        await player.page.getByRole('heading', { name: `Final Ranking · ${time}` }).waitFor({ timeout: 20_000 });
        for (const j of [player, spectator]) j.assertNoPageErrors();
      } finally {
        await Promise.all([player.close(), spectator.close()]);
      }
    }, 180_000);
  });
});
