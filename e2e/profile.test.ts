/** The profile in a real browser: username edit and cancel, preferences saved to the server, and the account actions. */
import { randomBytes } from 'node:crypto';
import { AUTH_TEXTS, SUCCESS_TEXTS, VALIDATION_TEXTS } from '@memeslam/protocol';
import { expect, it } from 'vitest';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('profile', () => {
  const browser = useBrowser();
  const server = useServer();

  it('edits the username, saves preferences, changes the password, exports and deletes the account', async () => {
    const username = `pf_${randomBytes(3).toString('hex')}`;
    const password = 'first secret 1';
    await fetch(`${server().base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.com`, password }),
    });
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/login');
      await page.getByLabel('Email or username', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await atPath(page, '/dashboard');

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await atPath(page, '/profile');
      await page.getByText(VALIDATION_TEXTS.emailCannotBeChanged).waitFor();
      await page.getByText(AUTH_TEXTS.noRecentGames).waitFor();
      await page.getByLabel('First Game: locked').waitFor();

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Username', { exact: true }).fill('ab');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(VALIDATION_TEXTS.usernameTooShort).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText(username, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Edit' }).click();
      const renamed = `${username}_x`;
      await page.getByLabel('Username', { exact: true }).fill(renamed);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(SUCCESS_TEXTS.profileUpdated).first().waitFor();
      await page.getByRole('button', { name: 'Account menu' }).getByText(renamed).waitFor();

      const sound = page.getByRole('switch', { name: 'Sound Effects' });
      expect(await sound.isChecked()).toBe(true);
      await sound.click();
      await expect.poll(() => sound.isChecked()).toBe(false);
      await page.reload();
      await expect.poll(() => page.getByRole('switch', { name: 'Sound Effects' }).isChecked()).toBe(false);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export Data' }).click();
      expect((await download).suggestedFilename()).toBe('memeslam-account.json');

      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByLabel('Current password', { exact: true }).fill(password);
      await page.getByLabel('New password', { exact: true }).fill('second secret 2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed successfully').waitFor();
      await journey.screenshot('profile');

      await page.getByRole('button', { name: 'Delete Account' }).click();
      await page.getByRole('dialog').getByLabel('Password', { exact: true }).fill('second secret 2');
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await atPath(page, '/');
      const login = await fetch(`${server().base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: renamed, password: 'second secret 2' }),
      });
      expect(login.status).toBe(401);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
