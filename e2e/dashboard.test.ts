/**
 * The dashboard in a real browser against the real server: stats, tabs and tiles; another player's
 * game listed and joined; the bot dialog's seat rules; Quick Start; and the connection indicator
 * failing while the server is unreachable and recovering through Retry.
 *
 * The server's clock moves only when a journey says (ManualClock), and none does: the bot games
 * Quick Start and the dialog make stay in their lobbies, as made, rather than starting by themselves
 * and playing on, bots against an empty seat, behind the journeys (none of which is about a game in
 * play).
 */
import { CONNECTION_TEXTS, DASHBOARD_TEXTS, MATCH_ME_TEXTS } from '@memeslam/protocol';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { type Journey, atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

async function call<T>(server: E2eServer, account: Account, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.base}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { success: boolean; data: T; message?: string };
  if (!answer.success) throw new Error(`${path}: ${response.status} ${answer.message}`);
  return answer.data;
}

/** A full-page shot from the top: scrolled, the fixed nav bar would be drawn mid-page. */
async function shoot(journey: Journey, name: string): Promise<void> {
  await journey.page.evaluate(() => window.scrollTo(0, 0));
  await journey.screenshot(name);
}

const connected = (page: Page) => page.getByRole('status').filter({ hasText: 'Connected' });

/**
 * Back to the dashboard the way a person goes, through the nav bar's link (in its menu on a phone):
 * the app stays loaded, as it would for them, rather than starting again from a fresh page load.
 */
async function toDashboard(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = nav.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) {
    await menu.click();
    await page.locator('#mobile-menu').getByRole('link', { name: 'Dashboard' }).click();
  } else {
    await nav.getByRole('link', { name: 'Dashboard' }).click();
  }
  await atPath(page, '/dashboard');
}

