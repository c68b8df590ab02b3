/**
 * Verification, resend and password reset end to end: the server sends real mail over SMTP to a
 * server in this process, and the test follows the links it reads there. Then the dev outbox.
 */
import { AUTH_TEXTS, SERVER_TEXTS, SUCCESS_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, outbox, users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { type TestSmtp, linkToken, startSmtp } from './helpers/smtp.ts';

describe.each(DATABASE_MODES)('mail flows over SMTP on %s', (mode) => {
  let server: Booted;
  let smtp: TestSmtp;
  let base: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    // With SMTP_URL set, verification is required by default.
    server = await boot(mode, { SMTP_URL: smtp.url });
    base = server.base;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('requires verification: register, refused login, verify by the mailed link (which signs nobody in), then sign in', async () => {
    expect(server.config.requireEmailVerification).toBe(true);
    const account = newAccount('verify');
    const res = await call(base, 'POST', '/auth/register', { body: account });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      requiresEmailVerification: true,
      message: SUCCESS_TEXTS.registrationCheckEmail,
      data: { email: account.email },
    });

    const mail = await smtp.next(account.email);
    expect(mail.subject).toContain('Verify');
    expect(mail.text).toContain(`http://memeslam.test/verify-email?token=`);
    expect(mail.html).toContain('href="http://memeslam.test/verify-email?token=');

    const refused = await call(base, 'POST', '/auth/login', {
      body: { email: account.username, password: account.password },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      success: false,
      message: AUTH_TEXTS.verifyBeforeLogin,
      requiresEmailVerification: true,
      email: account.email,
    });

    const verified = await call(base, 'POST', '/auth/verify-email', {
      body: { token: linkToken(mail, 'verify-email') },
    });
    // A mailed link is not a key to the account: it verifies the address and hands out no session.
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true, data: null, message: AUTH_TEXTS.emailVerified });
    expect(JSON.stringify(verified.body)).not.toMatch(/token/i);

    const again = await call(base, 'POST', '/auth/verify-email', { body: { token: linkToken(mail, 'verify-email') } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(SERVER_TEXTS.invalidOrExpiredToken);

    const login = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user.emailVerified).toBe(true);
  });

  it('resend sends a new link and retires the old one', async () => {
    const account = newAccount('resend');
    await call(base, 'POST', '/auth/register', { body: account });
    const first = await smtp.next(account.email);
    const res = await call(base, 'POST', '/auth/resend-verification', { body: { email: account.email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: SUCCESS_TEXTS.verificationSentInbox });
    const second = await smtp.next(account.email);
    expect(linkToken(second, 'verify-email')).not.toBe(linkToken(first, 'verify-email'));
    const old = await call(base, 'POST', '/auth/verify-email', { body: { token: linkToken(first, 'verify-email') } });
    expect(old.status).toBe(400);
    const fresh = await call(base, 'POST', '/auth/verify-email', {
      body: { token: linkToken(second, 'verify-email') },
    });
    expect(fresh.status).toBe(200);
  });

  it('resend answers alike for unknown addresses and sends nothing; an empty address gets the page text', async () => {
    const before = smtp.mails.length;
    const res = await call(base, 'POST', '/auth/resend-verification', { body: { email: 'nobody@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(SUCCESS_TEXTS.verificationSentInbox);
    const empty = await call(base, 'POST', '/auth/resend-verification', { body: { email: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Please enter your email address');
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses unknown, missing and expired verification tokens', async () => {
    const missing = await call(base, 'POST', '/auth/verify-email', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe('Invalid verification link. Please check your email for the correct link.');
    const unknown = await call(base, 'POST', '/auth/verify-email', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(400);

    const account = newAccount('expired');
    await call(base, 'POST', '/auth/register', { body: account });
    const mail = await smtp.next(account.email);
    await expireTokens(account.email);
    const expired = await call(base, 'POST', '/auth/verify-email', {
      body: { token: linkToken(mail, 'verify-email') },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(SERVER_TEXTS.invalidOrExpiredToken);
  });

  it('password reset: mail, new password works, old sessions end, link is single-use', async () => {
    const account = newAccount('reset');
    await call(base, 'POST', '/auth/register', { body: account });
    const verification = await smtp.next(account.email);
    await call(base, 'POST', '/auth/verify-email', { body: { token: linkToken(verification, 'verify-email') } });
    const session = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(session.status).toBe(200);

    const res = await call(base, 'POST', '/auth/forgot-password', { body: { email: account.email } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(SERVER_TEXTS.resetMailSent);
    const mail = await smtp.next(account.email);
    expect(mail.subject).toContain('Reset');
    const token = linkToken(mail, 'reset-password');

    const short = await call(base, 'POST', '/auth/reset-password', { body: { token, password: '123' } });
    expect(short.status).toBe(422);
    const reset = await call(base, 'POST', '/auth/reset-password', { body: { token, password: 'a fresh secret' } });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(SERVER_TEXTS.passwordReset);

    expect((await call(base, 'GET', '/auth/me', { token: session.body.data.token })).status).toBe(401);
    const oldLogin = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: 'a fresh secret' },
    });
    expect(newLogin.status).toBe(200);
    const reused = await call(base, 'POST', '/auth/reset-password', { body: { token, password: 'another one' } });
    expect(reused.status).toBe(400);
  });

  it('a password change retires every unused mailed link: a reset link mailed before it no longer works', async () => {
    const account = newAccount('changed');
    await call(base, 'POST', '/auth/register', { body: account });
    await call(base, 'POST', '/auth/verify-email', {
      body: { token: linkToken(await smtp.next(account.email), 'verify-email') },
    });
    const session = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    await call(base, 'POST', '/auth/forgot-password', { body: { email: account.email } });
    const resetToken = linkToken(await smtp.next(account.email), 'reset-password');
    const changed = await call(base, 'POST', '/auth/change-password', {
      token: session.body.data.token,
      body: { currentPassword: account.password, newPassword: 'changed in between 7' },
    });
    expect(changed.status).toBe(200);
    const late = await call(base, 'POST', '/auth/reset-password', {
      body: { token: resetToken, password: 'the thief wants this 1' },
    });
    expect(late).toMatchObject({ status: 400, body: { message: SERVER_TEXTS.invalidOrExpiredToken } });
    const login = await call(base, 'POST', '/auth/login', {
      body: { email: account.email, password: 'changed in between 7' },
    });
    expect(login.status).toBe(200);
  });

  it('forgot-password answers alike for unknown addresses and sends nothing', async () => {
    const before = smtp.mails.length;
    const res = await call(base, 'POST', '/auth/forgot-password', { body: { email: 'nobody@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(SERVER_TEXTS.resetMailSent);
    expect(smtp.mails.length).toBe(before);
  });

  it('stores only hashes of link tokens', async () => {
    const account = newAccount('hashed');
    await call(base, 'POST', '/auth/register', { body: account });
    const token = linkToken(await smtp.next(account.email), 'verify-email');
    const rows = await server.app.db.select().from(emailTokens);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.tokenHash).not.toContain(token);
    expect(rows.map((r) => r.tokenHash)).toContainEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
  });

  /** Moves an account's link expiry into the past, as 24 hours of waiting would. */
  async function expireTokens(email: string) {
    const [user] = await server.app.db.select().from(users).where(eq(users.email, email));
    await server.app.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, user!.id));
  }
});

describe.each(DATABASE_MODES)('dev outbox on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode);
  });
  afterAll(() => server.close());

  it('stores each mail with its link when no SMTP_URL is set; verification is optional', async () => {
    expect(server.config.requireEmailVerification).toBe(false);
    const account = newAccount('outbox');
    const res = await call(server.base, 'POST', '/auth/register', { body: account });
    expect(res.status).toBe(201);
    expect(res.body.data.token).toBeTruthy();
    const mails = await server.app.db.select().from(outbox).where(eq(outbox.to, account.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link).toMatch(/^http:\/\/memeslam\.test\/verify-email\?token=/);
    expect(mails[0]!.text).toContain(mails[0]!.link!);
  });

  it('a reset ends every session and every link issued before it: an unused verify link no longer works', async () => {
    const account = newAccount('beforereset');
    const registered = await call(server.base, 'POST', '/auth/register', { body: account });
    const oldToken = registered.body.data.token as string;
    const verifyLink = await mailedLink(account.email, '/verify-email');
    expect((await call(server.base, 'POST', '/auth/forgot-password', { body: { email: account.email } })).status).toBe(
      200,
    );
    const resetLink = await mailedLink(account.email, '/reset-password');
    const reset = await call(server.base, 'POST', '/auth/reset-password', {
      body: { token: tokenOf(resetLink), password: 'reset by the owner 5' },
    });
    expect(reset.status).toBe(200);

    expect((await call(server.base, 'GET', '/auth/me', { token: oldToken })).status).toBe(401);
    const verify = await call(server.base, 'POST', '/auth/verify-email', { body: { token: tokenOf(verifyLink) } });
    expect(verify).toMatchObject({ status: 400, body: { message: SERVER_TEXTS.invalidOrExpiredToken } });
    const rows = await server.app.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.userId, registered.body.data.user.id as string));
    expect(rows.map((row) => row.usedAt)).not.toContain(null);
  });

  /** The newest link to that page mailed to the address (the mail is sent after the answer). */
  async function mailedLink(to: string, page: '/verify-email' | '/reset-password'): Promise<string> {
    const find = async () => {
      const mails = await server.app.db.select().from(outbox).where(eq(outbox.to, to));
      return mails.find((mail) => mail.link && new URL(mail.link).pathname === page)?.link ?? null;
    };
    await expect.poll(find).not.toBeNull();
    return (await find()) as string;
  }

  function tokenOf(link: string): string {
    return new URL(link).searchParams.get('token') as string;
  }
});
