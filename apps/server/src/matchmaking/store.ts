/**
 * Where the Play now queue lives: in this process (the embedded mode, `MemoryQueueStore`) or in the
 * cluster's Redis (`RedisQueueStore`, redis-store.ts), so that people on any two nodes meet. The
 * matchmaker reads and changes the queue only through this interface; what is atomic in Redis (a
 * table taken out of the queue whole, or not at all) is trivially so here.
 */
import type { User } from '../games/requests.ts';
import type { Seeker } from './pairing.ts';

/** Two accounts of one address meet at most twice in this long (the farming rule's window). */
export const MEETINGS_WINDOW_MS = 60 * 60 * 1000;

/** A person searching: what the pairing reads, and who they are. */
export interface QueueEntry extends Seeker {
  readonly user: User;
  /** The node whose socket put them in the queue (cluster mode: a dead node's entries are dropped). */
  readonly node: string;
}

/** The queue as the pairing sees it: its entries, and who was already offered a bot game. */
export interface QueueSnapshot {
  readonly entries: readonly QueueEntry[];
  readonly offered: ReadonlySet<string>;
}

export interface QueueStore {
  /** Whether every node shares this queue (and so the matchmaker ticks whether or not it sees anyone). */
  readonly shared: boolean;
  /**
   * Puts the user in the queue, or replaces their entry (their page queued again: it reconnected, to
   * another node perhaps, or heard nothing for a while), keeping the time they began waiting and the
   * bot offer already made; resolves with that time.
   */
  put(entry: Omit<QueueEntry, 'since'>, now: number): Promise<number>;
  /** Takes the user out of the queue; true if they were in it. */
  remove(userId: string): Promise<boolean>;
  /** How many are searching. */
  count(): Promise<number>;
  /** Everyone searching, with their bot offers (in Redis: entries of nodes gone are dropped on the way). */
  snapshot(): Promise<QueueSnapshot>;
  /** Takes these users out of the queue together, or nobody if any of them left it: true when taken. */
  take(userIds: readonly string[]): Promise<boolean>;
  /** Puts entries taken by `take` back, as they were (a table that could not be seated). */
  restore(entries: readonly QueueEntry[]): Promise<void>;
  /** Records that the user was offered a bot game (made once per stay in the queue). */
  markOffered(userId: string): Promise<void>;
  /** Until when Play now refuses the user (an early leaver's cooldown); 0 if it does not. */
  cooldownUntil(userId: string, now: number): Promise<number>;
  setCooldown(userId: string, until: number, now: number): Promise<void>;
  /** How often each pair (by `pairKey`) met within the last MEETINGS_WINDOW_MS. */
  meetings(pairKeys: readonly string[], now: number): Promise<Map<string, number>>;
  met(pairKey: string, now: number): Promise<void>;
  /** Whether this node pairs now: always here; in a cluster the one node holding the matcher's lease. */
  lead(): Promise<boolean>;
  /** This node stops pairing (another takes over at once); the queue itself stays for the others. */
  close(): Promise<void>;
}

/** The key of an unordered pair of users. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** The queue of one server. */
export class MemoryQueueStore implements QueueStore {
  readonly shared = false;
  readonly #entries = new Map<string, QueueEntry>();
  readonly #offered = new Set<string>();
  readonly #cooldowns = new Map<string, number>();
  readonly #meetings = new Map<string, number[]>();

  async put(entry: Omit<QueueEntry, 'since'>, now: number): Promise<number> {
    const since = this.#entries.get(entry.userId)?.since ?? now;
    this.#entries.set(entry.userId, { ...entry, since });
    return since;
  }

  async remove(userId: string): Promise<boolean> {
    this.#offered.delete(userId);
    return this.#entries.delete(userId);
  }

  async count(): Promise<number> {
    return this.#entries.size;
  }

  async snapshot(): Promise<QueueSnapshot> {
    return { entries: [...this.#entries.values()], offered: new Set(this.#offered) };
  }

  async take(userIds: readonly string[]): Promise<boolean> {
    if (!userIds.every((id) => this.#entries.has(id))) return false;
    for (const id of userIds) await this.remove(id);
    return true;
  }

  async restore(entries: readonly QueueEntry[]): Promise<void> {
    for (const entry of entries) this.#entries.set(entry.userId, entry);
  }

  async markOffered(userId: string): Promise<void> {
    if (this.#entries.has(userId)) this.#offered.add(userId);
  }

  async cooldownUntil(userId: string, now: number): Promise<number> {
    const until = this.#cooldowns.get(userId) ?? 0;
    if (until > now) return until;
    this.#cooldowns.delete(userId);
    return 0;
  }

  async setCooldown(userId: string, until: number): Promise<void> {
    this.#cooldowns.set(userId, until);
  }

  async meetings(pairKeys: readonly string[], now: number): Promise<Map<string, number>> {
    return new Map(pairKeys.map((key) => [key, this.#recent(key, now).length]));
  }

  async met(key: string, now: number): Promise<void> {
    this.#meetings.set(key, [...this.#recent(key, now), now]);
  }

  async lead(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.#entries.clear();
    this.#offered.clear();
  }

  #recent(key: string, now: number): number[] {
    const recent = (this.#meetings.get(key) ?? []).filter((at) => now - at < MEETINGS_WINDOW_MS);
    if (recent.length === 0) this.#meetings.delete(key);
    else this.#meetings.set(key, recent);
    return recent;
  }
}
