/**
 * The HTTP rate limits count across nodes in cluster mode (@fastify/rate-limit's
 * Redis store, keys under the cluster's prefix) and let requests through while Redis is away.
 * An IPv6 client's /64 is one count on every node, and so are an account's password
 * checks and failed sign-ins (docs/limits.md).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { ABUSE_LIMITS, AUTH_TEXTS } from '@memeslam/protocol';
import { afterEach, expect, it } from 'vitest';
import { type Counts, redisCounts } from '../src/cluster/counts.ts';
import type { ClusterRedis } from '../src/cluster/redis.ts';
import { installErrorHandler, unauthorized } from '../src/http/errors.ts';
import { installRateLimits } from '../src/http/rate-limits.ts';
import { clusterName, describeRedis, node, unreachableNode } from './helpers/redis.ts';

const opened: { app: FastifyInstance; cluster: ClusterRedis; counts: Counts }[] = [];
afterEach(async () => {
  for (const { app, cluster, counts } of opened.splice(0)) {
    await app.close();
    await counts.close();
    await cluster.close();
  }
});

/** Sign-ins whose password checks wait here until the test lets them go (so they are all checked at once). */
const held = { checking: 0, changed: () => {}, release: Promise.resolve() };

/** A node's HTTP side: one route limited like sign-in per IP (10 a minute). */
async function httpNode(cluster: ClusterRedis): Promise<FastifyInstance> {
  const counts = redisCounts(cluster, `node-${opened.length}`);
  const app = Fastify();
  installErrorHandler(app);
  const limit = await installRateLimits(app, true, counts.httpLimits);
  app.post('/sign-in', async (request) => {
    await limit(request, 'loginPerIp');
    return { success: true };
  });
  // Password checks of account `acct`, and its sign-ins (the password is "right"); no network is known.
  app.post('/check', async (request) => {
    await limit.passwordCheck(request, 'acct');
    return { success: true };
  });
  app.post('/login', async (request) => {
    const right = (request.body as { password?: string } | undefined)?.password === 'right';
    return limit.login(request, { id: 'acct' }, 'acct', async () => {
      held.checking += 1;
      held.changed();
      await held.release;
      if (!right) throw unauthorized(AUTH_TEXTS.invalidCredentials);
      return { success: true };
    });
  });
  // What the sign-in asks of the database: whether a network is known (none is), and remembering one.
  const rows = { limit: async () => [], onConflictDoUpdate: async () => {} };
  app.decorate('db', {
    select: () => ({ from: () => ({ where: () => rows }) }),
    insert: () => ({ values: () => rows }),
  } as never);
  opened.push({ app, cluster, counts });
  return app;
}

const signIn = async (app: FastifyInstance) => (await app.inject({ method: 'POST', url: '/sign-in' })).statusCode;

