/**
 * The mailed links in a real browser, against a server that requires e-mail verification and keeps
 * its mail in the dev outbox (no SMTP_URL): register, the refused sign-in and its yellow box, a
 * resent link retiring the first, verify, sign in; then forgot password, the reset page's own
 * validation, the new password in and the old one out.
 */
import { randomBytes } from 'node:crypto';
import {
  AUTH_TEXTS,
  SERVER_TEXTS,
  SUCCESS_TEXTS,
  VALIDATION_TEXTS,
  VERIFY_EMAIL_REDIRECT_MS,
} from '@memeslam/protocol';
import { asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { outbox } from '../apps/server/src/db/schema.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

/** The links mailed to an address, oldest first, as paths on the test server (the mail carries PUBLIC_URL). */
async function mailedLinks(server: E2eServer, to: string, page: 'verify-email' | 'reset-password'): Promise<string[]> {
  const mails = await server.app.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.createdAt));
  return mails
    .map((mail) => (mail.link ? new URL(mail.link) : null))
    .filter((link): link is URL => link?.pathname === `/${page}`)
    .map((link) => `${link.pathname}${link.search}`);
}

/** Waits until `count` links of that kind have been mailed and returns the newest. */
async function awaitLink(
  server: E2eServer,
  to: string,
  page: 'verify-email' | 'reset-password',
  count = 1,
): Promise<string> {
  await expect.poll(async () => (await mailedLinks(server, to, page)).length).toBe(count);
  const links = await mailedLinks(server, to, page);
  return links[links.length - 1] as string;
}

