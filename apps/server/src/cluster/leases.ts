/**
 * Who owns each live game: a lease in Redis, `owner:<gameId>` = `<nodeId>|<epoch>`, with
 * a TTL its owner renews every second. A node that dies stops renewing and its games are free within
 * LEASE_TTL_MS. The epoch is PostgreSQL's (games.owner_epoch, raised at each takeover) and every write
 * carries it, so Redis only decides who tries; the database decides whose writes count.
 *
 * Also here: which unfinished game each user sits in (`seat:<userId>`), so a request reaching any
 * node finds the game's owner.
 */
import { type Clock, type Timer, every } from '../clock.ts';
import type { LeaseRedis } from './redis-ports.ts';

export const LEASE_TTL_MS = 3000;
export const RENEW_EVERY_MS = 1000;

export class GameLeases {
  readonly #redis: LeaseRedis;
  readonly #clock: Clock;
  readonly nodeId: string;
  /** Games this node holds, with their epochs. */
  readonly #held = new Map<string, number>();
  readonly #onLost: (gameId: string) => void;
  #timer: Timer | null = null;
  /** When the last renewal round succeeded (the clock's time). */
  #renewedAt: number;

  constructor(redis: LeaseRedis, nodeId: string, clock: Clock, onLost: (gameId: string) => void) {
    this.#redis = redis;
    this.nodeId = nodeId;
    this.#clock = clock;
    this.#onLost = onLost;
    this.#renewedAt = clock.now();
  }

  /** Renews the held leases every RENEW_EVERY_MS until `stop()`. */
  start(): void {
    this.#timer = every(this.#clock, RENEW_EVERY_MS, () => void this.renew());
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }

  /** The epoch this node holds the game at; null if it does not (any more). */
  epochOf(gameId: string): number | null {
    return this.#held.get(gameId) ?? null;
  }

  holds(gameId: string): boolean {
    return this.#held.has(gameId);
  }

  get held(): ReadonlyMap<string, number> {
    return this.#held;
  }

  /** Claims a game nobody holds; false if another node does (or Redis is away: it throws). */
  async claim(gameId: string, epoch: number): Promise<boolean> {
    if (!(await this.#redis.setIfAbsent(this.#key(gameId), this.#value(epoch), LEASE_TTL_MS))) return false;
    this.#held.set(gameId, epoch);
    return true;
  }

  /** The game's epoch was raised after claiming it: the lease says so too. */
  async confirm(gameId: string, epoch: number): Promise<void> {
    const before = this.#held.get(gameId);
    if (before === undefined) return;
    this.#held.set(gameId, epoch);
    await this.#redis.set(this.#key(gameId), this.#value(epoch), LEASE_TTL_MS);
  }

  /** Lets a game go (it ended, or this node stops): another node may take it at once. */
  async release(gameId: string): Promise<void> {
    const epoch = this.#held.get(gameId);
    if (epoch === undefined) return;
    this.#held.delete(gameId);
    await this.#redis.deleteIf(this.#key(gameId), this.#value(epoch));
  }

  /** Forgets a game without touching Redis (it was lost to another node). */
  drop(gameId: string): void {
    this.#held.delete(gameId);
  }

  /** The node holding each game (null: nobody, its lease expired or was released). */
  async ownersOf(gameIds: readonly string[]): Promise<(string | null)[]> {
    if (gameIds.length === 0) return [];
    const values = await this.#redis.mget(gameIds.map((id) => this.#key(id)));
    return values.map((value) => (value === null ? null : (value.split('|')[0] ?? null)));
  }

  async ownerOf(gameId: string): Promise<string | null> {
    return (await this.ownersOf([gameId]))[0] ?? null;
  }

  /**
   * One renewal round. A lease found in another node's hands means the game was lost. So does a
   * lease gone after this node went longer than a lease without renewing while Redis was up (it was
   * paused, or its loop stalled): another node may have taken the game and let it go since, and a
   * lease lost is final. A lease gone after Redis itself was away (restarted empty) is taken back.
   */
  async renew(): Promise<void> {
    const games = [...this.#held];
    if (!this.#redis.up) return;
    const since = this.#clock.now() - this.#renewedAt;
    if (games.length === 0) {
      this.#renewedAt = this.#clock.now();
      return;
    }
    const retake = since <= LEASE_TTL_MS || !this.#redis.upFor(since);
    let results: number[];
    try {
      results = await this.#redis.renew(
        games.map(([id]) => this.#key(id)),
        games.map(([, epoch]) => this.#value(epoch)),
        LEASE_TTL_MS,
        retake,
      );
      this.#renewedAt = this.#clock.now();
    } catch {
      // Redis is away: the games go on here; the database still fences every write.
      return;
    }
    games.forEach(([id, epoch], i) => {
      if (results[i] === 0 && this.#held.get(id) === epoch) {
        this.#held.delete(id);
        this.#onLost(id);
      }
    });
  }

  // ── seats: the unfinished game each user sits in ──

  async seat(userId: string, gameId: string): Promise<void> {
    await this.#redis.set(this.#redis.key('seat', userId), gameId);
  }

  async unseat(userId: string, gameId: string): Promise<void> {
    await this.#redis.deleteIf(this.#redis.key('seat', userId), gameId);
  }

  async seatOf(userId: string): Promise<string | null> {
    return this.#redis.get(this.#redis.key('seat', userId));
  }

  #key(gameId: string): string {
    return this.#redis.key('owner', gameId);
  }

  #value(epoch: number): string {
    return `${this.nodeId}|${epoch}`;
  }
}
