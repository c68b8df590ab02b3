/** Rate limits (429 with the protocol's texts), password hashing parameters and token handling. */
import { parseOptions } from '@node-rs/argon2';
import { AUTH_TEXTS, HTTP_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/auth/passwords.ts';
import { SessionTokens } from '../src/auth/tokens.ts';
import { users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';

describe.each(DATABASE_MODES)('rate limits on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode, { RATE_LIMITS: 'on' });
  });
  afterAll(() => server.close());

  it('login: the 11th attempt on one account within a minute gets 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await call(server.base, 'POST', '/auth/login', {
        body: { email: 'target@example.com', password: `guess${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body).toEqual({ success: false, message: AUTH_TEXTS.tooManyLoginAttempts });
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('login: per IP too, across accounts (the count above already used ten of them)', async () => {
    const res = await call(server.base, 'POST', '/auth/login', { body: { email: 'other@example.com', password: 'x' } });
    expect(res.status).toBe(429);
  });

  it('register: the 6th within a minute from one IP gets 429 and creates nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await call(server.base, 'POST', '/auth/register', { body: newAccount('limit') })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const last = await call(server.base, 'POST', '/auth/register', { body: newAccount('limit') });
    expect(last.body).toEqual({ success: false, message: HTTP_TEXTS.tooManyRequests });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const rows = await server.app.db.select().from(users);
    expect(rows).toHaveLength(5);
  });

  it('resend and forgot: 3 an hour per address, each counted on its own', async () => {
    for (const path of ['/auth/resend-verification', '/auth/forgot-password']) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await call(server.base, 'POST', path, { body: { email: 'Someone@Example.com' } })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await call(server.base, 'POST', path, { body: { email: 'else@example.com' } })).status).toBe(200);
    }
  });
});

describe('password hashing', () => {
  it('uses argon2id with at least OWASP m=19 MiB, t=2, p=1', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    const options = parseOptions(hash);
    expect(options.memoryCost).toBeGreaterThanOrEqual(19_456);
    expect(options.timeCost).toBeGreaterThanOrEqual(2);
    expect(options.parallelism).toBe(1);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });

  it('keeps the event loop free while hashing a burst', async () => {
    // The loop turns (three times, each an immediate queued by the last) while the burst is hashed.
    // Hashing on the loop's thread would finish the burst first, with no turn in between. (Counting
    // 5 ms timer ticks instead depended on how long the burst took on a busy machine.)
    let turns = 0;
    const turn = () => {
      turns += 1;
      if (turns < 3) setImmediate(turn);
    };
    setImmediate(turn);
    await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password ${i}`)));
    expect(turns).toBe(3);
  });
});

describe('session tokens', () => {
  const tokens = new SessionTokens('s'.repeat(48));

  it('round-trips HS256 claims with a 7-day expiry', async () => {
    const token = await tokens.sign({ userId: 'u1', tokenVersion: 3 });
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload.exp - payload.iat).toBe(7 * 24 * 60 * 60);
    expect(await tokens.verify(token)).toEqual({ userId: 'u1', tokenVersion: 3 });
  });

  it('refuses another key, another algorithm, an expired token and garbage', async () => {
    const other = await new SessionTokens('t'.repeat(48)).sign({ userId: 'u1', tokenVersion: 0 });
    expect(await tokens.verify(other)).toBeNull();
    const key = new TextEncoder().encode('s'.repeat(48));
    const expired = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('memeslam')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    expect(await tokens.verify(expired)).toBeNull();
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"u1","ver":0,"iss":"memeslam"}').toString('base64url')}.`;
    expect(await tokens.verify(unsigned)).toBeNull();
    expect(await tokens.verify('')).toBeNull();
  });
});

describe.each(DATABASE_MODES)('roles on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode);
  });
  afterAll(() => server.close());

  it('canAccessAdmin is true for superadmin, admin and moderator only', async () => {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount('role') });
    const { token, user } = res.body.data;
    for (const [role, access] of [
      ['superadmin', true],
      ['admin', true],
      ['moderator', true],
      ['user', false],
    ] as const) {
      await server.app.db.update(users).set({ role }).where(eq(users.id, user.id));
      const me = await call(server.base, 'GET', '/auth/me', { token });
      expect(me.body.data.user).toMatchObject({ role, canAccessAdmin: access });
    }
  });
});