async function fillSignIn(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel('Email or username', { exact: true }).fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describeJourneys('mail', () => {
  const browser = useBrowser();
  const server = useServer({ REQUIRE_EMAIL_VERIFICATION: 'true' });

  it('register, refused until verified, the mailed link verifies, then sign in', async () => {
    const username = `ml_${randomBytes(3).toString('hex')}`;
    const email = `${username}@example.com`;
    const password = 'a good long secret';
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/register');
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(SUCCESS_TEXTS.registrationCheckEmail).waitFor();
      await atPath(page, '/login');
      await journey.screenshot('mail-registered');

      // Not yet verified: the yellow box, with the server's reason.
      await fillSignIn(page, username, password);
      const box = page.getByRole('region', { name: AUTH_TEXTS.verificationRequiredTitle });
      await box.waitFor();
      await box.getByText(AUTH_TEXTS.verifyBeforeLogin).waitFor();
      await page.getByText(AUTH_TEXTS.verifyBeforeLoginToast).waitFor();
      await box.getByRole('link', { name: 'Verification Help' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      const first = await awaitLink(server(), email, 'verify-email');

      // Resend Email mails a new link and retires the first.
      await box.getByRole('button', { name: 'Resend Email' }).click();
      await page.getByText(SUCCESS_TEXTS.verificationSentInbox).waitFor();
      await journey.screenshot('mail-verification-required');
      const second = await awaitLink(server(), email, 'verify-email', 2);
      expect(second).not.toBe(first);

      await journey.goto(first);
      await page.getByText(SERVER_TEXTS.invalidOrExpiredToken).waitFor();
      await page.getByText(AUTH_TEXTS.verifyFailedToast).waitFor();
      await page.getByRole('link', { name: 'Go to Login' }).waitFor();

      // The good link verifies and signs nobody in (docs/accounts.md): after 3 s it moves
      // on to the dashboard, whose guard sends this signed-out browser to the login page.
      await journey.goto(second);
      await page.getByText(AUTH_TEXTS.emailVerified).waitFor();
      await page.getByRole('button', { name: 'Go to Dashboard Now' }).waitFor();
      await journey.screenshot('mail-verified');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.waitForURL((url) => url.pathname === '/login', { timeout: VERIFY_EMAIL_REDIRECT_MS + 5_000 });
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

      // The account now signs in through /login (by e-mail) with its password.
      await fillSignIn(page, email, password);
      await atPath(page, '/dashboard');
      await page.getByText(SUCCESS_TEXTS.loggedIn).waitFor();
      await page.getByText(`Welcome back, ${username}!`, { exact: true }).first().waitFor();
      await page.getByRole('heading', { name: `Welcome back, ${username}!` }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a guest upgrade with verification on: signed out at once, told to check the mail, in after the link', async () => {
    const username = `up_${randomBytes(3).toString('hex')}`;
    const email = `${username}@example.com`;
    const password = 'a guest no more 4';
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/register');
      await page.getByRole('button', { name: 'Play as guest' }).click();
      await atPath(page, '/dashboard');
      const guestToken = await page.evaluate(() => localStorage.getItem('token'));
      expect(guestToken).toBeTruthy();

      await journey.goto('/register');
      await page.getByText('Your games, stats and level as a guest come with you.').waitFor();
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(SUCCESS_TEXTS.registrationCheckEmail).waitFor();
      await atPath(page, '/login');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      // The guest token died with the upgrade.
      const me = await fetch(`${server().base}/api/auth/me`, { headers: { authorization: `Bearer ${guestToken}` } });
      expect(me.status).toBe(401);
      await journey.screenshot('mail-upgrade-check-email');

      // Until the link is used the account does not sign in; after it, it does.
      await fillSignIn(page, username, password);
      await page.getByRole('region', { name: AUTH_TEXTS.verificationRequiredTitle }).waitFor();
      await journey.goto(await awaitLink(server(), email, 'verify-email'));
      await page.getByText(AUTH_TEXTS.emailVerified).waitFor();
      // On to the sign-in form by the nav bar's link, as a person would.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
      await atPath(page, '/login');
      await fillSignIn(page, username, password);
      await atPath(page, '/dashboard');
      await page.getByRole('heading', { name: `Welcome back, ${username}!` }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('forgot password mails a reset link; the new password signs in and the old one is refused', async () => {
    const username = `rs_${randomBytes(3).toString('hex')}`;
    const email = `${username}@example.com`;
    const oldPassword = 'the old secret 1';
    const newPassword = 'the new secret 2';
    // Never verified: a reset proves the address too, so the new password signs straight in.
    const registered = await fetch(`${server().base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email, password: oldPassword }),
    });
    expect(registered.status).toBe(201);
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await atPath(page, '/forgot-password');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('status').getByText(SERVER_TEXTS.resetMailSent).waitFor();
      const link = await awaitLink(server(), email, 'reset-password');

      await journey.goto(link);
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByLabel('New password', { exact: true }).fill('12345');
      await page.getByLabel('Confirm password', { exact: true }).fill('12345');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText(VALIDATION_TEXTS.passwordTooShort).waitFor();
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      // An error clears as soon as its field is edited.
      expect(await page.getByText(VALIDATION_TEXTS.passwordTooShort).count()).toBe(0);
      await page.getByLabel('Confirm password', { exact: true }).fill(`${newPassword}x`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText(VALIDATION_TEXTS.passwordsDoNotMatch).waitFor();
      await journey.screenshot('mail-reset-errors');
      await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText(SERVER_TEXTS.passwordReset).waitFor();
      await atPath(page, '/login');

      await fillSignIn(page, email, oldPassword);
      await page.getByRole('alert').getByText(AUTH_TEXTS.invalidCredentials).waitFor();
      expect(await page.getByRole('region', { name: AUTH_TEXTS.verificationRequiredTitle }).count()).toBe(0);
      await journey.screenshot('mail-old-password-refused');
      await fillSignIn(page, email, newPassword);
      await atPath(page, '/dashboard');
      await page.getByRole('heading', { name: `Welcome back, ${username}!` }).waitFor();

      // The link worked once.
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await atPath(page, '/');
      await journey.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('a third secret 3');
      await page.getByLabel('Confirm password', { exact: true }).fill('a third secret 3');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText(SERVER_TEXTS.invalidOrExpiredToken).waitFor();
      expect(new URL(page.url()).pathname).toBe('/reset-password');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
