/** Every account route over real HTTP, success and error paths, on each database mode. */
import { AUTH_TEXTS, SERVER_TEXTS, SUCCESS_TEXTS, VALIDATION_TEXTS, userSchema } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';

describe.each(DATABASE_MODES)('accounts on %s', (mode) => {
  let server: Booted;
  let base: string;
  beforeAll(async () => {
    server = await boot(mode);
    base = server.base;
  });
  afterAll(() => server.close());

  async function register(account = newAccount()) {
    const res = await call(base, 'POST', '/auth/register', { body: account });
    expect(res.status).toBe(201);
    return { ...account, token: res.body.data.token as string, user: res.body.data.user };
  }

  describe('register', () => {
    it('creates an account and signs it in, with the protocol user shape', async () => {
      const account = newAccount();
      const res = await call(base, 'POST', '/auth/register', { body: account });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.message).toBe(SUCCESS_TEXTS.accountCreated);
      const user = userSchema.parse(res.body.data.user);
      expect(user).toMatchObject({
        username: account.username,
        email: account.email,
        role: 'user',
        canAccessAdmin: false,
        emailVerified: false,
        isGuest: false,
        preferences: { sound: true, animations: true, autoPlay: false },
        level: 1,
        achievements: [],
        stats: { gamesPlayed: 0, gamesWon: 0, winRate: 0, totalPoints: 0, fastestGame: null },
        wallet: { balance: 0, totalWon: 0 },
      });
      expect(res.body.data.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
    });

    it('stores e-mail addresses trimmed and lower-cased', async () => {
      const account = newAccount();
      const res = await call(base, 'POST', '/auth/register', {
        body: { ...account, email: `  ${account.email.toUpperCase()} ` },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.user.email).toBe(account.email);
    });

    it('refuses a taken username (any case) or e-mail with 409', async () => {
      const first = await register();
      const sameName = await call(base, 'POST', '/auth/register', {
        body: { ...newAccount(), username: first.username.toUpperCase() },
      });
      expect(sameName.status).toBe(409);
      expect(sameName.body).toEqual({
        success: false,
        message: SERVER_TEXTS.usernameTaken,
        errors: [{ path: 'username', message: SERVER_TEXTS.usernameTaken }],
      });
      const sameMail = await call(base, 'POST', '/auth/register', { body: { ...newAccount(), email: first.email } });
      expect(sameMail.status).toBe(409);
      expect(sameMail.body.message).toBe(SERVER_TEXTS.emailTaken);
      expect(sameMail.body.errors).toEqual([{ path: 'email', message: SERVER_TEXTS.emailTaken }]);
    });

    it('settles a race for one username: one 201, one 409, one row', async () => {
      const account = newAccount();
      const results = await Promise.all(
        [0, 1, 2].map((k) =>
          call(base, 'POST', '/auth/register', { body: { ...account, email: `race${k}-${account.email}` } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it.each([
      [{ username: 'ab', email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameTooShort],
      [{ username: 'a'.repeat(21), email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameTooLong],
      [{ username: 'bad name!', email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameCharacters],
      [{ username: 'Zoë_', email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameCharacters],
      [{ username: 'abc\u200b', email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameCharacters],
      [
        { username: "x'; DROP TABLE users;--", email: 'a@b.co', password: 'long secret' },
        VALIDATION_TEXTS.usernameTooLong,
      ],
      [{ username: 'valid_1', email: 'not-an-email', password: 'long secret' }, VALIDATION_TEXTS.emailInvalid],
      [{ username: 'valid_1', email: 'a@b.co', password: '12345' }, VALIDATION_TEXTS.passwordTooShort],
      [{ username: 'valid_1', email: 'a@b.co' }, VALIDATION_TEXTS.passwordRequired],
      [{ email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameRequired],
      [{ username: 42, email: 'a@b.co', password: 'long secret' }, VALIDATION_TEXTS.usernameRequired],
      [{ username: 'valid_1', email: 'a@b.co', password: 'long secret', role: 'superadmin' }, 'Unknown field: role'],
    ])('answers %j with 422 "%s" and stores nothing', async (body, message) => {
      const res = await call(base, 'POST', '/auth/register', { body });
      expect(res.status).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toBe(message);
      expect(res.body.errors).toContainEqual(expect.objectContaining({ message }));
      const login = await call(base, 'POST', '/auth/login', { body: { email: 'valid_1', password: 'long secret' } });
      expect(login.status).toBe(401);
    });

    it('answers malformed JSON, a wrong content type and an oversized body with a 4xx', async () => {
      const malformed = await call(base, 'POST', '/auth/register', { body: '{"username": "abc",' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ success: false, message: 'Malformed JSON body' });
      const notJson = await call(base, 'POST', '/auth/register', {
        body: 'username=abc',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(notJson.status).toBe(415);
      expect(notJson.body.success).toBe(false);
      const huge = await call(base, 'POST', '/auth/register', { body: { ...newAccount(), pad: 'x'.repeat(200_000) } });
      expect(huge.status).toBe(413);
      expect(huge.body).toEqual({ success: false, message: 'Request body is too large' });
      const array = await call(base, 'POST', '/auth/register', { body: [1, 2] });
      expect(array.status).toBe(422);
      const nothing = await call(base, 'POST', '/auth/register', {});
      expect(nothing.status).toBe(422);
    });
  });

  describe('login', () => {
    it('signs in by e-mail or by username (any case) with the protocol texts', async () => {
      const account = await register();
      for (const login of [
        account.email,
        account.username,
        account.username.toUpperCase(),
        account.email.toUpperCase(),
      ]) {
        const res = await call(base, 'POST', '/auth/login', { body: { email: login, password: account.password } });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe(SUCCESS_TEXTS.loggedIn);
        expect(res.body.data.user.id).toBe(account.user.id);
        const me = await call(base, 'GET', '/auth/me', { token: res.body.data.token });
        expect(me.body.data.user.username).toBe(account.username);
      }
    });

    it('refuses a wrong password and an unknown account alike', async () => {
      const account = await register();
      const wrong = await call(base, 'POST', '/auth/login', { body: { email: account.email, password: 'nope nope' } });
      const unknown = await call(base, 'POST', '/auth/login', { body: { email: 'ghost@example.com', password: 'x' } });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ success: false, message: AUTH_TEXTS.invalidCredentials });
      }
    });

    it('checks the two fields with the login form texts', async () => {
      const noLogin = await call(base, 'POST', '/auth/login', { body: { email: '  ', password: 'x' } });
      expect(noLogin.status).toBe(422);
      expect(noLogin.body.message).toBe(VALIDATION_TEXTS.emailOrUsernameRequired);
      const noPassword = await call(base, 'POST', '/auth/login', { body: { email: 'someone' } });
      expect(noPassword.body.message).toBe(VALIDATION_TEXTS.passwordRequired);
    });
  });

  describe('sessions', () => {
    it('GET /auth/me needs a valid token', async () => {
      const none = await call(base, 'GET', '/auth/me');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ success: false, message: SERVER_TEXTS.authenticationRequired });
      for (const token of ['garbage', 'a.b.c', `${(await register()).token}x`]) {
        const bad = await call(base, 'GET', '/auth/me', { token });
        expect(bad.status).toBe(401);
        expect(bad.body.success).toBe(false);
      }
    });

    it('GET with the client timestamp parameter works', async () => {
      const account = await register();
      const res = await call(base, 'GET', `/auth/me?_t=${Date.now()}`, { token: account.token });
      expect(res.status).toBe(200);
    });

    it('refresh issues a fresh working token', async () => {
      const account = await register();
      const res = await call(base, 'POST', '/auth/refresh', { token: account.token });
      expect(res.status).toBe(200);
      expect((await call(base, 'GET', '/auth/me', { token: res.body.data.token })).status).toBe(200);
    });

    it('logout revokes every token issued before it', async () => {
      const account = await register();
      const second = await call(base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      const res = await call(base, 'POST', '/auth/logout', { token: account.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: SUCCESS_TEXTS.loggedOut });
      for (const token of [account.token, second.body.data.token]) {
        expect((await call(base, 'GET', '/auth/me', { token })).status).toBe(401);
      }
      const again = await call(base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect((await call(base, 'GET', '/auth/me', { token: again.body.data.token })).status).toBe(200);
    });
  });

  describe('profile', () => {
    it('changes the username and merges preferences', async () => {
      const account = await register();
      const newName = `${account.username.slice(0, 15)}_new`;
      const res = await call(base, 'PUT', '/auth/profile', {
        token: account.token,
        body: { username: newName, preferences: { sound: false } },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(SUCCESS_TEXTS.profileUpdated);
      expect(res.body.data.user).toMatchObject({
        username: newName,
        preferences: { sound: false, animations: true, autoPlay: false },
      });
      const more = await call(base, 'PUT', '/auth/profile', {
        token: account.token,
        body: { preferences: { autoPlay: true } },
      });
      expect(more.body.data.user.preferences).toEqual({ sound: false, animations: true, autoPlay: true });
      const me = await call(base, 'GET', '/auth/me', { token: account.token });
      expect(me.body.data.user.username).toBe(newName);
    });

    it('refuses an e-mail change, a taken username, bad preferences', async () => {
      const account = await register();
      const other = await register();
      const email = await call(base, 'PUT', '/auth/profile', {
        token: account.token,
        body: { email: 'new@example.com' },
      });
      expect(email.status).toBe(422);
      expect(email.body.message).toBe(VALIDATION_TEXTS.emailCannotBeChanged);
      const taken = await call(base, 'PUT', '/auth/profile', {
        token: account.token,
        body: { username: other.username },
      });
      expect(taken.status).toBe(409);
      const prefs = await call(base, 'PUT', '/auth/profile', {
        token: account.token,
        body: { preferences: { sound: 'yes' } },
      });
      expect(prefs.status).toBe(422);
      const me = await call(base, 'GET', '/auth/me', { token: account.token });
      expect(me.body.data.user).toMatchObject({ username: account.username, email: account.email });
      expect((await call(base, 'PUT', '/auth/profile', { body: { username: 'whoever' } })).status).toBe(401);
    });
  });

  describe('demo', () => {
    it('creates a guest Guest_XXXX that is signed in', async () => {
      const res = await call(base, 'POST', '/auth/demo');
      expect(res.status).toBe(201);
      expect(res.body.message).toBe(SUCCESS_TEXTS.demoLogin);
      expect(res.body.data.user.username).toMatch(/^Guest_[A-Z2-9]{4}$/);
      expect(res.body.data.user.isGuest).toBe(true);
      expect((await call(base, 'GET', '/auth/me', { token: res.body.data.token })).status).toBe(200);
      const other = await call(base, 'POST', '/auth/demo', { body: {} });
      expect(other.body.data.user.id).not.toBe(res.body.data.user.id);
      const login = await call(base, 'POST', '/auth/login', {
        body: { email: res.body.data.user.username, password: 'x' },
      });
      expect(login.status).toBe(401);
    });
  });

  describe('a guest becomes an account', () => {
    it('keeps its id, games, stats and level, takes a name, address and password, and signs in with them', async () => {
      const guest = (await call(base, 'POST', '/auth/demo')).body.data;
      // A guest made long ago: as an account it is new (its age starts at the upgrade, docs/fair-play.md).
      const longAgo = new Date(Date.now() - 30 * 86_400_000);
      await server.app.db
        .update(users)
        .set({ gamesPlayed: 7, gamesWon: 3, totalPoints: 420, createdAt: longAgo })
        .where(eq(users.id, guest.user.id));
      const before = (await call(base, 'GET', '/auth/me', { token: guest.token })).body.data.user;
      const account = newAccount('kept');
      const res = await call(base, 'POST', '/auth/upgrade', { token: guest.token, body: account });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(SERVER_TEXTS.guestUpgraded);
      const user = userSchema.parse(res.body.data.user);
      expect(user).toMatchObject({
        id: guest.user.id,
        username: account.username,
        email: account.email,
        isGuest: false,
      });
      expect(user.stats).toEqual(before.stats);
      expect(user.level).toBe(before.level);
      expect(user.emailVerified).toBe(false);
      const [row] = await server.app.db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, user.id));
      expect(Date.now() - row!.createdAt.getTime()).toBeLessThan(60_000);
      // The upgrade raised the token version: the guest token is dead, the answer's token works.
      expect((await call(base, 'GET', '/auth/me', { token: guest.token })).status).toBe(401);
      expect((await call(base, 'GET', '/auth/me', { token: res.body.data.token })).status).toBe(200);
      const login = await call(base, 'POST', '/auth/login', {
        body: { email: account.username, password: account.password },
      });
      expect(login.status).toBe(200);
      expect(login.body.data.user.id).toBe(guest.user.id);

      // Once an account, never again; a taken name is refused on its field, as at registration.
      const again = await call(base, 'POST', '/auth/upgrade', {
        token: res.body.data.token,
        body: newAccount('twice'),
      });
      expect(again).toMatchObject({ status: 409, body: { message: SERVER_TEXTS.notAGuest } });
      const other = (await call(base, 'POST', '/auth/demo')).body.data;
      const taken = await call(base, 'POST', '/auth/upgrade', {
        token: other.token,
        body: { ...newAccount('taken'), username: account.username },
      });
      expect(taken).toMatchObject({ status: 409, body: { message: SERVER_TEXTS.usernameTaken } });
      expect((await call(base, 'POST', '/auth/upgrade', { body: newAccount('anon') })).status).toBe(401);
    });

    it('two concurrent upgrades of one guest: exactly one wins, the other gets 409, the guest token is dead', async () => {
      for (let round = 0; round < 3; round += 1) {
        const guest = (await call(base, 'POST', '/auth/demo')).body.data;
        const [a, b] = [newAccount('racea'), newAccount('raceb')];
        const answers = await Promise.all([
          call(base, 'POST', '/auth/upgrade', { token: guest.token, body: a }),
          call(base, 'POST', '/auth/upgrade', { token: guest.token, body: b }),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
        const winner = answers.find((answer) => answer.status === 200)!;
        const loser = answers.find((answer) => answer.status === 409)!;
        expect(loser.body).toMatchObject({ success: false, message: SERVER_TEXTS.notAGuest });
        const won = answers[0]!.status === 200 ? a : b;
        const lost = won === a ? b : a;
        expect(winner.body.data.user).toMatchObject({ id: guest.user.id, username: won.username, isGuest: false });
        expect((await call(base, 'GET', '/auth/me', { token: guest.token })).status).toBe(401);
        const me = await call(base, 'GET', '/auth/me', { token: winner.body.data.token });
        expect(me.body.data.user).toMatchObject({ username: won.username, email: won.email });
        const [row] = await server.app.db.select().from(users).where(eq(users.id, guest.user.id));
        expect(row).toMatchObject({ username: won.username, isGuest: false });
        const loserLogin = await call(base, 'POST', '/auth/login', {
          body: { email: lost.username, password: lost.password },
        });
        expect(loserLogin.status).toBe(401);
      }
    });
  });

  describe('change password', () => {
    it('needs the current password, then revokes older tokens and returns a fresh one', async () => {
      const account = await register();
      const wrong = await call(base, 'POST', '/auth/change-password', {
        token: account.token,
        body: { currentPassword: 'not it', newPassword: 'brand new pass' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(SERVER_TEXTS.currentPasswordIncorrect);
      const short = await call(base, 'POST', '/auth/change-password', {
        token: account.token,
        body: { currentPassword: account.password, newPassword: '123' },
      });
      expect(short.status).toBe(422);
      expect(short.body.message).toBe(VALIDATION_TEXTS.passwordTooShort);
      const res = await call(base, 'POST', '/auth/change-password', {
        token: account.token,
        body: { currentPassword: account.password, newPassword: 'brand new pass' },
      });
      expect(res.status).toBe(200);
      expect((await call(base, 'GET', '/auth/me', { token: account.token })).status).toBe(401);
      expect((await call(base, 'GET', '/auth/me', { token: res.body.data.token })).status).toBe(200);
      const old = await call(base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(old.status).toBe(401);
      const fresh = await call(base, 'POST', '/auth/login', {
        body: { email: account.email, password: 'brand new pass' },
      });
      expect(fresh.status).toBe(200);
    });
  });

  describe('export and delete', () => {
    it('exports the account as JSON without secrets', async () => {
      const account = await register();
      const res = await call(base, 'GET', '/auth/export', { token: account.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(res.body.data).toMatchObject({
        user: { id: account.user.id, email: account.email },
        games: [],
        walletLedger: [],
        tournaments: [],
      });
      expect(JSON.stringify(res.body)).not.toMatch(/argon2|passwordHash|tokenVersion/);
    });

    it('deletes an account after its password, and the name becomes free', async () => {
      const account = await register();
      const wrong = await call(base, 'DELETE', '/auth/account', { token: account.token, body: { password: 'wrong' } });
      expect(wrong.status).toBe(400);
      expect((await call(base, 'GET', '/auth/me', { token: account.token })).status).toBe(200);
      const res = await call(base, 'DELETE', '/auth/account', {
        token: account.token,
        body: { password: account.password },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(SERVER_TEXTS.accountDeleted);
      expect((await call(base, 'GET', '/auth/me', { token: account.token })).status).toBe(401);
      const login = await call(base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(401);
      const { username, email, password } = account;
      const again = await call(base, 'POST', '/auth/register', { body: { username, email, password } });
      expect(again.status).toBe(201);
    });

    it('deletes a guest account without a password', async () => {
      const guest = await call(base, 'POST', '/auth/demo');
      const res = await call(base, 'DELETE', '/auth/account', { token: guest.body.data.token });
      expect(res.status).toBe(200);
    });
  });

  it('answers unknown API paths with the protocol 404 text', async () => {
    const res = await call(base, 'GET', '/auth/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Resource not found: /api/auth/nothing' });
  });
});

describe.each(DATABASE_MODES)('a guest upgrade with e-mail verification required on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode, { REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(() => server.close());

  it('answers exactly as registration does: no session until the mailed link is used, then the account signs in', async () => {
    const base = server.base;
    const guest = (await call(base, 'POST', '/auth/demo')).body.data;
    const account = newAccount('pending');
    const res = await call(base, 'POST', '/auth/upgrade', { token: guest.token, body: account });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      requiresEmailVerification: true,
      message: SUCCESS_TEXTS.registrationCheckEmail,
      data: { email: account.email },
    });
    // No working session anywhere: the guest token is dead and the account is not verified.
    expect((await call(base, 'GET', '/auth/me', { token: guest.token })).status).toBe(401);
    const refused = await call(base, 'POST', '/auth/login', {
      body: { email: account.username, password: account.password },
    });
    expect(refused.body).toEqual({
      success: false,
      message: AUTH_TEXTS.verifyBeforeLogin,
      requiresEmailVerification: true,
      email: account.email,
    });
    const [row] = await server.app.db.select().from(users).where(eq(users.id, guest.user.id));
    expect(row).toMatchObject({ isGuest: false, emailVerifiedAt: null, username: account.username });

    // The mailed link (dev outbox) verifies the address; the account then signs in with its password.
    let link: string | undefined;
    await expect
      .poll(async () => {
        const mails = await server.app.db.select().from(outbox).where(eq(outbox.to, account.email));
        link = mails.find((mail) => mail.link?.includes('/verify-email'))?.link ?? undefined;
        return link;
      })
      .toBeDefined();
    const token = new URL(link as string).searchParams.get('token') as string;
    const verified = await call(base, 'POST', '/auth/verify-email', { body: { token } });
    expect(verified.body).toEqual({ success: true, data: null, message: AUTH_TEXTS.emailVerified });
    const login = await call(base, 'POST', '/auth/login', {
      body: { email: account.username, password: account.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ id: guest.user.id, emailVerified: true, isGuest: false });
  });
});
