/**
 * Accessibility of every screen state, in a real browser against the real server: each state is
 * checked with axe-core (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone (390×844) sizes, and
 * a journey fails on any serious or critical violation. Each test lists all it found before failing.
 * Beside axe: a form field keeps its label as its accessible name while its error shows (the error
 * is its description), and icons are drawings, not emoji.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { type Card, matches } from '@memeslam/engine';
import {
  AUTH_TEXTS,
  HINTS,
  LEADERBOARD_TEXTS,
  LOBBY_TEXTS,
  TOURNAMENT_TEXTS,
  VALIDATION_TEXTS,
} from '@memeslam/protocol';
import { asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { type Socket, io } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { outbox, tournaments, users } from '../apps/server/src/db/schema.ts';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { type Violation, accessibilityFailure, axeViolations } from './helpers/axe.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

const DESKTOP = { width: 1280, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;
type Size = typeof DESKTOP | typeof PHONE;
const BOTH: readonly Size[] = [DESKTOP, PHONE];

/** Every state checked in this file's run with what axe found there (any impact), for the closing count and report. */
const checked: { state: string; violations: { rule: string; impact: string; nodes: number }[] }[] = [];

/**
 * Checks states and keeps what fails, so that one run lists every violation of a journey; `done()`
 * fails the journey if anything did.
 */
function audit() {
  const failures: string[] = [];
  return {
    async check(page: Page, label: string, sizes: readonly Size[] = BOTH): Promise<void> {
      const before = page.viewportSize();
      for (const size of sizes) {
        await page.setViewportSize(size);
        // Let the layout settle at the new size (media queries, the viewport hooks) before measuring.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const name = `${label} @ ${size.width}×${size.height}`;
        const violations: Violation[] = await axeViolations(page);
        checked.push({
          state: name,
          violations: violations.map((v) => ({ rule: v.id, impact: v.impact ?? '', nodes: v.nodes.length })),
        });
        const failure = accessibilityFailure(name, page.url(), violations);
        if (failure) failures.push(failure);
      }
      if (before) await page.setViewportSize(before);
    },
    done(): void {
      if (failures.length > 0) throw new Error(`${failures.length} state(s) failed:\n\n${failures.join('\n\n')}`);
    },
  };
}

/**
 * A field with an error shown: its accessible name is still exactly its label, it is marked invalid,
 * and the error is its description (aria-describedby), not part of its name.
 */
async function expectFieldError(
  page: Page,
  label: string,
  error: string,
  role: 'textbox' | 'spinbutton' = 'textbox',
): Promise<void> {
  const field = page.getByRole(role, { name: label, exact: true });
  expect(await field.count(), `one field named exactly "${label}"`).toBe(1);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const described = await field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(described).toContain(error);
  // The error sits outside the field's <label>.
  expect(await field.evaluate((el) => [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent))).toEqual([
    label,
  ]);
}

