/**
 * bench:cluster's Redis figures: what Redis did over a measured window, from `INFO commandstats`
 * (calls per command) and `INFO stats` (total_net_input_bytes, total_net_output_bytes) read at its
 * start and end. Redis counts for the whole server: on a Redis shared with others (REDIS_URL) their
 * commands in the window are counted too, so the window is kept short and the figures read as an
 * upper bound. The INFO calls that read the figures are left out of the commands (their replies'
 * few kilobytes are in the bytes).
 */
import { Redis } from 'ioredis';
import { round } from './stats.ts';

export interface RedisCounters {
  readonly calls: ReadonlyMap<string, number>;
  readonly inBytes: number;
  readonly outBytes: number;
}

export interface RedisPerPlay {
  /** Commands (every kind but INFO) per acknowledged play. */
  ops: number;
  /** Bytes Redis read from its clients, and wrote to them (replies and pub/sub deliveries), per play. */
  inBytes: number;
  outBytes: number;
  /** The commands most called, per play, most first. */
  commands: Record<string, number>;
}

export class RedisFigures {
  readonly #redis: Redis;

  constructor(url: string) {
    this.#redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  }

  async read(): Promise<RedisCounters> {
    if (this.#redis.status === 'wait') await this.#redis.connect();
    const [commandstats, stats] = await Promise.all([this.#redis.info('commandstats'), this.#redis.info('stats')]);
    const calls = new Map<string, number>();
    for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      const [, name, count] = match as unknown as [string, string, string];
      if (name !== 'info') calls.set(name, Number(count));
    }
    const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(stats)?.[1] ?? Number.NaN);
    return { calls, inBytes: field('total_net_input_bytes'), outBytes: field('total_net_output_bytes') };
  }

  close(): void {
    this.#redis.disconnect();
  }
}

/** The window's figures per acknowledged play; `top` commands are named. */
export function perPlay(before: RedisCounters, after: RedisCounters, plays: number, top = 6): RedisPerPlay {
  const each = Math.max(1, plays);
  const deltas = [...after.calls]
    .map(([name, count]) => [name, count - (before.calls.get(name) ?? 0)] as const)
    .filter(([, delta]) => delta > 0)
    .sort((a, b) => b[1] - a[1]);
  const ops = deltas.reduce((sum, [, delta]) => sum + delta, 0);
  return {
    ops: round(ops / each, 2),
    inBytes: round((after.inBytes - before.inBytes) / each, 0),
    outBytes: round((after.outBytes - before.outBytes) / each, 0),
    commands: Object.fromEntries(deltas.slice(0, top).map(([name, delta]) => [name, round(delta / each, 2)])),
  };
}
