/**
 * Users' token versions as the database has them, for the check a socket event passes before its
 * handler: a version not known to be current within the last TOKEN_VERSION_RECHECK_MS is not
 * trusted. Revocations made on this node update a version at once; the window bounds how long a
 * socket on another node could act after a revocation whose fan-out it missed.
 *
 * So that an event does not wait on the database, a sweep every half window reads the database's
 * token epoch (`token_epoch`: raised, by triggers, in the transaction of every token version change
 * and account deletion, whoever makes it). While the epoch stays put, no version has changed since
 * the versions held were read, and each is trusted for another window without a read of its own.
 * When it moves, one statement re-reads the versions of everyone who acted lately. (Every sweep used
 * to re-read them all: 4,000 rows a second at bench:server's 2,000 games, the database's costliest
 * statement.) An event of a user who had been quiet (or is not known) reads its version first.
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
/** The database's token epoch. */
export type ReadEpoch = () => Promise<number>;

interface Known {
  version: number | null;
  /** When the read that gave `version` was sent (its snapshot is no older). */
  readAt: number;
  usedAt: number;
}

export class TokenVersions {
  readonly #read: ReadVersions;
  readonly #readEpoch: ReadEpoch;
  readonly #onError: (error: unknown) => void;
  readonly now: () => number;
  readonly #known = new Map<string, Known>();
  /** The epoch as of the last full sweep, and when its read had been answered (no older than its snapshot). */
  #epoch: number | null = null;
  #epochAt = -Infinity;
  /**
   * When the last sweep that found the epoch unchanged was sent: every version read since `#epochAt`
   * was still current then.
   */
  #confirmedAt = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  #sweeping = false;
  #closed = false;

  constructor(
    read: ReadVersions,
    readEpoch: ReadEpoch,
    options: { onError?: (error: unknown) => void; now?: () => number } = {},
  ) {
    this.#read = read;
    this.#readEpoch = readEpoch;
    this.#onError = options.onError ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  /** The user's current token version (null once the account is gone). */
  async current(userId: string): Promise<number | null> {
    const now = this.now();
    const known = this.#known.get(userId);
    this.#startSweeps();
    if (known && now - this.#currentAt(known) < TOKEN_VERSION_RECHECK_MS) {
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

  /** A version just changed here, or read by a statement sent `at` (`now()` before it was sent). */
  remember(userId: string, version: number | null, at: number = this.now()): void {
    if (this.#known.size >= CACHE_MAX && !this.#known.has(userId)) this.#known.clear();
    this.#known.set(userId, { version, readAt: at, usedAt: at });
  }

  /**
   * Reads the epoch; when it moved (or on the first sweep), re-reads the versions of the users who
   * acted lately. Forgets those who did not.
   */
  async sweep(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      const sentAt = this.now();
      for (const [userId, known] of this.#known) if (sentAt - known.usedAt > SWEEP_KEEPS_MS) this.#known.delete(userId);
      const epoch = await this.#readEpoch();
      if (epoch === this.#epoch) {
        this.#confirmedAt = sentAt;
        return;
      }
      // Every version read from here on is no older than this epoch. One read before it and
      // remembered after the re-read began is not confirmed by later sweeps: it ages out instead.
      const epochAt = this.now();
      const due = [...this.#known];
      for (let from = 0; from < due.length; from += SWEEP_CHUNK) {
        const chunk = due.slice(from, from + SWEEP_CHUNK);
        const readAt = this.now();
        const versions = await this.#read(chunk.map(([userId]) => userId));
        for (const [userId, known] of chunk) {
          // A version remembered since the read began (a revocation here) replaced the entry: it stays.
          if (this.#known.get(userId) !== known) continue;
          known.version = versions.get(userId) ?? null;
          known.readAt = readAt;
        }
      }
      this.#epoch = epoch;
      this.#epochAt = epochAt;
      this.#confirmedAt = -Infinity;
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#sweeping = false;
    }
  }

  /** The latest time this version is known to have been current. */
  #currentAt(known: Known): number {
    return known.readAt >= this.#epochAt ? Math.max(known.readAt, this.#confirmedAt) : known.readAt;
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
