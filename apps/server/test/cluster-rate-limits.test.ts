/**
 * Issue 14, item 5: the HTTP rate limits count across nodes in cluster mode (@fastify/rate-limit's
 * Redis store, keys under the cluster's prefix) and let requests through while Redis is away.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { type Counts, redisCounts } from '../src/cluster/counts.ts';
import type { ClusterRedis } from '../src/cluster/redis.ts';
import { installErrorHandler } from '../src/http/errors.ts';
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

  it('Redis unreachable: requests go through (skipOnError), at once', async () => {
    const app = await httpNode(await unreachableNode());
    const started = performance.now();
    const answers: number[] = [];
    for (let i = 0; i < 15; i += 1) answers.push(await signIn(app));
    expect(answers).toEqual(Array(15).fill(200));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
