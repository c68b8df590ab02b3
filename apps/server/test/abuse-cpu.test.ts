/**
 * No anonymous CPU exhaustion. Bogus password resets are refused before any hashing,
 * so a login beside a flood of them is answered within a second; the hashing queue is bounded.
 */
import { ABUSE_LIMITS, SERVER_TEXTS } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { hashesStarted } from '../src/auth/passwords.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { flood } from './helpers/flood.ts';
import { range } from './helpers/pool.ts';

/** Where the floods go: the password reset of the server under test. */
const resets = (server: Booted) => ({ method: 'POST' as const, url: `${server.base}/api/auth/reset-password` });

/**
 * A login sent while a flood is under way, and how long it took (margin: 1 s; a hash takes ~50 ms, a
 * login queued behind the flood's hashes seconds). The flood comes from a worker thread (helpers/flood.ts)
 * and this file runs after the rest of the suite, with nothing beside it (the "quiet" project in
 * vitest.config.ts): the bound is the server's, not the test client's nor a busy machine's.
 */
async function loginBesideFlood(server: Booted, account: { email: string; password: string }) {
  const started = performance.now();
  const login = await call(server.base, 'POST', '/auth/login', {
    body: { email: account.email, password: account.password },
  });
  return { login, loginMs: performance.now() - started };
}

describe.each(DATABASE_MODES)('anonymous CPU exhaustion (item 2) on %s', (mode) => {
  it('1,500 bogus password resets from one IP: refused without hashing, and a login meanwhile takes ≤ 1 s', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'on' });
    try {
      const account = newAccount('victim');
      expect((await call(server.base, 'POST', '/auth/register', { body: account })).status).toBe(201);
      const bogus = { token: 'a'.repeat(64), password: 'a new password 1' };
      const hashes = hashesStarted();
      const flooding = flood({ ...resets(server), body: bogus, count: 1500, width: 50 });
      const { login, loginMs } = await loginBesideFlood(server, account);
      const statuses = (await flooding).map((answer) => answer.status);
      expect(login.status).toBe(200);
      expect(loginMs).toBeLessThanOrEqual(1000);
      // The login's own verification was the only hash: the flood started none.
      expect(hashesStarted() - hashes).toBe(1);
      expect(statuses.filter((s) => s === 400)).toHaveLength(ABUSE_LIMITS.resetPasswordPerIpPerHour);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1500 - ABUSE_LIMITS.resetPasswordPerIpPerHour);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('the token is checked before the hash: with no rate limit, 1,500 bogus resets never reach the hashing queue', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' });
    try {
      const account = newAccount('victim');
      expect((await call(server.base, 'POST', '/auth/register', { body: account })).status).toBe(201);
      const bogus = { token: 'b'.repeat(64), password: 'a new password 1' };
      const hashes = hashesStarted();
      const flooding = flood({ ...resets(server), body: bogus, count: 1500, width: 50 });
      const { login, loginMs } = await loginBesideFlood(server, account);
      const answers = await flooding;
      expect(login.status).toBe(200);
      expect(loginMs).toBeLessThanOrEqual(1000);
      expect(hashesStarted() - hashes).toBe(1);
      // A hash per call would have filled the queue (503s); every one was refused for its token.
      expect(answers.every((a) => a.status === 400)).toBe(true);
      expect(answers[0]?.body).toEqual({ success: false, message: SERVER_TEXTS.invalidOrExpiredToken });
    } finally {
      await server.close();
    }
  }, 120_000);

  it('the hashing queue is bounded: a burst beyond it is answered 503 "Server busy" at once, nothing waits without end', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' });
    try {
      const account = newAccount('owner');
      expect((await call(server.base, 'POST', '/auth/register', { body: account })).status).toBe(201);
      // Each unknown login verifies against a decoy hash: one argon2 run per call, all at once.
      const burst = await Promise.all(
        range(200).map(() =>
          call(server.base, 'POST', '/auth/login', { body: { email: 'nobody@example.com', password: 'guess 1234' } }),
        ),
      );
      const busy = burst.filter((a) => a.status === 503);
      expect(burst.every((a) => a.status === 401 || a.status === 503)).toBe(true);
      expect(busy.length).toBeGreaterThan(0);
      expect(burst.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(ABUSE_LIMITS.hashesQueued);
      expect(busy[0]?.body).toEqual({ success: false, message: SERVER_TEXTS.serverBusy });
      // Once the burst is through, the owner signs in.
      const login = await call(server.base, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 120_000);
});
