/**
 * No anonymous CPU exhaustion. Bogus password resets are refused before any hashing,
 * so a login beside a flood of them is answered within a second; the hashing queue is bounded by the
 * wait (a 503 with Retry-After past it), and a login goes ahead of the registrations in it.
 */
import { ABUSE_LIMITS, SERVER_TEXTS } from '@memeslam/protocol';
import { describe, expect, it, vi } from 'vitest';
import { hashQueue, hashesStarted } from '../src/auth/passwords.ts';
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

describe.each(DATABASE_MODES)('anonymous CPU exhaustion on %s', (mode) => {
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

  it('the hashing queue is bounded by the wait: past it a burst is answered 503 with Retry-After at once, and asked again after it every one is answered', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' });
    // A 200 ms line (some 20 hashes on two slots) rather than 10 s: the rule is the same, the burst smaller.
    hashQueue.maxWaitMs = 200;
    try {
      const ask = () =>
        call(server.base, 'POST', '/auth/login', { body: { email: 'nobody@example.com', password: 'guess 1234' } });
      const hashes = hashesStarted();
      // Each unknown login verifies against a decoy hash: one argon2 run per call, all at once.
      const burst = await Promise.all(range(120).map(ask));
      const busy = burst.filter((a) => a.status === 503);
      const checked = burst.filter((a) => a.status === 401);
      expect(checked.length + busy.length).toBe(120);
      expect(busy.length).toBeGreaterThan(0);
      expect(checked.length).toBeGreaterThan(ABUSE_LIMITS.hashesRunning);
      // The refused were refused before any hash (at most one more: the decoy's own, made once).
      expect(hashesStarted() - hashes).toBeLessThanOrEqual(checked.length + 1);
      for (const answer of busy) {
        expect(answer.body).toEqual({ success: false, message: SERVER_TEXTS.serverBusy });
        // Whole seconds, at least one: when the line will be short enough to let it in.
        expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      }
      // Nothing waits without end: each refused one asks again after its Retry-After, as the web app
      // and bench:flash do, and is checked in the end.
      const again = async (answer: Awaited<ReturnType<typeof ask>>): Promise<number> => {
        let rounds = 0;
        while (answer.status === 503) {
          rounds += 1;
          await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after')) * 1000));
          answer = await ask();
        }
        expect(answer.status).toBe(401);
        return rounds;
      };
      const rounds = await Promise.all(busy.map(again));
      expect(Math.max(...rounds)).toBeLessThan(30);
    } finally {
      hashQueue.maxWaitMs = ABUSE_LIMITS.hashWaitMaxMs;
      await server.close();
    }
  }, 120_000);

  it("a registration the hashing line refuses is refused before the network's limit counts it: asked again, it does not run out of its 5 a minute", async () => {
    const server = await boot(mode, { RATE_LIMITS: 'on' });
    try {
      const register = () => call(server.base, 'POST', '/auth/register', { body: newAccount('again') });
      // A line that refuses every newcomer (a bound below any wait).
      hashQueue.maxWaitMs = -1;
      const refused = await Promise.all(range(8).map(register));
      expect(refused.map((a) => a.status)).toEqual(range(8).map(() => 503));
      expect(refused.every((a) => a.headers.get('retry-after') === '1')).toBe(true);
      hashQueue.maxWaitMs = ABUSE_LIMITS.hashWaitMaxMs;
      // The 8 refusals spent none of the network's registrations: 5 go through, the 6th is limited.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await register()).status);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      hashQueue.maxWaitMs = ABUSE_LIMITS.hashWaitMaxMs;
      await server.close();
    }
  }, 120_000);

  it('a login during a burst of 300 registrations goes ahead of them: answered before their line drains, well under 1 s', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' });
    try {
      const account = newAccount('owner');
      expect((await call(server.base, 'POST', '/auth/register', { body: account })).status).toBe(201);
      const crowd = range(300).map(() => newAccount('crowd'));
      const url = `${server.base}/api/auth/register`;
      const registering = flood({ method: 'POST', url, bodies: crowd, count: crowd.length, width: crowd.length });
      // The line is long: at ~10–20 ms a hash on two slots, 100 registrations are a second of hashing.
      await vi.waitFor(() => expect(hashQueue.state.othersWaiting).toBeGreaterThanOrEqual(100), {
        timeout: 30_000,
        interval: 5,
      });
      const ahead = hashQueue.state.othersWaiting;
      const hashes = hashesStarted();
      const { login, loginMs } = await loginBesideFlood(server, account);
      const startedMeanwhile = hashesStarted() - hashes;
      const stillWaiting = hashQueue.state.othersWaiting;
      const answers = await registering;
      expect(login.status).toBe(200);
      expect(loginMs).toBeLessThan(1000);
      // In line behind them it would have waited for all `ahead` to start first.
      expect(startedMeanwhile).toBeLessThan(ahead);
      expect(stillWaiting).toBeGreaterThan(0);
      // Every registration went through, unless the line passed its 10 s bound (a machine busy with
      // other work makes each hash slower): then it was told when to come back.
      expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
      expect(answers.filter((a) => a.status === 503 && !a.retryAfter)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
