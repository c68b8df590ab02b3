/**
 * Entering a tournament in a real browser: a live tournament made by an admin over the
 * API; a player links a Solana wallet (the tournament requires one) from the Tournament tab's link,
 * joins there, sees why a bot game they left did not count, plays a bot game of more than 30 s and
 * finds themself on the board; the tournament ends and the prize is in the profile's wallet. Then
 * the dashboard's card: its fair-play rules before play (docs/fair-play.md), joining, a bot game in a
 * tournament without bots, a game the rival walks away from in seconds (aborted), an unverified
 * account asked to verify its e-mail, the last place taken under a late player's eyes (the server's
 * text, then Full), a signed-out visitor and a demo guest.
 *
 * The server's clock moves only when a journey says (ManualClock): a game starts at once, and the
 * 30 s game lasts its 30 s on that clock (the bot plays as it moves) rather than on the real one.
 */
import { type KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import {
  TOURNAMENT_TEXTS,
  fairPlayRulesText,
  notRankedYetText,
  tournamentRulesText,
  tournamentSchema,
} from '@memeslam/protocol';
import bs58 from 'bs58';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { tournaments, users } from '../apps/server/src/db/schema.ts';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { type Journey, atPath, describeJourneys, openJourney, takeScreenshots, useBrowser } from './helpers/browser.ts';
import { catchUp, clockedGame } from './helpers/clock.ts';
import { createBotGame, playUntilEnd } from './helpers/game.ts';
import { startWithClock } from './helpers/held-game.ts';
import { type E2eServer, startServer } from './helpers/server.ts';

/** A Solana wallet for the page: window.solana, whose signatures are made here with a real key. */
async function installWallet(journey: Journey): Promise<string> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const address = bs58.encode(raw);
  const key: KeyObject = privateKey;
  await journey.context.exposeBinding('e2eWalletSign', (_source, message: string) =>
    Array.from(sign(null, Buffer.from(message, 'utf8'), key)),
  );
  await journey.context.addInitScript((walletAddress: string) => {
    const signer = (window as unknown as { e2eWalletSign(message: string): Promise<number[]> }).e2eWalletSign;
    (window as unknown as { solana: unknown }).solana = {
      connect: async () => ({ publicKey: { toString: () => walletAddress } }),
      signMessage: async (message: Uint8Array) => ({
        signature: Uint8Array.from(await signer(new TextDecoder().decode(message))),
      }),
    };
  }, address);
  return address;
}

/** A full-page screenshot at the phone size too, then back to the desktop size. */
async function screenshots(journey: Journey, name: string): Promise<void> {
  if (!takeScreenshots) return;
  await journey.screenshot(`${name}-desktop`);
  await journey.page.setViewportSize({ width: 390, height: 844 });
  await journey.screenshot(`${name}-phone`);
  await journey.page.setViewportSize({ width: 1280, height: 800 });
}

const entry = (page: Page) => page.getByRole('group', { name: 'Your entry' });

/** A lobby's or a game's address, and its room code. */
const ROOM_PATH = /^\/(?:lobby|game)\/([A-Z0-9]{6})$/;

