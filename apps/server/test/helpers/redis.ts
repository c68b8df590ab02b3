/**
 * Nodes of a test cluster on the shared Redis at REDIS_URL. Each cluster gets a key prefix of its own
 * (ClusterRedis takes it from the database name, so a made-up database name is enough): tests never
 * see each other's keys and never need to flush anything. Without REDIS_URL the Redis suites skip,
 * loudly — except under CI, where they must run.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { describe } from 'vitest';
import { ClusterRedis } from '../../src/cluster/redis.ts';

export const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  if (process.env.CI) throw new Error('CI must run the Redis suites: set REDIS_URL');
  console.warn('\n*** SKIPPED: the Redis suites of cluster mode (REDIS_URL is unset). ***\n');
}

/** `describe` when Redis is there, `describe.skip` otherwise. */
export const describeRedis = redisUrl ? describe : describe.skip;

/** A database URL naming a cluster no other test uses. */
export function clusterName(): string {
  return `postgres://x/test_${randomBytes(6).toString('hex')}`;
}

/** A connected node of cluster `name` (from clusterName()). */
export async function node(name: string): Promise<ClusterRedis> {
  const cluster = new ClusterRedis(redisUrl as string, name);
  await cluster.connect();
  return cluster;
}

/** A node whose Redis is a port nobody listens on (connecting was tried and failed). */
export async function unreachableNode(): Promise<ClusterRedis> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const cluster = new ClusterRedis(`redis://127.0.0.1:${port}`, clusterName());
  await cluster.connect().catch(() => {});
  return cluster;
}
