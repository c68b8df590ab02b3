/**
 * Sessions in the browser: when the server cannot check the token during the socket handshake (its
 * database is away) it answers with a server error marked `retry`; the app keeps its session, stays
 * where it is and connects again by itself, well before its 15 s connect limit would have. A session
 * revoked elsewhere loses its socket at once, and the tab signs out, saying "Session expired. Please
 * login again." (docs/accounts.md).
 */
import { eq } from 'drizzle-orm';
import {
  CONNECTION_TEXTS,
  HTTP_TEXTS,
  type HandshakeRefusal,
  SERVER_TEXTS,
  SESSION_EXPIRED_REDIRECT_MS,
} from '@memeslam/protocol';
import { outbox } from '../apps/server/src/db/schema.ts';
import { expect, it } from 'vitest';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('sessions', () => {
  const browser = useBrowser();
  const server = useServer();

  it('a server error in the socket handshake keeps the session and is retried', async () => {
    const account = await registerAccount(server().base, 'retry');
    const journey = await openJourney(browser(), server().base);
    const { page, context } = journey;
    // The first two socket.io CONNECT packets are answered the way the server answers a database
    // error during authentication; the rest go through to the real server.
    let refused = 0;
    await context.routeWebSocket(/\/socket\.io\//, (ws) => {
      const real = ws.connectToServer();
      ws.onMessage((message) => {
        if (typeof message === 'string' && message.startsWith('40') && refused < 2) {
          refused += 1;
          const data = { code: 'INTERNAL_ERROR', retry: true } satisfies HandshakeRefusal;
          ws.send(`44${JSON.stringify({ message: SERVER_TEXTS.internalError, data })}`);
          return;
        }
        real.send(message);
      });
    });
    try {
      await signIn(journey, account);
      await journey.goto('/dashboard');
      await expect.poll(() => refused).toBe(2);
      // Connected after the retries (a second apart), within 10 s: before, the app waited out its
      // 15 s connect limit and then its 5 s recovery poll.
      await page.locator('p[role="status"]', { hasText: CONNECTION_TEXTS.connected }).waitFor({ timeout: 10_000 });
      await atPath(page, '/dashboard');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(account.token);
      await journey.screenshot('sessions-handshake-retried');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a session revoked elsewhere (a password change on another device) signs the open tab out', async () => {
    const account = await registerAccount(server().base, 'revoked');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await signIn(journey, account);
      await journey.goto('/dashboard');
      await page.locator('p[role="status"]', { hasText: CONNECTION_TEXTS.connected }).waitFor();
      const changed = await fetch(`${server().base}/api/auth/change-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ currentPassword: account.password, newPassword: 'changed elsewhere 9' }),
      });
      expect(changed.status).toBe(200);
      // The server closed the tab's socket; its new handshake is refused, so the tab signs out (a full
      // load of /login, which remembers where the user was).
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('token')).catch(() => 'loading'), { timeout: 20_000 })
        .toBeNull();
      await atPath(page, '/login');
      await page.getByLabel('Email or username', { exact: true }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('a password reset in one browser: the other, signed in, says "Session expired. Please login again." and goes to /login', async () => {
    const account = await registerAccount(server().base, 'expired');
    const signedIn = await openJourney(browser(), server().base);
    const other = await openJourney(browser(), server().base);
    try {
      await signIn(signedIn, account);
      await signedIn.goto('/dashboard');
      await signedIn.page.locator('p[role="status"]', { hasText: CONNECTION_TEXTS.connected }).waitFor();

      // The second browser (not signed in) asks for a reset link and sets a new password with it.
      await other.goto('/forgot-password');
      await other.page.getByLabel('Email', { exact: true }).fill(account.user.email);
      await other.page.getByRole('button', { name: 'Send reset link' }).click();
      await other.page.getByRole('status').getByText(SERVER_TEXTS.resetMailSent).waitFor();
      let link: string | null = null;
      await expect
        .poll(async () => {
          const mails = await server().app.db.select().from(outbox).where(eq(outbox.to, account.user.email));
          link = mails.find((mail) => mail.link?.includes('/reset-password'))?.link ?? null;
          return link;
        })
        .not.toBeNull();
      const url = new URL(link as unknown as string);
      await other.goto(`${url.pathname}${url.search}`);
      await other.page.getByLabel('New password', { exact: true }).fill('reset elsewhere 8');
      await other.page.getByLabel('Confirm password', { exact: true }).fill('reset elsewhere 8');
      await other.page.getByRole('button', { name: 'Set new password' }).click();
      await other.page.getByText(SERVER_TEXTS.passwordReset).waitFor();

      // The first browser's socket was closed by the server; its session check answers 401.
      const { page } = signedIn;
      await page.getByText(HTTP_TEXTS.sessionExpired).waitFor({ timeout: 10_000 });
      const shownAt = Date.now();
      await signedIn.screenshot('sessions-expired-toast');
      await atPath(page, '/login');
      expect(Date.now() - shownAt).toBeLessThan(SESSION_EXPIRED_REDIRECT_MS + 5_000);
      expect(new URL(page.url()).searchParams.get('from')).toBe('/dashboard');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.getByLabel('Email or username', { exact: true }).waitFor();
      signedIn.assertNoPageErrors();
      other.assertNoPageErrors();
    } finally {
      await signedIn.close();
      await other.close();
    }
  });
});
