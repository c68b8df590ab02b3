/**
 * Sessions, tokens and the password rule over real HTTP and real sockets: a revoked session's sockets close and
 * cannot act; refresh rotates; tokens need `exp`; the password rule; the login limit keyed by account
 * and address; forgot and resend answer alike in time; every error in the envelope; spectator-less
 * games hidden from outsiders; hidden characters refused in names; a database error in the handshake
 * is a server error the client may retry.
 */
import { request as httpRequest } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import {
  AUTH_TEXTS,
  HTTP_TEXTS,
  LOBBY_TEXTS,
  SERVER_TEXTS,
  VALIDATION_TEXTS,
  resourceNotFoundText,
} from '@memeslam/protocol';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_VERSION_RECHECK_MS } from '../src/auth/token-versions.ts';
import { outbox, users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, adminUrl, boot, call, newAccount } from './helpers/boot.ts';
import { type Client, connect } from './helpers/sockets.ts';

async function register(base: string, prefix: string) {
  const account = newAccount(prefix);
  const res = await call(base, 'POST', '/auth/register', { body: account });
  expect(res.status).toBe(201);
  return { ...account, token: res.body.data.token as string, id: res.body.data.user.id as string };
}

/** Resolves with the reason once the server has closed the client's socket. */
function closed(client: Client): Promise<string> {
  if (!client.socket.connected) return Promise.resolve('already closed');
  return new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
}

