/**
 * Cleaning up after a cluster on a shared Redis (tests and bench:cluster): never a flush, only the
 * keys that name the cluster's own database (see cluster/redis.ts), which is random per cluster.
 */
import { Redis } from 'ioredis';

export async function forgetKeys(url: string, databaseName: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${databaseName}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
