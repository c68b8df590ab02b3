/**
 * The Redis connections of a node in cluster mode. Every key and channel of a cluster
 * starts with `ms:<database>:`: the nodes of one cluster share a PostgreSQL database, so two clusters
 * (or two test runs) on one Redis never see each other's keys.
 *
 * - `commands` fails fast while Redis is away (no offline queue): a caller gets an error at once and
 *   decides what that means (a refused create, a lease kept as it is), never a hang.
 * - `pub`/`sub` carry socket.io's adapter; its publishes wait in the offline queue while Redis is
 *   away, so a node's own sockets keep getting their games' events and the others catch up after.
 * - `listen` is the subscriber for this node's own messages (forwarded requests, released games).
 * All reconnect by themselves, every half second.
 */
import { Redis, type RedisOptions } from 'ioredis';

const RECONNECT_MS = 500;

export class ClusterRedis {
  readonly prefix: string;
  readonly commands: Redis;
  readonly pub: Redis;
  readonly sub: Redis;
  readonly listen: Redis;
  readonly #onUp = new Set<() => void>();
  /** When the command connection was last established (0: down). */
  #upSince = 0;

  constructor(url: string, databaseUrl: string) {
    const database = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
    this.prefix = `ms:${database}:`;
    const base: RedisOptions = {
      retryStrategy: () => RECONNECT_MS,
      connectTimeout: 2000,
      lazyConnect: true,
    };
    this.commands = new Redis(url, { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.pub = new Redis(url, { ...base, maxRetriesPerRequest: null });
    this.sub = new Redis(url, { ...base, maxRetriesPerRequest: null });
    this.listen = new Redis(url, { ...base, maxRetriesPerRequest: null });
    for (const client of this.#all()) {
      // ioredis reports each failed reconnect as an 'error' event: the state is read from `up`.
      client.on('error', () => {});
    }
    this.commands.on('ready', () => {
      this.#upSince = Date.now();
      for (const listener of this.#onUp) listener();
    });
    this.commands.on('close', () => {
      this.#upSince = 0;
    });
  }

  /** Connects every client; rejects if Redis cannot be reached at start. */
  async connect(): Promise<void> {
    await Promise.all(this.#all().map((client) => client.connect()));
  }

  /** Whether commands can be sent now. */
  get up(): boolean {
    return this.commands.status === 'ready';
  }

  /**
   * Whether Redis has been reachable for at least `ms` without a break: after an outage (Redis may
   * come back empty) owners take their leases back first, and only then may others take games over.
   */
  upFor(ms: number): boolean {
    return this.up && this.#upSince > 0 && Date.now() - this.#upSince >= ms;
  }

  /** `listener` runs each time the command connection is (re)established. */
  onUp(listener: () => void): void {
    this.#onUp.add(listener);
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async close(): Promise<void> {
    this.#onUp.clear();
    await Promise.allSettled(this.#all().map((client) => client.quit()));
    for (const client of this.#all()) client.disconnect();
  }

  #all(): Redis[] {
    return [this.commands, this.pub, this.sub, this.listen];
  }
}
