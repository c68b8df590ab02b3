/**
 * Password hashing: argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). The hash runs on libuv's
 * thread pool, off the event loop; a gate bounds how many run at once (ABUSE_LIMITS.hashesRunning) so
 * that a burst cannot take every pool thread (or 19 MiB each) and stall file and DNS work behind it.
 *
 * The rest wait in line, bounded by time rather than by a count (docs/limits.md): a newcomer's wait is
 * estimated from the hashes ahead of it, the slots and a moving average of a hash's duration as measured
 * here; past ABUSE_LIMITS.hashWaitMaxMs it is answered 503 "Server busy" at once, with Retry-After
 * (when the line will have shortened enough to let it in). A sign-in's verification (and the decoy's
 * for an unknown account) goes ahead of registrations' and other hashes, so a correct login is
 * answered within a hash or two while hundreds of registrations wait. Nothing waits without end: a
 * hash waiting twice the bound goes ahead of the sign-ins.
 */
import { hash, verify } from '@node-rs/argon2';
import { ABUSE_LIMITS } from '@memeslam/protocol';
import { serverBusy } from '../http/errors.ts';

export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** `login`: a sign-in's verification, served first. `other`: registrations, resets, password checks. */
export type HashLane = 'login' | 'other';

interface Waiter {
  readonly since: number;
  readonly start: () => void;
}

export interface HashQueueOptions {
  /** Hashes running at once. */
  readonly slots: number;
  /** The longest estimated wait a newcomer is let in for. */
  readonly maxWaitMs: number;
  /** A hash's duration until one has been measured (a slow core's; the first measure replaces it). */
  readonly firstEstimateMs?: number;
  readonly now?: () => number;
}

/** How much of each new measure the moving average takes: about the last ten hashes count. */
const AVERAGE_WEIGHT = 0.2;

export class HashQueue {
  readonly slots: number;
  /** The bound; a test lowers it (as AppOptions.ceilings lowers the server's other ceilings). */
  maxWaitMs: number;
  readonly #now: () => number;
  #averageMs: number;
  #measured = false;
  #running = 0;
  readonly #logins: Waiter[] = [];
  readonly #others: Waiter[] = [];
  #started = 0;

  constructor(options: HashQueueOptions) {
    this.slots = options.slots;
    this.maxWaitMs = options.maxWaitMs;
    this.#averageMs = options.firstEstimateMs ?? 50;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Hashes started since the queue was made. */
  get started(): number {
    return this.#started;
  }

  get state(): { running: number; loginsWaiting: number; othersWaiting: number; averageMs: number } {
    return {
      running: this.#running,
      loginsWaiting: this.#logins.length,
      othersWaiting: this.#others.length,
      averageMs: this.#averageMs,
    };
  }

  /**
   * How long a newcomer of `lane` would wait before its hash starts: none while a slot is free, else
   * one average hash per slot for each hash ahead of it in line, and its own turn.
   */
  estimateWaitMs(lane: HashLane): number {
    if (this.#running < this.slots) return 0;
    const ahead = this.#logins.length + (lane === 'other' ? this.#others.length : 0);
    return ((ahead + 1) * this.#averageMs) / this.slots;
  }

  /**
   * Throws 503 "Server busy" with Retry-After if a newcomer of `lane` would wait past the bound: when
   * the line ahead will have shortened to the bound (at least a second). The routes ask it first too,
   * before their rate limits count the request and before their lookups (auth/routes.ts).
   */
  assertRoom(lane: HashLane): void {
    const waitMs = this.estimateWaitMs(lane);
    if (waitMs > this.maxWaitMs) throw serverBusy((waitMs - this.maxWaitMs) / 1000);
  }

  /** Runs `work` when its turn comes, or throws 503 "Server busy" with Retry-After if the wait would pass the bound. */
  async run<T>(lane: HashLane, work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.slots) {
      this.assertRoom(lane);
      // The slot is handed over by the hash that ends: `running` stays as it is.
      const since = this.#now();
      await new Promise<void>((start) => (lane === 'login' ? this.#logins : this.#others).push({ since, start }));
    } else this.#running += 1;
    this.#started += 1;
    const began = this.#now();
    try {
      return await work();
    } finally {
      this.#measure(this.#now() - began);
      const next = this.#next();
      if (next) next.start();
      else this.#running -= 1;
    }
  }

  #measure(ms: number): void {
    this.#averageMs = this.#measured ? this.#averageMs + AVERAGE_WEIGHT * (ms - this.#averageMs) : ms;
    this.#measured = true;
  }

  /** Sign-ins first, unless the oldest other hash has waited twice the bound: then it goes. */
  #next(): Waiter | undefined {
    const oldest = this.#others[0];
    if (oldest && this.#now() - oldest.since > 2 * this.maxWaitMs) return this.#others.shift();
    return this.#logins.shift() ?? this.#others.shift();
  }
}

/** The process's one queue: the thread pool and the memory it guards are the process's. */
export const hashQueue = new HashQueue({ slots: ABUSE_LIMITS.hashesRunning, maxWaitMs: ABUSE_LIMITS.hashWaitMaxMs });

/** Hashes and verifications started since the process began (a flood must start none). */
export const hashesStarted = (): number => hashQueue.started;

export function hashPassword(password: string, lane: HashLane = 'other'): Promise<string> {
  // The library's default algorithm is argon2id; the test reads it back from the hash.
  return hashQueue.run(lane, () => hash(password, ARGON2_OPTIONS));
}

/** A password check that is not a sign-in (change-password, account deletion): in line with the others. */
export function verifyPassword(passwordHash: string, password: string, lane: HashLane = 'other'): Promise<boolean> {
  return hashQueue.run(lane, () => verify(passwordHash, password).catch(() => false));
}

/** A sign-in's password check: ahead of registrations and other hashes in line. */
export function verifyLogin(passwordHash: string, password: string): Promise<boolean> {
  return verifyPassword(passwordHash, password, 'login');
}

/**
 * A hash of a password nobody has, verified when the account does not exist so that a failed login
 * takes as long either way and does not tell which usernames are registered (in the sign-ins' lane,
 * as a sign-in of an existing account is).
 */
let decoy: Promise<string> | null = null;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password that matches nothing', 'login').catch((error: unknown) => {
    // Refused (a full line): made again by the next unknown sign-in, not refused for ever.
    decoy = null;
    throw error;
  });
  await verifyLogin(await decoy, password);
  return false;
}
