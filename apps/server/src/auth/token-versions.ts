/**
 * Users' token versions as the database has them, for the check a socket event passes before its
 * handler: a version read more than TOKEN_VERSION_RECHECK_MS ago is not trusted. Revocations made on
 * this node update a version at once; the window bounds how long a socket on another node could act
 * after a revocation whose fan-out it missed.
 *
 * So that an event does not wait on the database, a sweep re-reads the versions of everyone who acted
 * lately, in one statement every half window; an event of a user who had been quiet (or is not known)
 * reads its version first.
 */
export const TOKEN_VERSION_RECHECK_MS = 2000;
const SWEEP_EVERY_MS = TOKEN_VERSION_RECHECK_MS / 2;
/** Users who have not acted for this long leave the sweep (and the cache). */
const SWEEP_KEEPS_MS = 60_000;
/** Ids per statement of a sweep. */
const SWEEP_CHUNK = 5000;
/** The cache is dropped whole past this many users (it refills on demand). */
const CACHE_MAX = 50_000;

/** The versions of these users (a user with no row is left out). */
export type ReadVersions = (userIds: readonly string[]) => Promise<ReadonlyMap<string, number>>;

interface Known {
  version: number | null;
  readAt: number;
  usedAt: number;
}

export class TokenVersions {
  readonly #read: ReadVersions;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #known = new Map<string, Known>();
  #timer: NodeJS.Timeout | null = null;
  #sweeping = false;
  #closed = false;

  constructor(read: ReadVersions, options: { onError?: (error: unknown) => void; now?: () => number } = {}) {
    this.#read = read;
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? Date.now;
  }

  /** The user's current token version (null once the account is gone). */
  async current(userId: string): Promise<number | null> {
    const now = this.#now();
    const known = this.#known.get(userId);
    this.#startSweeps();
    if (known && now - known.readAt < TOKEN_VERSION_RECHECK_MS) {
      known.usedAt = now;
      return known.version;
    }
    const version = (await this.#read([userId])).get(userId) ?? null;
    // A version remembered while the read was out (a revocation here) is newer than the read.
    const meanwhile = this.#known.get(userId);
    if (meanwhile !== known && meanwhile !== undefined) return meanwhile.version;
    this.remember(userId, version, now);
    return version;
  }

  /** A version just read or just changed, `at` when it was read. */
  remember(userId: string, version: number | null, at: number = this.#now()): void {
    if (this.#known.size >= CACHE_MAX && !this.#known.has(userId)) this.#known.clear();
    this.#known.set(userId, { version, readAt: at, usedAt: at });
  }

  /** Re-reads the versions of the users who acted lately; forgets those who did not. */
  async sweep(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      const now = this.#now();
      const due: [string, Known][] = [];
      for (const [userId, known] of this.#known) {
        if (now - known.usedAt > SWEEP_KEEPS_MS) this.#known.delete(userId);
        else if (now - known.readAt >= SWEEP_EVERY_MS) due.push([userId, known]);
      }
      for (let from = 0; from < due.length; from += SWEEP_CHUNK) {
        const chunk = due.slice(from, from + SWEEP_CHUNK);
        const versions = await this.#read(chunk.map(([userId]) => userId));
        for (const [userId, known] of chunk) {
          // A version remembered since the read began (a revocation here) replaced the entry: it stays.
          if (this.#known.get(userId) !== known) continue;
          known.version = versions.get(userId) ?? null;
          known.readAt = now;
        }
      }
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#sweeping = false;
    }
  }

  #startSweeps(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.#timer.unref();
  }

  /** Stops the sweeps (the server is closing). */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
