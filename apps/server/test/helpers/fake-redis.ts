/**
 * An in-memory Redis for the ownership's unit tests: the few commands leases, seats and the user's
 * turn use (LeaseRedis, its renewal script in TypeScript) and pub/sub between the "nodes" of one
 * process (PubSub), with keys expiring on a manual clock. It can go away and come back (empty, as a
 * restarted Redis), a node can lose its connection for a while (cut, healed), and a node's connection
 * can die with its process (it hears nothing any more, and its commands fail).
 */
import type { ManualClock } from '../../src/clock.ts';
import type { LeaseRedis, PubSub } from '../../src/cluster/redis-ports.ts';

export class FakeRedis {
  readonly clock: ManualClock;
  readonly #values = new Map<string, { value: string; expiresAt: number | null }>();
  readonly #clients = new Set<FakeRedisClient>();
  #up = true;
  /** Up since long before the test began (a takeover waits until Redis has been up for a lease). */
  #upSince = Number.NEGATIVE_INFINITY;

  constructor(clock: ManualClock) {
    this.clock = clock;
  }

  /** A node's connection. */
  client(): FakeRedisClient {
    const client = new FakeRedisClient(this);
    this.#clients.add(client);
    return client;
  }

  get up(): boolean {
    return this.#up;
  }

  get upSince(): number {
    return this.#upSince;
  }

  /** Redis goes away: every command fails at once. */
  down(): void {
    this.#up = false;
  }

  /** Redis is back (`empty`: restarted, its keys lost); each node's `onUp` listeners run. */
  restore(empty = false): void {
    if (empty) this.#values.clear();
    this.#up = true;
    this.#upSince = this.clock.now();
    for (const client of this.#clients) client.cameUp();
  }

  /** The value of a key now (null: none, or expired). */
  read(key: string): string | null {
    const entry = this.#values.get(key);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= this.clock.now()) {
      this.#values.delete(key);
      return null;
    }
    return entry.value;
  }

  write(key: string, value: string, ttlMs?: number): void {
    this.#values.set(key, { value, expiresAt: ttlMs === undefined ? null : this.clock.now() + ttlMs });
  }

  remove(key: string): void {
    this.#values.delete(key);
  }

  /** Delivers a message to every live connection subscribed to the channel; the number reached. */
  publish(channel: string, message: string): number {
    const receivers = [...this.#clients].filter((client) => client.hears(channel));
    for (const client of receivers) queueMicrotask(() => client.deliver(channel, message));
    return receivers.length;
  }
}

export class FakeRedisClient implements LeaseRedis, PubSub {
  readonly #server: FakeRedis;
  readonly #channels = new Set<string>();
  readonly #listeners: ((channel: string, message: string) => void)[] = [];
  readonly #onUp: (() => void)[] = [];
  #dead = false;
  #cut = false;
  /** When this connection was last established (a heal after a cut). */
  #connectedSince = Number.NEGATIVE_INFINITY;

  constructor(server: FakeRedis) {
    this.#server = server;
  }

  /** This node loses Redis (the others keep it): its commands fail, it hears nothing. */
  cut(): void {
    this.#cut = true;
  }

  /** The connection is back; its `onUp` listeners run, as ioredis's 'ready' does. */
  heal(): void {
    this.#cut = false;
    this.#connectedSince = this.#server.clock.now();
    this.cameUp();
  }

  /** Its process died: it hears nothing more, and whatever it still sends fails. */
  kill(): void {
    this.#dead = true;
    this.#channels.clear();
  }

  get up(): boolean {
    return this.#server.up && !this.#dead && !this.#cut;
  }

  upFor(ms: number): boolean {
    const since = Math.max(this.#server.upSince, this.#connectedSince);
    return this.up && this.#server.clock.now() - since >= ms;
  }

  onUp(listener: () => void): void {
    this.#onUp.push(listener);
  }

  cameUp(): void {
    if (!this.#dead) for (const listener of this.#onUp) listener();
  }

  key(...parts: string[]): string {
    return `ms:test:${parts.join(':')}`;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.#check();
    if (this.#server.read(key) !== null) return false;
    this.#server.write(key, value, ttlMs);
    return true;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.#check();
    this.#server.write(key, value, ttlMs);
  }

  async get(key: string): Promise<string | null> {
    this.#check();
    return this.#server.read(key);
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    this.#check();
    return keys.map((key) => this.#server.read(key));
  }

  async deleteIf(key: string, value: string): Promise<void> {
    this.#check();
    if (this.#server.read(key) === value) this.#server.remove(key);
  }

  async renew(keys: readonly string[], values: readonly string[], ttlMs: number, retake: boolean): Promise<number[]> {
    this.#check();
    return keys.map((key, i) => {
      const held = this.#server.read(key);
      const value = values[i] as string;
      if (held === value || (held === null && retake)) {
        this.#server.write(key, value, ttlMs);
        return held === value ? 1 : 2;
      }
      return 0;
    });
  }

  async publish(channel: string, message: string): Promise<number> {
    this.#check();
    return this.#server.publish(channel, message);
  }

  async subscribe(...channels: string[]): Promise<void> {
    this.#check();
    for (const channel of channels) this.#channels.add(channel);
  }

  onMessage(listener: (channel: string, message: string) => void): void {
    this.#listeners.push(listener);
  }

  hears(channel: string): boolean {
    return !this.#dead && !this.#cut && this.#channels.has(channel);
  }

  deliver(channel: string, message: string): void {
    if (!this.#dead) for (const listener of this.#listeners) listener(channel, message);
  }

  #check(): void {
    if (!this.up) throw new Error(this.#dead ? 'Connection is closed.' : "Stream isn't writeable");
  }
}
