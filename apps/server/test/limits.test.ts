/**
 * Limits a second address cannot dodge (docs/limits.md), over real HTTP behind a
 * trusted proxy (the test's own 127.0.0.1, named in TRUST_PROXY) whose X-Forwarded-For names the client:
 * per-address limits count an IPv6 client's whole /64 as one (another /64 counts on its own);
 * change-password and account deletion are limited per account; failed sign-ins are limited per
 * account across every network, and past that only networks that signed in before may try; a
 * direct client cannot name itself in X-Forwarded-For when its address is not a named proxy.
 * Every 429 carries Retry-After.
 */
import { ABUSE_LIMITS, AUTH_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { connectFrom, from } from './helpers/forwarded.ts';
import { Client } from './helpers/sockets.ts';

/** Retry-After of a 429: whole seconds, within the limit's window. */
function expectRetryAfter(headers: Headers, windowMs: number): void {
  const value = headers.get('retry-after');
  expect(value).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(Math.ceil(windowMs / 1000));
}

describe.each(DATABASE_MODES)('limits behind a named proxy on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode, { RATE_LIMITS: 'on', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => server.close());

  /** A registered account, registered from a network of its own (registration is limited per network). */
  const register = async (network: string) => {
    const body = newAccount('lim');
    const res = await call(server.base, 'POST', '/auth/register', { body, headers: from(network) });
    expect(res.status).toBe(201);
    return { ...body, token: res.body.data.token as string };
  };

  it('guests: every address of one IPv6 /64 counts as one; another /64 has its own count', async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= ABUSE_LIMITS.guestsPerIpPerHour + 1; n += 1) {
      // A different address each time, all in 2001:db8:aa:bb::/64 (the last hextets vary).
      const address = `2001:db8:aa:bb:${n.toString(16)}::${(n * 7).toString(16)}`;
      const res = await call(server.base, 'POST', '/auth/demo', { headers: from(address) });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ success: false, message: SERVER_TEXTS.tooManyGuests });
        expectRetryAfter(res.headers, 3_600_000);
      }
    }
    expect(statuses.slice(0, ABUSE_LIMITS.guestsPerIpPerHour).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The neighbouring /64 is someone else.
    expect((await call(server.base, 'POST', '/auth/demo', { headers: from('2001:db8:aa:bc::1') })).status).toBe(201);
  });

  it('registration and sign-in: one /64 shares one count; IPv4 counts per address', async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= 6; n += 1) {
      const res = await call(server.base, 'POST', '/auth/register', {
        body: newAccount('six'),
        headers: from(`2001:db8:cc:dd::${n}`),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(
      (
        await call(server.base, 'POST', '/auth/register', {
          body: newAccount('v6'),
          headers: from('2001:db8:cc:de::1'),
        })
      ).status,
    ).toBe(201);
    expect(
      (await call(server.base, 'POST', '/auth/register', { body: newAccount('v4'), headers: from('198.51.100.200') }))
        .status,
    ).toBe(201);

    const logins: number[] = [];
    for (let n = 1; n <= 11; n += 1) {
      const res = await call(server.base, 'POST', '/auth/login', {
        body: { email: `nobody${n}@example.com`, password: 'wrong password 1' },
        headers: from(`2001:db8:ee:ff:0:0:${n.toString(16)}:1`),
      });
      logins.push(res.status);
      if (res.status === 429) expectRetryAfter(res.headers, 60_000);
    }
    expect(logins.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(logins[10]).toBe(429);
  });

  it(`change-password: 40 wrong tries give ${ABUSE_LIMITS.passwordChecksPerAccount} answers, then 429 with Retry-After`, async () => {
    const account = await register('192.0.2.1');
    const statuses: number[] = [];
    for (let n = 0; n < 40; n += 1) {
      // From a different network each time: the limit is the account's, not the address's.
      const res = await call(server.base, 'POST', '/auth/change-password', {
        token: account.token,
        body: { currentPassword: `guess number ${n}`, newPassword: 'a new password 2' },
        headers: from(`203.0.113.${n + 1}`),
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ success: false, message: AUTH_TEXTS.tooManyPasswordAttempts });
        expectRetryAfter(res.headers, ABUSE_LIMITS.passwordCheckWindowMs);
      }
    }
    const allowed = ABUSE_LIMITS.passwordChecksPerAccount;
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(400));
    expect(statuses.slice(allowed)).toEqual(Array(40 - allowed).fill(429));
    // Another account is not affected.
    const other = await register('192.0.2.2');
    const res = await call(server.base, 'POST', '/auth/change-password', {
      token: other.token,
      body: { currentPassword: other.password, newPassword: 'a new password 2' },
    });
    expect(res.status).toBe(200);
  });

  it('DELETE /auth/account: the same per-account limit; the account stays', async () => {
    const account = await register('192.0.2.3');
    const statuses: number[] = [];
    for (let n = 0; n < ABUSE_LIMITS.passwordChecksPerAccount + 2; n += 1) {
      const res = await call(server.base, 'DELETE', '/auth/account', {
        token: account.token,
        body: { password: `guess number ${n}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expectRetryAfter(res.headers, ABUSE_LIMITS.passwordCheckWindowMs);
    }
    expect(statuses.at(-3)).toBe(400);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect((await call(server.base, 'GET', '/auth/me', { token: account.token })).status).toBe(200);
  });

  it('login: a guess spread over many networks is refused; the owner still signs in from a known network', async () => {
    const account = await register('192.0.2.10');
    const owner = '2001:db8:77:1::5';
    // The owner signed in from home once (that network is remembered).
    const home = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      headers: from(owner),
    });
    expect(home.status).toBe(200);

    const statuses: number[] = [];
    for (let n = 1; n <= ABUSE_LIMITS.loginFailuresPerAccount + 10; n += 1) {
      const res = await call(server.base, 'POST', '/auth/login', {
        body: { email: n % 2 === 0 ? account.email : account.username, password: `guess number ${n}` },
        headers: from(`198.51.100.${n}`),
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ success: false, message: AUTH_TEXTS.tooManyFailedLogins });
        expectRetryAfter(res.headers, ABUSE_LIMITS.loginFailureWindowMs);
      }
    }
    const allowed = ABUSE_LIMITS.loginFailuresPerAccount;
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(401));
    expect(statuses.slice(allowed)).toEqual(Array(10).fill(429));
    // Even the right password from a network never used before waits: the guesser might have it.
    const stranger = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      headers: from('192.0.2.99'),
    });
    expect(stranger.status).toBe(429);
    // The owner, from another address of the home /64, gets in with the right password.
    const ownerLogin = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.username, password: account.password },
      headers: from('2001:db8:77:1:abcd::9'),
    });
    expect(ownerLogin.status).toBe(200);
    expect(ownerLogin.body.data.token).toEqual(expect.any(String));
    // A wrong password from the known network is answered as a wrong password, not 429.
    const typo = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: 'not the password' },
      headers: from(owner),
    });
    expect(typo.status).toBe(401);
  });

  it(`login: 30 wrong sign-ins at once from 30 networks get at most ${ABUSE_LIMITS.loginFailuresPerAccount} password checks; the rest 429`, async () => {
    const account = await register('192.0.2.30');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        call(server.base, 'POST', '/auth/login', {
          body: { email: n % 2 === 0 ? account.email : account.username, password: `parallel guess ${n}` },
          headers: from(`2001:db8:30:${(n + 1).toString(16)}::1`),
        }),
      ),
    );
    const wrong = answers.filter((res) => res.status === 401);
    const refused = answers.filter((res) => res.status === 429);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.length).toBeLessThanOrEqual(ABUSE_LIMITS.loginFailuresPerAccount);
    expect(wrong.length + refused.length).toBe(30);
    for (const res of refused) {
      expect(res.body).toEqual({ success: false, message: AUTH_TEXTS.tooManyFailedLogins });
      expectRetryAfter(res.headers, ABUSE_LIMITS.loginFailureWindowMs);
    }
    // The attempts refused were not counted as failures, and none is left over: no guess gets through now.
    const next = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: 'one more guess' },
      headers: from('2001:db8:30:ff::1'),
    });
    expect(next.status).toBe(wrong.length < ABUSE_LIMITS.loginFailuresPerAccount ? 401 : 429);
  });

  it('login: a right password gives its counted attempt back; a wrong one keeps it', async () => {
    const account = await register('192.0.2.31');
    const signIn = (password: string, network: string) =>
      call(server.base, 'POST', '/auth/login', { body: { email: account.email, password }, headers: from(network) });
    // Right passwords at once, from networks of their own, add no failure...
    const rights = await Promise.all(
      Array.from({ length: 5 }, (_, n) => signIn(account.password, `2001:db8:31:${n + 1}::1`)),
    );
    expect(rights.map((res) => res.status)).toEqual(Array(5).fill(200));
    // ...so all 10 wrong ones are still checked, one after another, and the 11th is refused.
    const statuses: number[] = [];
    for (let n = 1; n <= ABUSE_LIMITS.loginFailuresPerAccount + 1; n += 1) {
      statuses.push((await signIn(`wrong ${n}`, `203.0.113.${130 + n}`)).status);
    }
    expect(statuses).toEqual([...Array(ABUSE_LIMITS.loginFailuresPerAccount).fill(401), 429]);
    // A network that signed in before still may try, and its right password is let in.
    expect((await signIn(account.password, '2001:db8:31:1::2')).status).toBe(200);
  });

  it('a password change forgets every other known network: one that signed in with the old password waits like a stranger', async () => {
    const account = await register('192.0.2.20');
    const thief = '203.0.113.5';
    // A network that signed in with the password (a thief who had it) is known...
    const stolen = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      headers: from(thief),
    });
    expect(stolen.status).toBe(200);
    // ...until the owner changes the password from home: home is then the only known network.
    const newPassword = 'a changed password 7';
    const changed = await call(server.base, 'POST', '/auth/change-password', {
      token: account.token,
      body: { currentPassword: account.password, newPassword },
      headers: from('2001:db8:88:1::1'),
    });
    expect(changed.status).toBe(200);
    for (let n = 1; n <= ABUSE_LIMITS.loginFailuresPerAccount; n += 1) {
      const res = await call(server.base, 'POST', '/auth/login', {
        body: { email: account.email, password: `guess number ${n}` },
        headers: from(`198.51.100.${100 + n}`),
      });
      expect(res.status).toBe(401);
    }
    const fromThief = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: newPassword },
      headers: from(thief),
    });
    expect(fromThief.status).toBe(429);
    const fromHome = await call(server.base, 'POST', '/auth/login', {
      body: { email: account.email, password: newPassword },
      headers: from('2001:db8:88:1::2'),
    });
    expect(fromHome.status).toBe(200);
  });

  it(`sockets: ${ABUSE_LIMITS.socketsPerIp} per network; more addresses of the /64 are refused, another /64 is not`, async () => {
    const perUser = ABUSE_LIMITS.socketsPerUser;
    const tokens: string[] = [];
    for (let n = 0; n <= ABUSE_LIMITS.socketsPerIp / perUser; n += 1)
      tokens.push((await register(`198.18.0.${n + 1}`)).token);
    const clients: Client[] = [];
    try {
      for (let i = 0; i < ABUSE_LIMITS.socketsPerIp; i += 1) {
        const address = `2001:db8:5:5:${(i + 1).toString(16)}::${(i * 3 + 1).toString(16)}`;
        const client = await connectFrom(server.base, tokens[Math.floor(i / perUser)] as string, address);
        expect(client).toBeInstanceOf(Client);
        clients.push(client as Client);
      }
      const last = tokens.at(-1) as string;
      expect(await connectFrom(server.base, last, '2001:db8:5:5:ffff:ffff:ffff:ffff')).toBe(
        SERVER_TEXTS.tooManyConnections,
      );
      const elsewhere = await connectFrom(server.base, last, '2001:db8:5:6::1');
      expect(elsewhere).toBeInstanceOf(Client);
      clients.push(elsewhere as Client);
    } finally {
      clients.forEach((c) => c.close());
    }
  });

  it('login: a login naming no account is limited the same way (nothing tells them apart)', async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= ABUSE_LIMITS.loginFailuresPerAccount + 1; n += 1) {
      const res = await call(server.base, 'POST', '/auth/login', {
        body: { email: 'no-such-person@example.com', password: `guess number ${n}` },
        headers: from(`192.0.2.${100 + n}`),
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-2)).toBe(401);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe.each(DATABASE_MODES)('TRUST_PROXY naming another proxy on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    // The test connects from 127.0.0.1, which is not the named proxy: its X-Forwarded-For is ignored.
    server = await boot(mode, { RATE_LIMITS: 'on', TRUST_PROXY: '10.0.0.5' });
  });
  afterAll(() => server.close());

  it('a direct client cannot fake X-Forwarded-For: every guess of an address counts as its own', async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= ABUSE_LIMITS.guestsPerIpPerHour + 1; n += 1) {
      const res = await call(server.base, 'POST', '/auth/demo', { headers: from(`203.0.113.${n}, 10.0.0.5`) });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