describeJourneys('dashboard', () => {
  const browser = useBrowser();
  const server = useServer({}, { clock: new ManualClock(Date.now()) });

  it('shows stats, tabs and tiles, lists another player’s game and joins it', async () => {
    const [player, host] = await Promise.all([
      registerAccount(server().base, 'db'),
      registerAccount(server().base, 'dh'),
    ]);
    const { roomCode } = await call<{ roomCode: string }>(server(), host, '/game/create', {
      settings: { maxPlayers: 4 },
    });
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, player);
      await journey.goto('/dashboard');
      await page.getByRole('heading', { name: `Welcome back, ${player.user.username}!` }).waitFor();
      await connected(page).waitFor();

      for (const label of ['Games Played', 'Games Won', 'Win Rate', 'Avg Game Time', 'Bot Games']) {
        await page.getByText(label, { exact: true }).first().waitFor();
      }
      const tabs = page.getByRole('tab');
      expect(await tabs.allInnerTexts()).toEqual(['Human Games', 'Bot Games', expect.stringMatching(/^Wagered/)]);
      for (const tile of ['Profile Settings', 'Leaderboard', 'How to Play']) {
        await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: tile }).waitFor();
      }
      await page.getByRole('button', { name: /Bot Training/ }).click();
      await page.getByText('Bot Training is coming soon!').waitFor();
      await page.getByRole('heading', { name: 'Global Bot Stats' }).waitFor();

      const entry = page.getByRole('listitem', { name: `Game ${roomCode}` });
      await entry.waitFor();
      const text = await entry.innerText();
      expect(text).toContain(host.user.username);
      expect(text).toContain('1/4');
      expect(text).toContain('Open');
      await page.getByRole('heading', { name: /Human Games \(1\)/ }).waitFor();

      // Wagered: coming soon, and creating is refused with its toast.
      await page.getByRole('tab', { name: /Wagered/ }).click();
      await page.getByRole('tabpanel').getByText(DASHBOARD_TEXTS.wageredComingSoon).waitFor();
      const createHuman = page.getByRole('button', { name: 'Create Human Game' });
      expect(await createHuman.getAttribute('aria-disabled')).toBe('true');
      await createHuman.click({ force: true });
      await page.locator('[data-sonner-toast]').getByText(DASHBOARD_TEXTS.wageredComingSoon).waitFor();
      await atPath(page, '/dashboard');

      await page.getByRole('tab', { name: 'Human Games' }).click();
      await entry.waitFor();
      await shoot(journey, 'dashboard-desktop');

      await entry.getByRole('button', { name: 'Join Game' }).click();
      await atPath(page, `/lobby/${roomCode}`);
      const mine = await call<{ games: { roomCode: string; playersCount: number }[] }>(
        server(),
        player,
        '/game/my-games',
      );
      expect(mine.games[0]).toMatchObject({ roomCode, playersCount: 2 });

      // Back on the dashboard, on a phone (through the phone's menu): the current game's banner and
      // the member's action.
      await page.setViewportSize({ width: 390, height: 844 });
      await toDashboard(page);
      const banner = page.getByRole('region', { name: 'Your Active Game' });
      await banner.getByText(roomCode).waitFor();
      const joined = page.getByRole('listitem', { name: `Game ${roomCode}` });
      await joined.getByText("You're In").waitFor();
      await joined.getByRole('button', { name: 'Enter Lobby' }).waitFor();
      const statsToggle = page.getByRole('button', { name: 'Show stats' });
      expect(await page.getByText('Games Played', { exact: true }).isVisible()).toBe(false);
      await statsToggle.click();
      await page.getByText('Games Played', { exact: true }).waitFor();
      await shoot(journey, 'dashboard-mobile');

      await banner.getByRole('button', { name: 'Enter Lobby' }).click();
      await atPath(page, `/lobby/${roomCode}`);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('offers "Match me" with its explanation in the bot dialog, Quick Start and the lobby, and opens a matched bot game', async () => {
    const player = await registerAccount(server().base, 'dm');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, player);
      await journey.goto('/dashboard');
      await connected(page).waitFor();
      const quick = page.getByRole('button', { name: 'Quick Start Match me' });
      await quick.waitFor();
      expect(await quick.innerText()).toContain(MATCH_ME_TEXTS.hint);

      await page.getByRole('button', { name: 'Create Bot Game' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Bot Game' });
      expect(await dialog.getByLabel('Difficulty').locator('option').allInnerTexts()).toEqual([
        'Easy',
        'Normal',
        'Hard',
        'Match me',
      ]);
      expect(await dialog.getByText(MATCH_ME_TEXTS.hint).count()).toBe(0);
      await dialog.getByLabel('Difficulty').selectOption('match');
      await dialog.getByText(MATCH_ME_TEXTS.hint).waitFor();
      await shoot(journey, 'dashboard-bot-dialog-match');
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(journey, 'dashboard-bot-dialog-match-phone');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await shoot(journey, 'dashboard-quick-start-match-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shoot(journey, 'dashboard-quick-start-match');

      // The lobby (Create Human Game goes there): its bot settings and its quick bot games offer it too.
      await page.getByRole('button', { name: 'Create Human Game' }).click();
      await atPath(page, '/lobby');
      await page.getByRole('heading', { name: 'Bot Settings' }).waitFor();
      await page.getByRole('switch', { name: /Play with bots/ }).click();
      await page.getByLabel('Bot difficulty').selectOption('match');
      await page.getByRole('region', { name: 'Bot Settings' }).getByText(MATCH_ME_TEXTS.hint).waitFor();
      await page.getByRole('region', { name: 'Quick Bot Game' }).getByText(MATCH_ME_TEXTS.hint).waitFor();
      await shoot(journey, 'lobby-match');
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(journey, 'lobby-match-phone');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Quick Start "Match me": a bot game with one bot, paced from the player (the default: no games yet).
      await toDashboard(page);
      await page.getByRole('button', { name: 'Quick Start Match me' }).click();
      await atPath(page, /^\/(lobby|game)\/[A-Za-z0-9-]+$/);
      const mine = await call<{
        games: { isBotGame: boolean; botInfo: { numberOfBots: number; difficulty: string } }[];
      }>(server(), player, '/game/my-games');
      expect(mine.games[0]).toMatchObject({ isBotGame: true, botInfo: { numberOfBots: 1, difficulty: 'normal' } });
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('keeps the bot dialog’s seats above the bots, and Quick Start Easy opens a bot game', async () => {
    const player = await registerAccount(server().base, 'dq');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      // A record against bots kept from earlier visits shows the performance panel.
      const record = { totalBotGames: 3, humanWins: 2, botWins: 1, counted: [] };
      await signIn(journey, player, { [`bot-stats:${player.user.id}`]: JSON.stringify(record) });
      await journey.goto('/dashboard');
      await connected(page).waitFor();
      const performance = page.getByRole('region', { name: 'Your Bot Game Performance' });
      await performance.getByText('67%').waitFor();

      await page.getByRole('button', { name: 'Create Bot Game' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Bot Game' });
      const bots = dialog.getByLabel('Number of bots');
      const seats = dialog.getByLabel('Max players (including bots)');
      expect(await bots.inputValue()).toBe('2');
      expect(await seats.inputValue()).toBe('4');
      expect(await dialog.getByRole('switch', { name: /Auto-start/ }).getAttribute('aria-checked')).toBe('true');
      expect(await dialog.getByLabel('Game speed').inputValue()).toBe('normal');
      expect(await dialog.getByLabel('Game speed').locator('option').allInnerTexts()).toEqual([
        'Slow',
        'Normal',
        'Fast',
        'Blitz',
      ]);
      const disabledSeats = () =>
        seats
          .locator('option')
          .evaluateAll((options) => (options as HTMLOptionElement[]).filter((o) => o.disabled).map((o) => o.value));
      expect(await disabledSeats()).toEqual(['2']);
      await seats.selectOption('3');
      await bots.selectOption('4');
      expect(await disabledSeats()).toEqual(['2', '3', '4']);
      expect(await seats.inputValue()).toBe('5');
      await bots.selectOption('5');
      expect(await seats.inputValue()).toBe('6');
      await bots.selectOption('1');
      expect(await disabledSeats()).toEqual([]);
      expect(await seats.inputValue()).toBe('6');
      await shoot(journey, 'dashboard-bot-dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Create Bot Game' }).click();
      await dialog.getByLabel('Number of bots').selectOption('1');
      await dialog.getByLabel('Difficulty').selectOption('hard');
      await dialog.getByLabel('Game speed').selectOption('blitz');
      await dialog.getByRole('switch', { name: /Auto-start/ }).click();
      await dialog.getByRole('button', { name: 'Create Game' }).click();
      await atPath(page, /^\/lobby\/[A-Z0-9]{6}$/);
      const created = await call<{ games: unknown[] }>(server(), player, '/game/my-games');
      expect(created.games[0]).toMatchObject({
        roomCode: new URL(page.url()).pathname.split('/')[2],
        status: 'waiting',
        // The dialog keeps its choices between openings: 6 seats from before.
        maxPlayers: 6,
        botInfo: { numberOfBots: 1, difficulty: 'hard' },
        gameSettings: { gameSpeed: 'blitz', autoStart: false },
      });

      // Quick Start from the dashboard again (the waiting lobby is left for the new game).
      await toDashboard(page);

      await page.getByRole('button', { name: 'Quick Start Easy' }).click();
      await atPath(page, /^\/(lobby|game)\/[A-Za-z0-9-]+$/);
      const mine = await call<{
        games: { isBotGame: boolean; botInfo: { numberOfBots: number; difficulty: string } }[];
      }>(server(), player, '/game/my-games');
      expect(mine.games[0]).toMatchObject({ isBotGame: true, botInfo: { numberOfBots: 1, difficulty: 'easy' } });

      // The new game in the Bot Games tab: the easy badge, Your Game, and the member's one action.
      await toDashboard(page);
      await page.getByRole('tab', { name: 'Bot Games' }).click();
      const entry = page.getByRole('listitem').filter({ hasText: 'Your Game' });
      await entry.getByText('Easy Bot').first().waitFor();
      expect(await entry.getByRole('button').allInnerTexts()).toEqual([
        expect.stringMatching(/^(Enter Lobby|Resume Game)$/),
      ]);
      await shoot(journey, 'dashboard-bot-games');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('shows a connection error while the server is unreachable, and recovers through Retry', async () => {
    const [player, host] = await Promise.all([
      registerAccount(server().base, 'dc'),
      registerAccount(server().base, 'dk'),
    ]);
    const { roomCode } = await call<{ roomCode: string }>(server(), host, '/game/create', {
      settings: { maxPlayers: 3 },
    });
    const journey = await openJourney(browser(), server().base);
    const { page, context } = journey;
    try {
      await signIn(journey, player);
      await context.route(/\/health(\?|$)/, (route) => route.abort());
      await context.route(/\/socket\.io\//, (route) => route.abort());
      // WebSocket routes cannot be removed, so this one lets sockets through once unblocked.
      let blocked = true;
      await context.routeWebSocket(/\/socket\.io\//, (ws) => {
        if (blocked) void ws.close();
        else ws.connectToServer();
      });
      await journey.goto('/dashboard');
      const failure = page.getByRole('alert').filter({ hasText: 'Connection error' });
      await failure.getByText(CONNECTION_TEXTS.serverNotResponding).waitFor();
      const createHuman = page.getByRole('button', { name: 'Create Human Game' });
      expect(await createHuman.getAttribute('aria-disabled')).toBe('true');
      await createHuman.click({ force: true });
      await page.locator('[data-sonner-toast]').getByText(DASHBOARD_TEXTS.cannotCreateGameConnection).waitFor();
      await page.getByRole('button', { name: 'Create Bot Game' }).click({ force: true });
      await page.locator('[data-sonner-toast]').getByText(DASHBOARD_TEXTS.cannotCreateBotGameConnection).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      const join = page.getByRole('listitem', { name: `Game ${roomCode}` }).getByRole('button', { name: 'Join Game' });
      expect(await join.getAttribute('aria-disabled')).toBe('true');
      await join.click({ force: true });
      await page.locator('[data-sonner-toast]').getByText(DASHBOARD_TEXTS.cannotJoinGameConnection).waitFor();
      await atPath(page, '/dashboard');
      await shoot(journey, 'dashboard-connection-error');

      blocked = false;
      await context.unrouteAll();
      await failure.getByRole('button', { name: 'Retry' }).click();
      await connected(page).waitFor();
      expect(await createHuman.getAttribute('aria-disabled')).toBeNull();

      // A failing game list: the toast and a dismissible banner with Retry; a 404 is an empty list, silently.
      const list = /\/api\/game\/active\?/;
      await page.route(list, (route) => route.fulfill({ status: 500, json: { success: false, message: 'down' } }));
      await page.getByRole('button', { name: 'Refresh' }).click();
      const banner = page.getByRole('alert').filter({ hasText: DASHBOARD_TEXTS.failedToLoadGames });
      await banner.waitFor();
      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await banner.waitFor({ state: 'detached' });
      await page.unroute(list);
      await page.route(list, (route) => route.fulfill({ status: 404, json: { success: false, message: 'gone' } }));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText(/No open games right now/).waitFor();
      expect(await banner.count()).toBe(0);
      await page.unroute(list);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('listitem', { name: `Game ${roomCode}` }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
