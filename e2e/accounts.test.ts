/**
 * Account journeys in a real browser against the real server: register with the form's own
 * validation, the dashboard, sign out, the guard that remembers where you were going, sign in by
 * username, a wrong password, the demo login and its upgrade to an account, a busy server's 503 waited
 * out in line, and a verification link without its token.
 */
import { randomBytes } from 'node:crypto';
import { AUTH_TEXTS, SERVER_TEXTS, SUCCESS_TEXTS, VALIDATION_TEXTS } from '@memeslam/protocol';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { registerAccount } from './helpers/accounts.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

/**
 * Client-side navigations change the URL without a page load, so wait for the URL itself rather than
 * for a navigation event (which may already have happened).
 */
async function atPath(page: Page, pathAndQuery: string): Promise<void> {
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return `${url.pathname}${url.search}`;
    })
    .toBe(pathAndQuery);
}

describeJourneys('accounts', () => {
  const browser = useBrowser();
  const server = useServer();

  const username = `e2e_${randomBytes(3).toString('hex')}`;
  const password = 'a good long secret';

  it('register (with client validation), dashboard, sign out, guarded page, sign in by username', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(VALIDATION_TEXTS.usernameRequired).waitFor();
      await page.getByLabel('Username', { exact: true }).fill('ab');
      // An error clears as soon as its field is edited.
      expect(await page.getByText(VALIDATION_TEXTS.usernameRequired).count()).toBe(0);
      await page.getByLabel('Email', { exact: true }).fill('not-an-email');
      await page.getByLabel('Password', { exact: true }).fill('123');
      await page.getByLabel('Confirm password', { exact: true }).fill('124');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(VALIDATION_TEXTS.usernameTooShort).waitFor();
      await page.getByText(VALIDATION_TEXTS.emailInvalid).waitFor();
      await page.getByText(VALIDATION_TEXTS.passwordTooShort).waitFor();
      await journey.screenshot('register-errors');

      // The page states the password rule; a common password passes the form's own checks and is
      // refused by the server, whose words appear on the field (and in a toast).
      await page.getByText(VALIDATION_TEXTS.passwordRule).waitFor();
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('password123');
      await page.getByLabel('Confirm password', { exact: true }).fill('password123');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.getByText(VALIDATION_TEXTS.passwordTooCommon).count()).toBe(2);
      await journey.screenshot('register-common-password');

      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await atPath(page, '/dashboard');
      await page.getByText(SUCCESS_TEXTS.accountCreated).waitFor();
      // A new account's first visit says welcome; signing in again says welcome back (below).
      await page.getByRole('heading', { name: `Welcome, ${username}!` }).waitFor();
      await page.getByText('Games Played').waitFor();
      await journey.screenshot('dashboard');

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await atPath(page, '/');
      await page.getByText(SUCCESS_TEXTS.loggedOut).waitFor();

      // The guard sends a visitor to /login and remembers where they were going.
      await journey.goto('/dashboard');
      await atPath(page, '/login?from=%2Fdashboard');
      await page.getByLabel('Email or username', { exact: true }).fill(username.toUpperCase());
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText(AUTH_TEXTS.invalidCredentials).waitFor();
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await atPath(page, '/dashboard');
      await page.getByText(SUCCESS_TEXTS.loggedIn).waitFor();

      // Signed in, /login sends you on to the dashboard; the session survives a reload.
      await journey.goto('/login');
      await atPath(page, '/dashboard');
      await page.reload();
      await page.getByRole('heading', { name: `Welcome back, ${username}!` }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('the demo login signs in a Guest_XXXX, and the guest becomes an account: the guest token dies, the new one signs the browser in', async () => {
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const username = `gu_${randomBytes(3).toString('hex')}`;
    try {
      await journey.goto('/register');
      await page.getByRole('button', { name: 'Play as guest' }).click();
      await atPath(page, '/dashboard');
      await page.getByText(SUCCESS_TEXTS.demoLogin).waitFor();
      await page.getByRole('heading', { name: /^Welcome, Guest_[A-Z2-9]{4}!$/ }).waitFor();
      const guestToken = await page.evaluate(() => localStorage.getItem('token'));
      await journey.goto('/register');
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('upgraded guest 3');
      await page.getByLabel('Confirm password', { exact: true }).fill('upgraded guest 3');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(SERVER_TEXTS.guestUpgraded).waitFor();
      await atPath(page, '/dashboard');
      const token = await page.evaluate(() => localStorage.getItem('token'));
      expect(token).toBeTruthy();
      expect(token).not.toBe(guestToken);
      const me = (bearer: string | null) =>
        fetch(`${server().base}/api/auth/me`, { headers: { authorization: `Bearer ${bearer}` } });
      expect((await me(guestToken)).status).toBe(401);
      expect((await me(token)).status).toBe(200);
      await page.getByRole('heading', { name: new RegExp(username) }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('signing in returns to the page the guard sent you from, and the phone menu reaches the profile', async () => {
    const account = await registerAccount(server().base, 'back');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/lobby?mode=wagered');
      await atPath(page, `/login?from=${encodeURIComponent('/lobby?mode=wagered')}`);
      await page.getByLabel('Email or username', { exact: true }).fill(account.username);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await atPath(page, '/lobby?mode=wagered');
      await page.getByText(`Welcome back, ${account.username}!`, { exact: true }).waitFor();
      // Only paths of this site: anything else goes to the dashboard.
      await journey.goto('/login?from=%2F%2Fevil.example%2F');
      await atPath(page, '/dashboard');

      await page.setViewportSize({ width: 390, height: 844 });
      const menu = page.getByRole('button', { name: 'Menu' });
      await menu.click();
      const mobileMenu = page.locator('#mobile-menu');
      await mobileMenu.getByText(account.user.email).waitFor();
      await mobileMenu.getByRole('link', { name: 'Settings' }).waitFor();
      await mobileMenu.getByRole('link', { name: 'Profile' }).click();
      await atPath(page, '/profile');
      expect(await mobileMenu.count()).toBe(0);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a busy server: registration and Play as guest, answered 503 with Retry-After: 1, say the person is in line and get in by themselves', async () => {
    /** The route's first answer is the hashing line's 503 (docs/limits.md); the statuses the page saw, in order. */
    const busyOnce = async (page: Page, path: string) => {
      const statuses: number[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === `/api${path}`) statuses.push(response.status());
      });
      await page.route(
        `**/api${path}`,
        (route) =>
          route.fulfill({
            status: 503,
            headers: { 'retry-after': '1' },
            contentType: 'application/json',
            body: JSON.stringify({ success: false, message: SERVER_TEXTS.serverBusy }),
          }),
        { times: 1 },
      );
      return statuses;
    };
    const waited = /^Waiting \d+ s$/;

    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const name = `busy_${randomBytes(3).toString('hex')}`;
    try {
      const statuses = await busyOnce(page, '/auth/register');
      await journey.goto('/register');
      await page.getByLabel('Username', { exact: true }).fill(name);
      await page.getByLabel('Email', { exact: true }).fill(`${name}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('status').filter({ hasText: SERVER_TEXTS.inLine }).waitFor();
      await page.getByText(waited).waitFor();
      await journey.screenshot('register-in-line');
      // No error meanwhile: the page asks again after the second and is in.
      expect(await page.getByText(SERVER_TEXTS.serverBusy).count()).toBe(0);
      await atPath(page, '/dashboard');
      await page.getByText(SUCCESS_TEXTS.accountCreated).waitFor();
      expect(statuses).toEqual([503, 201]);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }

    const guest = await openJourney(browser(), server().base);
    try {
      const statuses = await busyOnce(guest.page, '/auth/demo');
      await guest.goto('/login');
      await guest.page.getByRole('button', { name: 'Play as guest' }).click();
      await guest.page.getByRole('status').filter({ hasText: SERVER_TEXTS.inLine }).waitFor();
      await guest.page.getByText(waited).waitFor();
      await guest.screenshot('guest-in-line');
      await atPath(guest.page, '/dashboard');
      await guest.page.getByText(SUCCESS_TEXTS.demoLogin).waitFor();
      expect(statuses).toEqual([503, 201]);
      guest.assertNoPageErrors();
    } finally {
      await guest.close();
    }
  });

  it('a verification link without its token says so; forgot-password answers alike for anyone', async () => {
    const journey = await openJourney(browser(), server().base);
    try {
      await journey.goto('/verify-email');
      await journey.page.getByText(VALIDATION_TEXTS.invalidVerificationLink).waitFor();
      await journey.page.getByRole('link', { name: 'Go to Login' }).waitFor();
      await journey.goto('/forgot-password');
      await journey.page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
      await journey.page.getByRole('button', { name: 'Send reset link' }).click();
      await journey.page.getByText('If that address has an account, a password reset email is on its way.').waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