describeJourneys('tournament', () => {
  const browser = useBrowser();
  // A server per journey: each has its own current tournament, and its own clock.
  let running: E2eServer | undefined;
  let clock = new ManualClock(Date.now());
  beforeEach(async () => {
    clock = new ManualClock(Date.now());
    running = await startServer({}, { clock });
    // Tournaments are live by the server's clock, between dates set from this machine's.
    catchUp(clock);
  });
  afterEach(async () => {
    await running?.close();
  });
  const server = (): E2eServer => {
    if (!running) throw new Error('no server');
    return running;
  };

  async function admin(): Promise<Account> {
    const account = await registerAccount(server().base, 'admin');
    await server().app.db.update(users).set({ role: 'superadmin' }).where(eq(users.id, account.user.id));
    return account;
  }

  /**
   * An established account: e-mail verified and registered two days ago, as people-only tournaments
   * need (docs/fair-play.md); its user is read again so the page's session knows it is verified.
   */
  async function established(prefix: string): Promise<Account> {
    const account = await registerAccount(server().base, prefix);
    await server()
      .app.db.update(users)
      .set({ emailVerifiedAt: new Date(), createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(users.id, account.user.id));
    const me = await fetch(`${server().base}/api/auth/me`, {
      headers: { authorization: `Bearer ${account.token}` },
    }).then((r) => r.json() as Promise<{ data: { user: Account['user'] } }>);
    return { ...account, user: me.data.user };
  }

  async function createTournament(by: Account, settings: Record<string, unknown>) {
    const now = clock.now();
    const response = await fetch(`${server().base}/api/tournaments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${by.token}` },
      body: JSON.stringify({
        description: 'Quick games, one winner',
        startDate: new Date(now - 1000).toISOString(),
        endDate: new Date(now + 3_600_000).toISOString(),
        totalAmount: 500,
        winnersCount: 1,
        minGamesRequired: 1,
        isFeatured: true,
        ...settings,
      }),
    });
    expect(response.status).toBe(201);
    return tournamentSchema.parse(((await response.json()) as { data: { tournament: unknown } }).data.tournament);
  }

  async function joinOverApi(account: Account, id: string): Promise<void> {
    const response = await fetch(`${server().base}/api/tournaments/${id}/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(response.status).toBe(200);
  }

  /** A bot game made over HTTP and started on the clock; the page enters it and waits for the hand. */
  async function enterBotGame(journey: Journey, account: Account): Promise<string> {
    const { roomCode } = await createBotGame(server().base, account, { cardsPerPlayer: 20 });
    await startWithClock(server(), clock, roomCode);
    await journey.goto(`/game/${roomCode}`);
    await journey.page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
    return roomCode;
  }

  /** Leaves the game on screen through its Leave game button and dialog. */
  async function leaveGame(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Leave game' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave game' }).click();
    await atPath(page, /^\/(?!game\/)/);
  }

  it('links a wallet, joins from the Tournament tab, a left game says why, a 30 s game counts, and the prize lands in the wallet', async () => {
    const boss = await admin();
    const t = await createTournament(boss, { name: 'Sprint Slam', allowBots: true, requireVerifiedSolana: true });
    const player = await registerAccount(server().base, 'sprinter');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, player);
      const address = await installWallet(journey);
      await journey.goto('/leaderboard?tab=tournament');
      await page.getByRole('heading', { name: 'Sprint Slam' }).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      await page.getByText(TOURNAMENT_TEXTS.noParticipants).waitFor();
      await entry(page).getByText(TOURNAMENT_TEXTS.verifiedWalletRequired).waitFor();
      expect(await entry(page).getByRole('button', { name: TOURNAMENT_TEXTS.join }).count()).toBe(0);
      await screenshots(journey, 'tournament-wallet-required');

      // The link leads to the profile's wallet, where the wallet is linked by signing the nonce.
      await entry(page).getByRole('link', { name: TOURNAMENT_TEXTS.linkWallet }).click();
      await atPath(page, '/profile');
      await page.getByRole('button', { name: 'Link Solana wallet' }).click();
      await page.getByText('Solana wallet verified').waitFor();
      await page.getByText(address).waitFor();

      // Back on the tab: Join, busy while it goes, then Joined and not ranked yet.
      await journey.goto('/leaderboard?tab=tournament');
      await entry(page).getByRole('button', { name: TOURNAMENT_TEXTS.join }).click();
      await entry(page).getByText(TOURNAMENT_TEXTS.joined, { exact: true }).waitFor();
      await page.locator('[data-sonner-toast]').getByText(TOURNAMENT_TEXTS.joinedToast).waitFor();
      await entry(page).getByText(notRankedYetText(0, 1)).waitFor();
      const standings = page.getByRole('list', { name: 'Tournament standings' });
      await standings.getByText(player.username).waitFor();
      const participants = page.locator('dt:text-is("Participants") + dd');
      await expect.poll(() => participants.innerText()).toBe('1');
      await screenshots(journey, 'tournament-joined');

      // A bot game left at once is aborted: it does not count, and the tab says why.
      await enterBotGame(journey, player);
      await leaveGame(page);
      await journey.goto('/leaderboard?tab=tournament');
      await entry(page).getByText(TOURNAMENT_TEXTS.uncounted.aborted).waitFor();
      await entry(page).getByText(TOURNAMENT_TEXTS.lastGameNotCounted).waitFor();
      expect(await entry(page).getByTestId('games-counted').innerText()).toMatch(/^0\b/);
      await screenshots(journey, 'tournament-not-counted');

      // A bot game of more than 30 s, played card by card: it counts. The bot plays when the person has
      // nothing to play, and the last card waits until the game has run 31 s on the server's clock.
      const game = clockedGame(server(), clock, await enterBotGame(journey, player), player.user.id);
      await playUntilEnd(page, 240_000, {
        idle: game.untilPlayable,
        beforePlay: async () => {
          if (game.cardsLeft() <= 1) await game.untilPlayedFor(31_000);
        },
      });
      await journey.goto('/leaderboard?tab=tournament');
      await entry(page).getByText('#1', { exact: true }).waitFor();
      expect(await entry(page).getByTestId('games-counted').innerText()).toMatch(/^1\b/);
      expect(await entry(page).getByText(TOURNAMENT_TEXTS.lastGameNotCounted).count()).toBe(0);
      const mine = standings.getByRole('listitem').filter({ hasText: player.username });
      expect(await mine.innerText()).toContain('+1 games');
      expect(await mine.getAttribute('aria-current')).toBe('true');
      await mine.getByText(TOURNAMENT_TEXTS.prizeWinner).waitFor();
      await screenshots(journey, 'tournament-ranked');

      // The tournament ends a second on by the server's clock (its end date moved, the payout timer
      // re-armed). The tab, loaded while it is live, sees it end as the clock moves past that second.
      await server()
        .app.db.update(tournaments)
        .set({ endDate: new Date(clock.now() + 1000) })
        .where(eq(tournaments.id, t.id));
      await server().app.tournaments.arm();
      await journey.goto('/leaderboard?tab=tournament');
      await page.getByRole('heading', { name: 'Sprint Slam' }).waitFor();
      clock.advance(1000);
      await entry(page).getByText(TOURNAMENT_TEXTS.hasEnded).waitFor({ timeout: 10_000 });
      await entry(page).getByText('#1', { exact: true }).waitFor();
      await screenshots(journey, 'tournament-ended');

      // The prize is in the wallet on the profile: balance and total won.
      await expect
        .poll(async () => {
          const me = await fetch(`${server().base}/api/auth/me`, {
            headers: { authorization: `Bearer ${player.token}` },
          }).then((r) => r.json() as Promise<{ data: { user: { wallet: { balance: number } } } }>);
          return me.data.user.wallet.balance;
        })
        .toBe(500);
      await journey.goto('/profile');
      await expect.poll(() => page.getByTestId('wallet-balance').innerText()).toBe('500 SLAM');
      await page.getByText('Total won').locator('xpath=following-sibling::dd').getByText('500 SLAM').waitFor();
      await journey.screenshot('tournament-prize-wallet');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 300_000);

  it('the dashboard card: fair-play rules, join, a bot game in a tournament without bots and a game walked away from in seconds say why, e-mail to verify, full, guest and signed out', async () => {
    const boss = await admin();
    const tournament = await createTournament(boss, { name: 'Humans Only', allowBots: false, maxParticipants: 3 });
    const player = await established('human');
    const rival = await established('rival');
    await joinOverApi(rival, tournament.id);
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const other = await openJourney(browser(), server().base);
    try {
      await signIn(journey, player);
      await journey.goto('/dashboard');
      const card = page.getByRole('region', { name: 'Tournament Humans Only' });
      await card.getByRole('button', { name: TOURNAMENT_TEXTS.join }).waitFor();
      // Which games count is said before any is played, not only after one did not.
      await card.getByText(tournamentRulesText(tournament.settings)).waitFor();
      expect(tournamentRulesText(tournament.settings)).toContain('people only');
      // And what does not count: guests, new accounts, one's own network, a pair's 4th game, early walk-aways.
      const fairPlay = card.getByRole('list', { name: 'Fair play' });
      for (const rule of fairPlayRulesText(tournament.settings)) await fairPlay.getByText(rule).waitFor();
      expect(fairPlayRulesText(tournament.settings).join(' ')).toContain('verified e-mail');
      // On a phone the card folds its details away, so Play and Quick Start stay on the first screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const quickStart = page.getByRole('button', { name: 'Quick Start Easy' });
      await expect.poll(() => quickStart.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(844);
      expect(await card.getByText(tournamentRulesText(tournament.settings)).isVisible()).toBe(false);
      await card.getByRole('button', { name: 'Details' }).click();
      await card.getByText(tournamentRulesText(tournament.settings)).waitFor();
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshots(journey, 'tournament-dashboard-open');
      await card.getByRole('button', { name: TOURNAMENT_TEXTS.join }).click();
      await card.getByText(TOURNAMENT_TEXTS.joined, { exact: true }).waitFor();
      await card.getByText(notRankedYetText(0, 1)).waitFor();
      await card.getByText('2 / 3').waitFor();

      // Quick Start makes a bot game; left at once, it would not count here anyway: no bots.
      // The page counts down to the server's start against its own clock: the two agree from here.
      catchUp(clock);
      await page.getByRole('button', { name: 'Quick Start Easy' }).click();
      await startWithClock(server(), clock, ROOM_PATH.exec(await atPath(page, ROOM_PATH))?.[1] as string);
      await atPath(page, /^\/game\//);
      await page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });
      await leaveGame(page);
      await journey.goto('/dashboard');
      await card.getByText(TOURNAMENT_TEXTS.uncounted.botsNotAllowed).waitFor();
      await screenshots(journey, 'tournament-dashboard-joined');

      // Two people in one room; the rival walks away at once: aborted, no winner (docs/fair-play.md).
      await signIn(other, rival);
      const created = await fetch(`${server().base}/api/game/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${player.token}` },
        body: JSON.stringify({ settings: { maxPlayers: 2, cardsPerPlayer: 20 } }),
      }).then((r) => r.json() as Promise<{ data: { roomCode: string } }>);
      const { roomCode } = created.data;
      await journey.goto(`/lobby/${roomCode}`);
      await other.goto(`/lobby?join=${roomCode}`);
      await atPath(other.page, `/lobby/${roomCode}`);
      await page.getByText(rival.username).first().waitFor();
      await other.page
        .getByRole('button', { name: /Mark Ready|Ready/ })
        .first()
        .click();
      await page
        .getByRole('button', { name: /Mark Ready|Ready/ })
        .first()
        .click();
      catchUp(clock);
      await page.getByRole('button', { name: 'Start Game' }).click();
      await startWithClock(server(), clock, roomCode);
      await Promise.all([atPath(page, `/game/${roomCode}`), atPath(other.page, `/game/${roomCode}`)]);
      await other.page.locator('[data-hand-card]').first().waitFor();
      await leaveGame(other.page);
      await page.getByRole('heading', { name: 'Game Over' }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Dashboard' }).click();
      await atPath(page, '/dashboard');
      await card.getByText(TOURNAMENT_TEXTS.uncounted.aborted).waitFor();
      expect(await card.getByTestId('games-counted').innerText()).toMatch(/^0\b/);
      await screenshots(journey, 'tournament-dashboard-walked-away');

      await card.getByRole('link', { name: TOURNAMENT_TEXTS.viewStandings }).click();
      await atPath(page, '/leaderboard');
      await page.getByRole('list', { name: 'Tournament standings' }).getByText(player.username).waitFor();
      journey.assertNoPageErrors();
      other.assertNoPageErrors();
    } finally {
      await journey.close();
      await other.close();
    }

    // An account whose e-mail is not verified is asked to verify it, with no Join button.
    const unverified = await registerAccount(server().base, 'unverified');
    const fourth = await openJourney(browser(), server().base);
    try {
      await signIn(fourth, unverified);
      await fourth.goto('/dashboard');
      const card = fourth.page.getByRole('region', { name: 'Tournament Humans Only' });
      await card.getByText(TOURNAMENT_TEXTS.verifiedEmailRequired).waitFor();
      await card.getByRole('link', { name: TOURNAMENT_TEXTS.verifyEmailLink }).waitFor();
      expect(await card.getByRole('button', { name: TOURNAMENT_TEXTS.join }).count()).toBe(0);
      await screenshots(fourth, 'tournament-email-required');
      fourth.assertNoPageErrors();
    } finally {
      await fourth.close();
    }

    // The last place goes while a late player looks at the card: their Join gets the server's text,
    // and the card turns to Full with no way in.
    const late = await established('late');
    const third = await openJourney(browser(), server().base);
    try {
      await signIn(third, late);
      await third.goto('/dashboard');
      const card = third.page.getByRole('region', { name: 'Tournament Humans Only' });
      await card.getByText('2 / 3').waitFor();
      await joinOverApi(await established('filler'), tournament.id);
      await card.getByRole('button', { name: TOURNAMENT_TEXTS.join }).click();
      await third.page.locator('[data-sonner-toast]').getByText(TOURNAMENT_TEXTS.full).waitFor();
      await card.getByText('3 / 3').waitFor();
      await card.getByText(TOURNAMENT_TEXTS.full).waitFor();
      expect(await card.getByRole('button', { name: TOURNAMENT_TEXTS.join }).isDisabled()).toBe(true);
      await screenshots(third, 'tournament-full');
      third.assertNoPageErrors();
    } finally {
      await third.close();
    }

    // A visitor signed out: full for them too; a tournament with room offers to sign in.
    const visitor = await openJourney(browser(), server().base);
    try {
      await visitor.goto('/leaderboard?tab=tournament');
      // Open Door ends sooner than Humans Only, so it becomes the current tournament.
      await entry(visitor.page).getByText(TOURNAMENT_TEXTS.full).waitFor();
      await createTournament(boss, { name: 'Open Door', endDate: new Date(clock.now() + 1_800_000).toISOString() });
      await visitor.page.getByRole('button', { name: 'Refresh Rankings' }).click();
      await visitor.page.getByRole('heading', { name: 'Open Door' }).waitFor();
      const signInLink = entry(visitor.page).getByRole('link', { name: TOURNAMENT_TEXTS.signInToJoin });
      await signInLink.waitFor();
      await screenshots(visitor, 'tournament-signed-out');
      await signInLink.click();
      await atPath(visitor.page, '/login');
      expect(new URL(visitor.page.url()).searchParams.get('from')).toBe('/leaderboard?tab=tournament');
      visitor.assertNoPageErrors();
    } finally {
      await visitor.close();
    }

    // A demo guest is told to make an account (Open Door has room).
    const guest = await openJourney(browser(), server().base);
    try {
      await guest.goto('/register');
      await guest.page.getByRole('button', { name: 'Play as guest' }).click();
      await atPath(guest.page, '/dashboard');
      // A link to becoming an account (which keeps the guest's games), and back here after.
      const upgrade = guest.page.getByRole('link', { name: TOURNAMENT_TEXTS.guestsCannotJoin });
      await upgrade.waitFor();
      expect(new URL((await upgrade.getAttribute('href')) ?? '', server().base).pathname).toBe('/register');
      await screenshots(guest, 'tournament-guest');
      guest.assertNoPageErrors();
    } finally {
      await guest.close();
    }
  }, 240_000);
});