/** A JSON POST from a chosen loopback address (127.0.0.x), to tell clients apart by IP. */
function postFrom(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<{ status: number; body: { success: boolean; message?: string } }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Raw bytes to the server; resolves with everything it answered before closing. */
function raw(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(port), hostname, () => socket.end(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe.each(DATABASE_MODES)('sessions and accounts on %s', (mode) => {
  let server: Booted;
  const open: Client[] = [];
  const socket = async (token: string) => {
    const client = await connect(server.base, token);
    open.push(client);
    return client;
  };
  beforeAll(async () => {
    server = await boot(mode);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await server.close();
  });

  describe('a revoked session ends its live sockets', () => {
    it('logout closes every socket of the user, and the token no longer connects', async () => {
      const me = await register(server.base, 'logout');
      const [tab1, tab2] = [await socket(me.token), await socket(me.token)];
      const other = await register(server.base, 'bystander');
      const bystander = await socket(other.token);
      const gone = [closed(tab1 as Client), closed(tab2 as Client)];
      expect((await call(server.base, 'POST', '/auth/logout', { token: me.token })).status).toBe(200);
      expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
      expect(bystander.socket.connected).toBe(true);
      await expect(connect(server.base, me.token)).rejects.toThrow(SERVER_TEXTS.authenticationFailed);
    });

    it('a password change closes the sockets; the new token connects', async () => {
      const me = await register(server.base, 'change');
      const tab = await socket(me.token);
      const gone = closed(tab);
      const changed = await call(server.base, 'POST', '/auth/change-password', {
        token: me.token,
        body: { currentPassword: me.password, newPassword: 'another long secret' },
      });
      expect(changed.status).toBe(200);
      expect(await gone).toBe('io server disconnect');
      const fresh = await socket(changed.body.data.token);
      expect(fresh.socket.connected).toBe(true);
    });

    it('a password reset by mail closes the sockets; a common new password is refused and the link stays usable', async () => {
      const me = await register(server.base, 'reset');
      const tab = await socket(me.token);
      expect((await call(server.base, 'POST', '/auth/forgot-password', { body: { email: me.email } })).status).toBe(
        200,
      );
      // The mail is sent after the answer: wait for it in the dev outbox.
      let link: string | null = null;
      while (!link) {
        const mails = await server.app.db.select().from(outbox).where(eq(outbox.to, me.email));
        link = mails.find((mail) => mail.link?.includes('/reset-password'))?.link ?? null;
        if (!link) await new Promise((resolve) => setImmediate(resolve));
      }
      const token = new URL(link).searchParams.get('token') as string;
      const common = await call(server.base, 'POST', '/auth/reset-password', {
        body: { token, password: 'password123' },
      });
      expect(common.body).toMatchObject({ success: false, message: VALIDATION_TEXTS.passwordTooCommon });
      expect(tab.socket.connected).toBe(true);
      const gone = closed(tab);
      const reset = await call(server.base, 'POST', '/auth/reset-password', {
        body: { token, password: 'a brand new secret' },
      });
      expect(reset.status).toBe(200);
      expect(await gone).toBe('io server disconnect');
    });

    it("a guest upgrade closes the guest's sockets; the guest token no longer connects, the new one does", async () => {
      const guest = (await call(server.base, 'POST', '/auth/demo')).body.data;
      const tab = await socket(guest.token);
      const gone = closed(tab);
      const upgraded = await call(server.base, 'POST', '/auth/upgrade', {
        token: guest.token,
        body: newAccount('upgraded'),
      });
      expect(upgraded.status).toBe(200);
      expect(await gone).toBe('io server disconnect');
      await expect(connect(server.base, guest.token)).rejects.toThrow(SERVER_TEXTS.authenticationFailed);
      const fresh = await socket(upgraded.body.data.token);
      expect(fresh.socket.connected).toBe(true);
    });

    it("a deleted account's socket is closed and cannot join a stranger's lobby", async () => {
      const stranger = await register(server.base, 'stranger');
      const host = await socket(stranger.token);
      const lobby = await host.emit('createGame', {});
      expect(lobby.success).toBe(true);
      const me = await register(server.base, 'deleted');
      const tab = await socket(me.token);
      const gone = closed(tab);
      const deleted = await call(server.base, 'DELETE', '/auth/account', {
        token: me.token,
        body: { password: me.password },
      });
      expect(deleted.status).toBe(200);
      expect(await gone).toBe('io server disconnect');
      await expect(connect(server.base, me.token)).rejects.toThrow(SERVER_TEXTS.authenticationFailed);
      const game = await call(server.base, 'GET', `/game/${lobby.data.gameId}`, { token: stranger.token });
      expect(game.body.data.game.players).toHaveLength(1);
    });

    it('a socket whose token was revoked elsewhere (no disconnect reached it) is refused when it acts', async () => {
      const me = await register(server.base, 'elsewhere');
      const tab = await socket(me.token);
      // Acting, then a whole window of the node's sweeps (one a second, time is what they wait for):
      // it has read the token epoch and trusts the version it holds, so only the epoch's move can
      // tell it of what follows.
      expect((await tab.emit('getPowerUpStatus')).error).not.toBe(SERVER_TEXTS.authenticationFailed);
      await new Promise((resolve) => setTimeout(resolve, TOKEN_VERSION_RECHECK_MS + 200));
      // What another node's revocation leaves behind: a raised version, and no fan-out to this node.
      await server.app.db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, me.id));
      const gone = closed(tab);
      let ack = await tab.emit('getPowerUpStatus');
      // The version is re-read within TOKEN_VERSION_RECHECK_MS; until then the socket may still act.
      while (ack.error !== SERVER_TEXTS.authenticationFailed) {
        expect(tab.socket.connected).toBe(true);
        ack = await tab.emit('getPowerUpStatus');
      }
      expect(ack).toEqual({ success: false, error: SERVER_TEXTS.authenticationFailed, code: 'AUTHENTICATION_FAILED' });
      expect(await gone).toBe('io server disconnect');
    });
  });

  describe('tokens', () => {
    it('refresh rotates: the new token works, the old one is refused, its sockets closed', async () => {
      const me = await register(server.base, 'refresh');
      const tab = await socket(me.token);
      const gone = closed(tab);
      const refreshed = await call(server.base, 'POST', '/auth/refresh', { token: me.token });
      expect(refreshed.status).toBe(200);
      const next = refreshed.body.data.token as string;
      expect(next).not.toBe(me.token);
      expect(await gone).toBe('io server disconnect');
      expect((await call(server.base, 'GET', '/auth/me', { token: me.token })).status).toBe(401);
      expect((await call(server.base, 'POST', '/auth/refresh', { token: me.token })).status).toBe(401);
      expect((await call(server.base, 'GET', '/auth/me', { token: next })).status).toBe(200);
    });

    it('a correctly signed token without exp is refused, over HTTP and the socket', async () => {
      const me = await register(server.base, 'noexp');
      const key = new TextEncoder().encode(server.config.jwtSecret);
      const forever = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(me.id)
        .setIssuer('memeslam')
        .setIssuedAt()
        .sign(key);
      const withExp = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(me.id)
        .setIssuer('memeslam')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
      // The same token with an expiry is accepted: only the missing `exp` is at fault.
      expect((await call(server.base, 'GET', '/auth/me', { token: withExp })).status).toBe(200);
      const refused = await call(server.base, 'GET', '/auth/me', { token: forever });
      expect(refused.status).toBe(401);
      expect(refused.body.success).toBe(false);
      await expect(connect(server.base, forever)).rejects.toThrow(SERVER_TEXTS.authenticationFailed);
    });
  });

  describe('passwords', () => {
    const body = (password: string, prefix = 'pw') => ({ ...newAccount(prefix), password });

    it('fewer than 8 characters is refused with the "at least N characters" text', async () => {
      const res = await call(server.base, 'POST', '/auth/register', { body: body('seven77') });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Password must be at least 8 characters');
      expect(VALIDATION_TEXTS.passwordTooShort).toBe('Password must be at least 8 characters');
    });

    it('the username or the e-mail address as password is refused, whatever the case', async () => {
      const account = newAccount('same');
      for (const password of [account.username.toUpperCase(), account.email]) {
        const res = await call(server.base, 'POST', '/auth/register', { body: { ...account, password } });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ success: false, message: VALIDATION_TEXTS.passwordIsAccountName });
      }
    });

    it('a common password is refused on register, reset and change; an uncommon one is fine', async () => {
      for (const password of ['password123', 'QWERTYUIOP', 'iloveyou1']) {
        const res = await call(server.base, 'POST', '/auth/register', { body: body(password) });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({
          success: false,
          message: VALIDATION_TEXTS.passwordTooCommon,
          errors: [{ path: 'password', message: VALIDATION_TEXTS.passwordTooCommon }],
        });
      }
      const me = await register(server.base, 'uncommon');
      const change = await call(server.base, 'POST', '/auth/change-password', {
        token: me.token,
        body: { currentPassword: me.password, newPassword: 'sunshine' },
      });
      expect(change.status).toBe(422);
      expect(change.body.errors).toEqual([{ path: 'newPassword', message: VALIDATION_TEXTS.passwordTooCommon }]);
      const toName = await call(server.base, 'POST', '/auth/change-password', {
        token: me.token,
        body: { currentPassword: me.password, newPassword: me.email },
      });
      expect(toName.body.message).toBe(VALIDATION_TEXTS.passwordIsAccountName);
      // Nothing changed: the session is still the same.
      expect((await call(server.base, 'GET', '/auth/me', { token: me.token })).status).toBe(200);
    });
  });

  describe('every error answer is the envelope', () => {
    const envelope = { success: false, message: expect.any(String) };

    it('404, 413, 415 and malformed JSON', async () => {
      const missing = await call(server.base, 'GET', '/no/such/route');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ success: false, message: resourceNotFoundText('/api/no/such/route') });
      const big = await call(server.base, 'POST', '/auth/login', {
        body: { email: 'x'.repeat(70 * 1024), password: 'x' },
      });
      expect(big.status).toBe(413);
      expect(big.body).toEqual(envelope);
      const text = await call(server.base, 'POST', '/auth/login', {
        body: '<email>a</email>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(text.status).toBe(415);
      expect(text.body).toEqual(envelope);
      const broken = await call(server.base, 'POST', '/auth/login', { body: '{"email":' });
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({ success: false, message: 'Malformed JSON body' });
    });

    it('a bodiless POST with a JSON content type is taken as empty', async () => {
      const me = await register(server.base, 'bodiless');
      const res = await call(server.base, 'POST', '/auth/logout', {
        token: me.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const login = await call(server.base, 'POST', '/auth/login', {
        headers: { 'content-type': 'application/json' },
      });
      expect(login.status).toBe(422);
      expect(login.body).toMatchObject(envelope);
    });

    it("Fastify's own answers before routing and to broken HTTP", async () => {
      const badUrl = await call(server.base, 'GET', '/game/%E0%A4%A');
      expect(badUrl.status).toBe(400);
      expect(badUrl.body).toEqual(envelope);
      const answer = await raw(server.base, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        success: false,
        message: HTTP_TEXTS.invalidRequest,
      });
    });
  });

  describe('smaller ones', () => {
    it('a game without spectators is hidden from GET /api/game/:id to non-members', async () => {
      const host = await register(server.base, 'private');
      const outsider = await register(server.base, 'outsider');
      const hostSocket = await socket(host.token);
      const created = await hostSocket.emit('createGame', { allowSpectators: false });
      expect(created.success).toBe(true);
      const { gameId, roomCode } = created.data;
      for (const key of [gameId, roomCode]) {
        const hidden = await call(server.base, 'GET', `/game/${key}`, { token: outsider.token });
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual({ success: false, message: LOBBY_TEXTS.gameNotFound });
        expect((await call(server.base, 'GET', `/game/${key}`, { token: host.token })).status).toBe(200);
      }
      // Once the outsider joins the lobby, they are a member and see it.
      expect(
        (await call(server.base, 'POST', '/game/join', { token: outsider.token, body: { roomCode } })).status,
      ).toBe(200);
      expect((await call(server.base, 'GET', `/game/${gameId}`, { token: outsider.token })).status).toBe(200);
      expect((await hostSocket.emit('leaveGame')).success).toBe(true);

      const open = await register(server.base, 'public');
      const openSocket = await socket(open.token);
      const visible = await openSocket.emit('createGame', { allowSpectators: true });
      const stranger = await register(server.base, 'watcher');
      expect((await call(server.base, 'GET', `/game/${visible.data.gameId}`, { token: stranger.token })).status).toBe(
        200,
      );
    });

    it('bot and user names refuse bidirectional overrides and zero-width characters', async () => {
      const me = await register(server.base, 'names');
      const tab = await socket(me.token);
      for (const name of ['Evil\u202Egnp', 'Zero\u200Bwidth', '\u2066Iso\u2069', 'Joiner\u200D']) {
        const ack = await tab.emit('createGame', {
          botSettings: { enabled: true, numberOfBots: 1, botPersonalities: [name] },
        });
        expect(ack).toEqual({
          success: false,
          error: VALIDATION_TEXTS.nameHiddenCharacters,
          code: 'INVALID_PAYLOAD',
        });
        const res = await call(server.base, 'POST', '/auth/register', {
          body: { ...newAccount('bidi'), username: `abc${name}`.slice(0, 20) },
        });
        expect(res.status).toBe(422);
        expect(res.body.message).toBe(VALIDATION_TEXTS.usernameCharacters);
      }
      const fine = await tab.emit('createGame', {
        botSettings: { enabled: true, numberOfBots: 1, botPersonalities: ['Zoë the Bot'] },
      });
      expect(fine.success).toBe(true);
      expect(fine.data.game.players.map((p: { username: string }) => p.username)).toContain('Zoë the Bot');
    });
  });
});

