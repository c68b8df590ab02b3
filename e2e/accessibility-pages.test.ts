/**
 * Accessibility of the pages around the game: signed out (landing, sign-in, register, password and
 * verification pages, docs, an unknown route), signed in (dashboard, bot dialog, profile, nav menu),
 * and the verification box when e-mail verification is required.
 * A page that a link from outside opens (a mail's link, an unknown route) is loaded; the ones a
 * person reaches inside the app are walked in the one document, as its links go (helpers/audit.ts
 * visit), so axe-core and the app are put into a page once rather than at every state.
 * Each state is checked with axe-core (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone
 * (390×844) sizes, in a real browser against the real server; a journey fails on any serious or
 * critical violation, listing all it found (helpers/audit.ts). Beside axe: a form field keeps its label
 * as its accessible name while its error shows, and icons are drawings, not emoji.
 */
import { randomBytes } from 'node:crypto';
import { AUTH_TEXTS, LOBBY_TEXTS, VALIDATION_TEXTS } from '@memeslam/protocol';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../apps/server/src/db/schema.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { DESKTOP, PHONE, BOTH, audit, expectFieldError, call, reportChecks, visit } from './helpers/audit.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

afterAll(() => reportChecks('pages'));

// One browser for both servers' journeys.
describeJourneys('accessibility: pages', () => {
  const browser = useBrowser();

  describe('signed out and signed in', () => {
    const server = useServer();

    it('signed out: landing, sign-in, register, password and verification pages, docs, unknown route', async () => {
      const a = audit();
      const journey = await openJourney(browser(), server().base);
      const { page } = journey;
      try {
        // The pages a mail's link opens, each loaded as a person following the link loads it.
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

        // An unknown route sends to the landing page, the state checked as the landing page signed out.
        await journey.goto('/no/such/page');
        await atPath(page, '/');
        await page.getByText('MemeSlam').first().waitFor();
        await a.check(page, 'landing, signed out (where an unknown route sends)');

        await page.setViewportSize(PHONE);
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.locator('#mobile-menu').waitFor();
        await a.check(page, 'nav menu open on a phone, signed out', [PHONE]);
        // From here the pages a person reaches inside the app, in the one document: the menu's own
        // link first, which closes it.
        await page.locator('#mobile-menu').getByRole('link', { name: 'Docs' }).click();
        await page.locator('#mobile-menu').waitFor({ state: 'detached' });
        await page.setViewportSize(DESKTOP);
        await atPath(page, '/how-to-play');
        await page.getByRole('heading', { level: 1 }).waitFor();
        // The guide is in tabs: each one, the first and last (with Play Now) at both sizes.
        await page.getByRole('tab').first().waitFor();
        const guide = await page.getByRole('tab').allInnerTexts();
        for (const [k, tab] of guide.entries()) {
          await page.getByRole('tab', { name: tab }).click();
          await page.getByRole('tab', { name: tab, selected: true }).waitFor();
          const ends = k === 0 || k === guide.length - 1;
          await a.check(page, `how to play, ${tab} tab`, ends ? BOTH : [DESKTOP]);
        }

        await visit(page, '/tokenomics');
        await page.getByText('1,000,000,000').waitFor();
        await page.getByRole('button', { name: 'Do I need tokens to play?' }).click();
        await a.check(page, 'tokenomics, a question open');

        await visit(page, '/leaderboard');
        await page.getByText('Total points scored').waitFor();
        await a.check(page, 'leaderboard, signed out, no players');

        await visit(page, '/login');
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await a.check(page, 'login, empty');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText(VALIDATION_TEXTS.passwordRequired).waitFor();
        await expectFieldError(page, 'Email or username', VALIDATION_TEXTS.emailOrUsernameRequired);
        await expectFieldError(page, 'Password', VALIDATION_TEXTS.passwordRequired);
        await a.check(page, 'login, with validation errors');

        await visit(page, '/register');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText(VALIDATION_TEXTS.usernameRequired).waitFor();
        await expectFieldError(page, 'Username', VALIDATION_TEXTS.usernameRequired);
        await a.check(page, 'register, with validation errors');

        await visit(page, '/forgot-password');
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page.getByRole('alert').first().waitFor();
        await a.check(page, 'forgot password, with a validation error');
        await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page.getByRole('status').filter({ hasText: 'password reset email' }).waitFor();
        await a.check(page, 'forgot password, sent');
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
        // On through the app in the one document, the menu's own link first (which closes it).
        await page.locator('#mobile-menu').getByRole('link', { name: 'Dashboard' }).click();
        await page.locator('#mobile-menu').waitFor({ state: 'detached' });
        await page.setViewportSize(DESKTOP);
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

        await visit(page, '/profile');
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

        // The wagered lobby before the plain one: the page stays mounted from one to the other, and
        // the join form's error must not come along.
        await visit(page, '/lobby?mode=wagered');
        await page.getByRole('heading', { name: LOBBY_TEXTS.wageredLobbyTitle }).waitFor();
        await a.check(page, 'lobby, wagered');
        await visit(page, '/lobby');
        await page.getByRole('heading', { name: LOBBY_TEXTS.wageredLobbyTitle }).waitFor({ state: 'detached' });
        await page.getByText('Connected to server').first().waitFor();
        await a.check(page, 'lobby');
        await page.getByLabel('Room code').press('Enter');
        await page.getByRole('alert').getByText(LOBBY_TEXTS.enterRoomCode).waitFor();
        await a.check(page, 'lobby, join form with an error');
        journey.assertNoPageErrors();
        a.done();
      } finally {
        await journey.close();
      }
    }, 240_000);
  });

  describe('with e-mail verification required', () => {
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
});