describeRedis('HTTP rate limits in Redis', () => {
  it('two nodes share one count per limit and client, kept under the cluster prefix', async () => {
    const name = clusterName();
    const cluster = await node(name);
    const [a, b] = [await httpNode(cluster), await httpNode(await node(name))];
    const answers: number[] = [];
    for (let i = 0; i < 5; i += 1) answers.push(await signIn(a), await signIn(b));
    expect(answers).toEqual(Array(10).fill(200));
    expect([await signIn(a), await signIn(b)]).toEqual([429, 429]);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await cluster.commands.scan(cursor, 'MATCH', `${cluster.key('counts', 'http')}:*`);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    expect(keys.length).toBe(1);
    expect(keys[0]).toContain('login-ip:127.0.0.1');
  });

  it('one IPv6 /64 is one count on every node; the key names the /64', async () => {
    const name = clusterName();
    const cluster = await node(name);
    const [a, b] = [await httpNode(cluster), await httpNode(await node(name))];
    const from = (app: FastifyInstance, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/sign-in', remoteAddress }).then((r) => r.statusCode);
    const answers: number[] = [];
    for (let i = 1; i <= 5; i += 1)
      answers.push(await from(a, `2001:db8:1:2::${i}`), await from(b, `2001:db8:1:2:${i}::1`));
    expect(answers).toEqual(Array(10).fill(200));
    expect(await from(a, '2001:db8:1:2:ffff::ffff')).toBe(429);
    expect(await from(b, '2001:db8:1:3::1')).toBe(200);
    const [, keys] = await cluster.commands.scan('0', 'MATCH', `${cluster.key('counts', 'http')}:*/64`, 'COUNT', 1000);
    // (@fastify/rate-limit's child store puts its own part before the limit's key.)
    expect(keys.map((key) => key.slice(key.indexOf('login-ip:'))).sort()).toEqual([
      'login-ip:2001:db8:1:2::/64',
      'login-ip:2001:db8:1:3::/64',
    ]);
  });

  it("an account's password checks and failed sign-ins count on every node; a read does not count", async () => {
    const name = clusterName();
    const [a, b] = [await httpNode(await node(name)), await httpNode(await node(name))];
    const post = (app: FastifyInstance, url: string, remoteAddress: string, password = 'wrong') =>
      app.inject({ method: 'POST', url, remoteAddress, payload: { password } });
    const checks: number[] = [];
    for (let i = 0; i <= ABUSE_LIMITS.passwordChecksPerAccount; i += 1) {
      checks.push((await post(i % 2 ? a : b, '/check', `192.0.2.${i + 1}`)).statusCode);
    }
    expect(checks).toEqual([...Array(ABUSE_LIMITS.passwordChecksPerAccount).fill(200), 429]);
    // Right passwords give their counted attempt back: they add no failure.
    for (let i = 0; i < 3; i += 1) expect((await post(a, '/login', '198.51.100.1', 'right')).statusCode).toBe(200);
    const logins: number[] = [];
    for (let i = 0; i <= ABUSE_LIMITS.loginFailuresPerAccount; i += 1) {
      logins.push((await post(i % 2 ? a : b, '/login', `203.0.113.${i + 1}`)).statusCode);
    }
    expect(logins).toEqual([...Array(ABUSE_LIMITS.loginFailuresPerAccount).fill(401), 429]);
    const refused = await post(b, '/login', '203.0.113.200', 'right');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('failed sign-ins sent at once to two nodes: at most the limit are checked, the rest 429; right ones add none', async () => {
    const name = clusterName();
    const [a, b] = [await httpNode(await node(name)), await httpNode(await node(name))];
    const post = (app: FastifyInstance, remoteAddress: string, password = 'wrong') =>
      app.inject({ method: 'POST', url: '/login', remoteAddress, payload: { password } });
    // Right passwords at once give their counted attempts back.
    const rights = await Promise.all([1, 2, 3, 4].map((i) => post(i % 2 ? a : b, `198.51.100.${i}`, 'right')));
    expect(rights.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    // The password checks wait until every sign-in is either being checked or refused.
    let release = () => {};
    held.release = new Promise((resolve) => (release = resolve));
    held.checking = 0;
    let refused = 0;
    const settled = () => {
      if (held.checking + refused === 30) release();
    };
    held.changed = settled;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(i % 2 ? a : b, `203.0.113.${i + 1}`).then((r) => {
          if (r.statusCode === 429) {
            refused += 1;
            settled();
          }
          return r.statusCode;
        }),
      ),
    );
    held.release = Promise.resolve();
    held.changed = () => {};
    expect(answers.filter((s) => s === 401).length).toBe(ABUSE_LIMITS.loginFailuresPerAccount);
    expect(answers.filter((s) => s === 429).length).toBe(30 - ABUSE_LIMITS.loginFailuresPerAccount);
  });

  it('Redis unreachable: requests go through (skipOnError), at once', async () => {
    const app = await httpNode(await unreachableNode());
    const started = performance.now();
    const answers: number[] = [];
    for (let i = 0; i < 15; i += 1) answers.push(await signIn(app));
    expect(answers).toEqual(Array(15).fill(200));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