describe.each(DATABASE_MODES)('the per-account login limit on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode, { RATE_LIMITS: 'on' });
  });
  afterAll(() => server.close());

  it('counts username and e-mail as one account, and does not lock its owner out from an address they signed in from', async () => {
    const account = newAccount('locked');
    expect((await call(server.base, 'POST', '/auth/register', { body: account })).status).toBe(201);
    const url = `${server.base}/api/auth/login`;
    // The owner's address is known (docs/limits.md): guesses that pass the per-account failure limit
    // leave only known networks able to try.
    expect((await postFrom('127.0.0.4', url, { email: account.email, password: account.password })).status).toBe(200);
    const logins = [account.username, account.email.toUpperCase(), account.username.toLowerCase(), account.email];
    for (let i = 0; i < 10; i += 1) {
      const res = await postFrom('127.0.0.3', url, { email: logins[i % logins.length], password: `guess ${i}` });
      expect(res.status).toBe(401);
    }
    const locked = await postFrom('127.0.0.3', url, { email: account.email, password: account.password });
    expect(locked).toEqual({ status: 429, body: { success: false, message: AUTH_TEXTS.tooManyLoginAttempts } });
    const owner = await postFrom('127.0.0.4', url, { email: account.username, password: account.password });
    expect(owner.status).toBe(200);
    expect(owner.body.success).toBe(true);
  });
});

describe('a database error in the socket handshake', () => {
  let server: Booted;
  let database = '';
  const admin = async (statement: string) => {
    const connection = new pg.Client({ connectionString: adminUrl() });
    await connection.connect();
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };
  beforeAll(async () => {
    server = await boot('embedded');
    database = new URL(server.config.databaseUrl as string).pathname.slice(1);
  });
  afterAll(async () => {
    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => {});
    await server.close();
  });

  it('is a server error the client may retry, not "Authentication failed"; the same token connects later', async () => {
    const me = await register(server.base, 'dbdown');
    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
    const refused = await connect(server.base, me.token).then(
      () => null,
      (error: Error & { data?: unknown }) => error,
    );
    expect(refused?.message).toBe(SERVER_TEXTS.internalError);
    expect(refused?.data).toEqual({ code: 'INTERNAL_ERROR', retry: true });
    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    const client = await connect(server.base, me.token);
    expect(client.socket.connected).toBe(true);
    client.close();
  });
});