async function setRole(server: E2eServer, account: Account, role: 'superadmin' | 'user'): Promise<Account> {
  await server.app.db.update(users).set({ role }).where(eq(users.id, account.user.id));
  const me = await fetch(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${account.token}` } });
  const { data } = (await me.json()) as { data: { user: Account['user'] } };
  return { ...account, user: data.user };
}

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever the server sent
type Payload = any;

interface View {
  readonly hand: readonly Card[];
  readonly tops: readonly (Card | undefined)[];
}

/** Every play the rules allow from this hand onto these tops. */
function movesOf({ hand, tops }: View): { card: Card; pileIndex: number }[] {
  return hand.flatMap((card) =>
    tops.flatMap((top, pileIndex) => (top && matches(card, top) ? [{ card, pileIndex }] : [])),
  );
}

/** A player's own socket beside their browser: the test plays for them. */
async function connect(server: E2eServer, token: string) {
  const socket: Socket = io(server.base, { auth: { token }, transports: ['websocket'], reconnection: false });
  const last = new Map<string, Payload>();
  socket.onAny((event: string, payload: Payload) => last.set(event, payload));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const emit = (event: string, payload: unknown = {}): Promise<Payload> =>
    socket.timeout(10_000).emitWithAck(event, payload);
  /** This player's hand and the piles' top cards (empty when not in a game). */
  async function view(): Promise<View> {
    const now = (await emit('requestHand', {})).data;
    return {
      hand: now?.hand ?? [],
      tops: (now?.gameState.discardPiles ?? []).map((pile: Card[]) => pile.at(-1)),
    };
  }
  /** A playable card of this player, or null (nothing matches, not in a game). */
  async function move(): Promise<{ cardId: string; pileIndex: number } | null> {
    const found = movesOf(await view())[0];
    return found ? { cardId: found.card.id, pileIndex: found.pileIndex } : null;
  }
  return { socket, last, emit, view, move };
}
type Player = Awaited<ReturnType<typeof connect>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays a game out over the sockets so that `winner` wins: it plays whenever it can, and each
 * `other` plays only while `winner` has nothing to play (so the board keeps moving).
 */
async function playOut(winner: Player, others: readonly Player[], limitMs = 90_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!winner.last.has('gameEnded') && Date.now() < until) {
    const mine = await winner.move();
    if (mine) {
      await winner.emit('playCard', mine);
    } else {
      for (const other of others) {
        const theirs = await other.move();
        if (theirs) {
          await other.emit('playCard', theirs);
          break;
        }
      }
    }
    await sleep(150);
  }
  if (!winner.last.has('gameEnded')) throw new Error('the game did not end in time');
}

/** Waits for the in-game board of a member: a hand card on screen. */
const inGame = (page: Page) => page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });

afterAll(() => {
  const states = new Set(checked.map(({ state }) => state.replace(/ @ .*$/, '')));
  console.log(`[a11y] ${states.size} screen states checked, ${checked.length} checks (each at its sizes)`);
  // A11Y_REPORT=file.json keeps every state's findings, minor ones included, for a closer look.
  if (process.env.A11Y_REPORT) writeFileSync(process.env.A11Y_REPORT, JSON.stringify(checked, null, 2));
});

describeJourneys('accessibility', () => {
  const browser = useBrowser();
  const server = useServer();

  it('signed out: landing, sign-in, register, password and verification pages, docs, unknown route', async () => {
    const a = audit();
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/');
      await page.getByText('MemeSlam').first().waitFor();
      await a.check(page, 'landing, signed out');

      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('#mobile-menu').waitFor();
      await a.check(page, 'nav menu open on a phone, signed out', [PHONE]);
      await page.setViewportSize(DESKTOP);

      await journey.goto('/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await a.check(page, 'login, empty');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(VALIDATION_TEXTS.passwordRequired).waitFor();
      await expectFieldError(page, 'Email or username', VALIDATION_TEXTS.emailOrUsernameRequired);
      await expectFieldError(page, 'Password', VALIDATION_TEXTS.passwordRequired);
      await a.check(page, 'login, with validation errors');

      await journey.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(VALIDATION_TEXTS.usernameRequired).waitFor();
      await expectFieldError(page, 'Username', VALIDATION_TEXTS.usernameRequired);
      await a.check(page, 'register, with validation errors');

      await journey.goto('/forgot-password');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('alert').first().waitFor();
      await a.check(page, 'forgot password, with a validation error');
      await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('status').filter({ hasText: 'password reset email' }).waitFor();
      await a.check(page, 'forgot password, sent');

      await journey.goto('/reset-password');
      await page.getByText(VALIDATION_TEXTS.invalidResetLink).waitFor();
      await a.check(page, 'reset password, link without its token');
      await journey.goto('/reset-password?token=abc');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText(VALIDATION_TEXTS.confirmPasswordRequired).waitFor();
      await expectFieldError(page, 'Confirm password', VALIDATION_TEXTS.confirmPasswordRequired);
      await a.check(page, 'reset password, with validation errors');

      await journey.goto('/verify-email');
      await page.getByText(VALIDATION_TEXTS.invalidVerificationLink).waitFor();
      await a.check(page, 'verify e-mail, link without its token');
      await journey.goto('/verify-email?token=not-a-real-token');
      await page.getByRole('link', { name: 'Go to Login' }).waitFor();
      await a.check(page, 'verify e-mail, refused token');

      await journey.goto('/resend-verification');
      await page.getByRole('button', { name: 'Send Verification Email' }).waitFor();
      await a.check(page, 'resend verification, empty');
      await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
      await page.getByRole('button', { name: 'Send Verification Email' }).click();
      await page.getByRole('alert').or(page.getByRole('status')).first().waitFor();
      await a.check(page, 'resend verification, answered');

      await journey.goto('/how-to-play');
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The guide is in tabs: each one, the first and last (with Play Now) at both sizes.
      const guide = await page.getByRole('tab').allInnerTexts();
      for (const [k, tab] of guide.entries()) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tab', { name: tab, selected: true }).waitFor();
        const ends = k === 0 || k === guide.length - 1;
        await a.check(page, `how to play, ${tab} tab`, ends ? BOTH : [DESKTOP]);
      }

      await journey.goto('/tokenomics');
      await page.getByText('1,000,000,000').waitFor();
      await page.getByRole('button', { name: 'Do I need tokens to play?' }).click();
      await a.check(page, 'tokenomics, a question open');

      await journey.goto('/leaderboard');
      await page.getByText('Total points scored').waitFor();
      await a.check(page, 'leaderboard, signed out, no players');

      await journey.goto('/no/such/page');
      await atPath(page, '/');
      await page.getByText('MemeSlam').first().waitFor();
      await a.check(page, 'unknown route (sent to the landing page)');
      journey.assertNoPageErrors();
      a.done();
    } finally {
      await journey.close();
    }
  }, 240_000);

  it('signed in: landing, dashboard with its lists and the bot dialog, profile, nav menu', async () => {
    const a = audit();
    const [player, host] = await Promise.all([
      registerAccount(server().base, 'ax'),
      registerAccount(server().base, 'axh'),
    ]);
    await call(server(), host, '/game/create', { settings: { maxPlayers: 4 } });
    // Some history, so the profile and dashboard show stats and an unlocked achievement beside locked ones.
    await server()
      .app.db.update(users)
      .set({ gamesPlayed: 12, gamesWon: 5, totalPoints: 2400 })
      .where(eq(users.id, player.user.id));
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, player, {
        [`bot-stats:${player.user.id}`]: JSON.stringify({ totalBotGames: 3, humanWins: 2, botWins: 1, counted: [] }),
      });
      await journey.goto('/');
      await page.getByText('MemeSlam').first().waitFor();
      await a.check(page, 'landing, signed in');

      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('#mobile-menu').getByText(player.user.email).waitFor();
      await a.check(page, 'nav menu open on a phone, signed in', [PHONE]);
      await page.setViewportSize(DESKTOP);

      await journey.goto('/dashboard');
      await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      await page
        .getByRole('listitem', { name: /^Game [A-Z0-9]{6}$/ })
        .first()
        .waitFor();
      await a.check(page, 'dashboard, human games listed');
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
      await a.check(page, 'dashboard, account menu open', [DESKTOP]);
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Bot Games' }).click();
      await page.getByRole('tabpanel').waitFor();
      await a.check(page, 'dashboard, bot games tab');
      await page.getByRole('tab', { name: /Wagered/ }).click();
      await a.check(page, 'dashboard, wagered tab');
      await page.getByRole('button', { name: 'Create Bot Game' }).click();
      await page.getByRole('dialog', { name: 'Create Bot Game' }).waitFor();
      await a.check(page, 'dashboard, bot game dialog open');
      await page.keyboard.press('Escape');
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Show stats' }).click();
      await page.getByText('Games Played', { exact: true }).waitFor();
      await a.check(page, 'dashboard, stats shown on a phone', [PHONE]);
      await page.setViewportSize(DESKTOP);

      await journey.goto('/profile');
      await page.getByLabel('First Game: unlocked').waitFor();
      await page
        .getByLabel('Champion: locked')
        .or(page.getByLabel(/: locked$/).first())
        .first()
        .waitFor();
      await a.check(page, 'profile, stats and achievements (some locked)');
      await journey.screenshot('a11y-profile-achievements');
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Username', { exact: true }).fill('ab');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(VALIDATION_TEXTS.usernameTooShort).waitFor();
      await expectFieldError(page, 'Username', VALIDATION_TEXTS.usernameTooShort);
      await a.check(page, 'profile, username with a validation error');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Change password' }).click();
      await page.getByText(VALIDATION_TEXTS.currentPasswordRequired).waitFor();
      await a.check(page, 'profile, change password dialog with an error');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete Account' }).click();
      await page.getByRole('dialog').getByLabel('Password', { exact: true }).waitFor();
      await a.check(page, 'profile, delete account dialog');
      await page.keyboard.press('Escape');

      await journey.goto('/lobby');
      await page.getByText('Connected to server').first().waitFor();
      await a.check(page, 'lobby');
      await page.getByLabel('Room code').press('Enter');
      await page.getByRole('alert').getByText(LOBBY_TEXTS.enterRoomCode).waitFor();
      await a.check(page, 'lobby, join form with an error');
      await journey.goto('/lobby?mode=wagered');
      await page.getByRole('heading', { name: LOBBY_TEXTS.wageredLobbyTitle }).waitFor();
      await a.check(page, 'lobby, wagered');
      journey.assertNoPageErrors();
      a.done();
    } finally {
      await journey.close();
    }
  }, 240_000);

  it('two players: waiting room, ready states, countdown, the game, its dialogs, frozen, victory and defeat, replay', async () => {
    const a = audit();
    const base = server().base;
    const [hostAccount, guestAccount] = await Promise.all([registerAccount(base, 'axa'), registerAccount(base, 'axb')]);
    const host = await openJourney(browser(), base);
    const guest = await openJourney(browser(), base);
    let sockets: Player[] = [];
    try {
      await Promise.all([signIn(host, hostAccount), signIn(guest, guestAccount)]);
      const { roomCode } = await call<{ roomCode: string }>(server(), hostAccount, '/game/create', {
        settings: { maxPlayers: 2, cardsPerPlayer: 30, gameSpeed: 'blitz' },
      });
      await host.goto(`/lobby/${roomCode}`);
      await host.page.getByText('Waiting for player…').waitFor();
      await a.check(host.page, 'waiting room, host alone');

      await guest.goto(`/lobby?join=${roomCode}`);
      await atPath(guest.page, `/lobby/${roomCode}`);
      await host.page.getByRole('listitem', { name: guestAccount.username }).waitFor();
      await guest.page.getByRole('button', { name: 'Mark Ready' }).click();
      await guest.page.getByRole('button', { name: 'Ready', exact: true, pressed: true }).waitFor();
      await host.page.getByRole('listitem', { name: guestAccount.username }).getByText('Ready').waitFor();
      await a.check(host.page, 'waiting room, host, guest ready');
      await a.check(guest.page, 'waiting room, guest, ready');
      await guest.screenshot('a11y-waiting-room-ready');
      await host.page.getByRole('button', { name: 'Mark Ready' }).click();
      await host.page.getByText(LOBBY_TEXTS.allPlayersReady).waitFor();
      await a.check(host.page, 'waiting room, all ready');

      await host.page.getByRole('button', { name: 'Start Game' }).click();
      await host.page.getByRole('dialog').getByText('Discard Piles').waitFor();
      await a.check(host.page, 'countdown (two people)', [DESKTOP]);
      await a.check(guest.page, 'countdown (two people)', [PHONE]);

      await Promise.all([inGame(host.page), inGame(guest.page)]);
      await a.check(host.page, 'game, in play');

      await host.page.getByRole('button', { name: 'Settings' }).click();
      await host.page.getByRole('dialog').waitFor();
      await a.check(host.page, 'game, settings dialog', [DESKTOP]);
      await host.page.keyboard.press('Escape');
      await host.page.getByRole('dialog').waitFor({ state: 'detached' });

      await host.page.getByRole('button', { name: 'Freeze', exact: true }).click();
      const picker = host.page.getByRole('dialog');
      await picker.getByRole('button', { name: new RegExp(guestAccount.username) }).waitFor();
      await a.check(host.page, 'game, freeze target dialog', [DESKTOP]);
      await picker.getByRole('button', { name: new RegExp(guestAccount.username) }).click();
      await guest.page.getByText(HINTS.youAreFrozen).waitFor();
      await a.check(guest.page, 'game, frozen', [DESKTOP]);
      await guest.page.setViewportSize(PHONE);
      await guest.page.getByRole('button', { name: 'Game menu' }).click();
      await a.check(guest.page, 'game, frozen, phone with its menu open', [PHONE]);

      await host.page.getByRole('button', { name: 'Back' }).click();
      await host.page.getByRole('dialog').getByRole('button', { name: 'Stay' }).waitFor();
      await a.check(host.page, 'game, leave dialog', [DESKTOP]);
      await host.page.getByRole('dialog').getByRole('button', { name: 'Stay' }).click();

      // From here the test plays for both over their own sockets.
      sockets = await Promise.all([connect(server(), hostAccount.token), connect(server(), guestAccount.token)]);
      const [hostSocket, guestSocket] = sockets as [Player, Player];

      // The deadlock notice is checked in layout.test.ts, where a chosen deal reaches it every time.

      // The guest wins, the host loses.
      await playOut(guestSocket, [hostSocket]);
      await guest.page.getByRole('heading', { level: 1, name: 'Victory' }).waitFor({ timeout: 15_000 });
      await host.page.getByRole('heading', { level: 1, name: 'Game Over' }).waitFor({ timeout: 15_000 });
      await a.check(guest.page, 'result, victory');
      await a.check(host.page, 'result, defeat');

      await host.page.getByRole('link', { name: 'View replay' }).click();
      await host.page.getByRole('heading', { name: /Seed verified/ }).waitFor({ timeout: 20_000 });
      await a.check(host.page, 'replay, first step');
      await host.page.getByRole('slider', { name: 'Step' }).press('End');
      await host.page
        .getByTestId('step-description')
        .getByText(/Game over/)
        .waitFor();
      await a.check(host.page, 'replay, last step');
      await host.goto('/game/00000000-0000-0000-0000-000000000000/replay');
      await host.page.getByRole('heading', { name: 'Game not found' }).waitFor();
      await a.check(host.page, 'replay, game not found');
      host.assertNoPageErrors();
      guest.assertNoPageErrors();
      a.done();
    } finally {
      for (const s of sockets) s.socket.disconnect();
      await Promise.all([host.close(), guest.close()]);
    }
  }, 300_000);

  it('a bot game: waiting room with bots, countdown, play, the bots’ victory', async () => {
    const a = audit();
    const account = await registerAccount(server().base, 'axbot');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    let player: Player | undefined;
    try {
      await signIn(journey, account, { 'sound-enabled': 'false' });
      const { roomCode } = await call<{ roomCode: string }>(server(), account, '/game/create-bot-game', {
        numberOfBots: 2,
        botDifficulty: 'expert',
        maxPlayers: 4,
        gameSpeed: 'blitz',
        autoStart: false,
        cardsPerPlayer: 20,
      });
      await journey.goto(`/lobby/${roomCode}`);
      await page
        .getByRole('listitem', { name: /\(Bot\)$/ })
        .first()
        .waitFor();
      await a.check(page, 'waiting room, host with bots');
      await journey.screenshot('a11y-waiting-room-bots');
      // Ready: the bots always are, so the host's page starts the game a second later by itself.
      await page.getByRole('button', { name: 'Mark Ready' }).click();
      await page.getByRole('dialog').getByText('AI System').waitFor();
      await a.check(page, 'countdown (bots)', [PHONE]);
      await inGame(page);
      await a.check(page, 'game with bots, in play');

      // The player plays only when no bot can, so the bots win.
      player = await connect(server(), account.token);
      const observer = player;
      const deadline = Date.now() + 120_000;
      while (!observer.last.has('gameEnded') && Date.now() < deadline) {
        const before = JSON.stringify((await observer.emit('requestHand', {})).data?.gameState.pileSizes ?? []);
        await sleep(2500);
        const now = (await observer.emit('requestHand', {})).data;
        if (!now || observer.last.has('gameEnded')) break;
        if (JSON.stringify(now.gameState.pileSizes) !== before) continue;
        const mine = await observer.move();
        if (mine) await observer.emit('playCard', mine);
      }
      const result = page.getByRole('main', { name: 'Game result' });
      await result.waitFor({ timeout: 20_000 });
      const heading = await result.getByRole('heading', { level: 1 }).textContent();
      await a.check(page, `result, bot game (${heading})`);
      journey.assertNoPageErrors();
      a.done();
    } finally {
      player?.socket.disconnect();
      await journey.close();
    }
  }, 300_000);

  it('leaderboard tabs and the tournament states; admin tabs', async () => {
    const a = audit();
    const ranked: Account[] = [];
    const records = [
      { gamesPlayed: 10, gamesWon: 2, totalPoints: 900 },
      { gamesPlayed: 4, gamesWon: 4, totalPoints: 500 },
      { gamesPlayed: 20, gamesWon: 5, totalPoints: 300 },
      { gamesPlayed: 3, gamesWon: 1, totalPoints: 100 },
    ];
    for (const record of records) {
      const account = await registerAccount(server().base, 'axl');
      await server().app.db.update(users).set(record).where(eq(users.id, account.user.id));
      ranked.push(account);
    }
    const admin = await setRole(server(), ranked[0]!, 'superadmin');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, admin);
      await journey.goto('/leaderboard');
      await page.getByRole('list', { name: 'Rankings' }).first().getByRole('listitem').first().waitFor();
      await a.check(page, 'leaderboard, total points');
      await journey.screenshot('a11y-leaderboard-medals');
      for (const tab of [
        LEADERBOARD_TEXTS.tabs.gamesWon,
        LEADERBOARD_TEXTS.tabs.winRate,
        LEADERBOARD_TEXTS.tabs.gamesPlayed,
      ]) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel').getByRole('listitem').first().waitFor();
        await a.check(page, `leaderboard, ${tab.toLowerCase()}`, [DESKTOP]);
      }
      await page.getByRole('tab', { name: LEADERBOARD_TEXTS.tabs.tournament }).click();
      await page.getByText(TOURNAMENT_TEXTS.noActiveTournament).waitFor();
      await a.check(page, 'leaderboard, no tournament');

      const start = new Date(Date.now() + 3_600_000);
      const { tournament } = await call<{ tournament: { id: string } }>(server(), admin, '/tournaments', {
        name: 'Accessible Cup',
        description: 'Every screen for everyone',
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + 3_600_000).toISOString(),
        totalAmount: 1000,
        winnersCount: 3,
      });
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.startingSoon).waitFor();
      await a.check(page, 'leaderboard, upcoming tournament');

      // Started an hour ago: live, first without participants, then with them.
      await server()
        .app.db.update(tournaments)
        .set({ startDate: new Date(Date.now() - 3_600_000) })
        .where(eq(tournaments.id, tournament.id));
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      await a.check(page, 'leaderboard, live tournament');
      for (const account of ranked) await call(server(), account, `/tournaments/${tournament.id}/join`, {});
      await page.getByRole('button', { name: LEADERBOARD_TEXTS.refresh }).click();
      await page.getByText(TOURNAMENT_TEXTS.live, { exact: true }).waitFor();
      await a.check(page, 'leaderboard, live tournament with participants');

      await journey.goto('/admin');
      await page.getByRole('tab', { name: 'Create Tournament', selected: true }).waitFor();
      await a.check(page, 'admin, create tournament');
      await page.getByRole('button', { name: 'Create Tournament' }).click();
      await page.getByText(TOURNAMENT_TEXTS.nameRequired).waitFor();
      await expectFieldError(page, 'Name', TOURNAMENT_TEXTS.nameRequired);
      await expectFieldError(page, 'Start date', TOURNAMENT_TEXTS.startDateRequired);
      await expectFieldError(page, 'Total amount', TOURNAMENT_TEXTS.prizeAmountRequired, 'spinbutton');
      await a.check(page, 'admin, create tournament with validation errors');
      for (const tab of await page.getByRole('tab').allInnerTexts()) {
        if (tab === 'Create Tournament') continue;
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel').waitFor();
        await page
          .getByRole('status')
          .filter({ hasText: /^Loading/ })
          .waitFor({ state: 'detached' });
        await a.check(page, `admin, ${tab.toLowerCase()} tab`);
      }
      journey.assertNoPageErrors();
      a.done();
    } finally {
      await journey.close();
    }
  }, 240_000);
});

describeJourneys('accessibility with e-mail verification required', () => {
  const browser = useBrowser();
  const server = useServer({ REQUIRE_EMAIL_VERIFICATION: 'true' });

  it('the yellow verification box on sign-in, and the verified page', async () => {
    const a = audit();
    const username = `axv_${randomBytes(3).toString('hex')}`;
    const email = `${username}@example.com`;
    const password = 'a good long secret';
    await fetch(`${server().base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email, password }),
    });
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/login');
      await page.getByLabel('Email or username', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('region', { name: AUTH_TEXTS.verificationRequiredTitle }).waitFor();
      await a.check(page, 'login, verification required box');

      await expect
        .poll(async () => (await server().app.db.select().from(outbox).where(eq(outbox.to, email))).length)
        .toBeGreaterThan(0);
      const [mail] = await server()
        .app.db.select()
        .from(outbox)
        .where(eq(outbox.to, email))
        .orderBy(asc(outbox.createdAt));
      const link = new URL(mail!.link!);
      await journey.goto(`${link.pathname}${link.search}`);
      await page.getByRole('button', { name: 'Go to Dashboard Now' }).waitFor();
      await a.check(page, 'verify e-mail, verified');
      journey.assertNoPageErrors();
      a.done();
    } finally {
      await journey.close();
    }
  });
});
