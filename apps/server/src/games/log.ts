/**
 * Group commit for live games: the writes of every room's steps wait here and go to the database
 * together, one statement per batch. Batches in flight at once are at most the database's
 * `logWriters` (one by default), and never two holding the same game: a game's writes become durable
 * in order, so its log has no gaps whatever a crash interrupts. While a batch is in flight the next
 * gathers, so under load a batch holds many steps and durability costs a few milliseconds of latency
 * rather than a write per command. Each write's promise resolves once it is durable.
 *
 * The database being away is waited out: a batch is retried with backoff, without limit. A batch
 * refused for what it holds (not for the connection) is split by game, so that one game's bad write
 * aborts that game and never blocks the others.
 */
import { type RecordableHistogram, createHistogram } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, systemClock } from '../clock.ts';
import type { RoomWrite } from './types.ts';

interface Pending {
  readonly gameId: string;
  readonly write: RoomWrite;
  readonly resolve: () => void;
  readonly appended: bigint;
}

export interface LogStorage {
  /**
   * Resolves with the games whose writes were fenced off (cluster mode: another node owns them now).
   * `fresh`: the batch's first attempt, so none of its entries is stored yet; any other attempt may
   * find some stored (its answer was lost) and must skip them.
   */
  write(
    batch: readonly { gameId: string; write: RoomWrite }[],
    options?: { fresh?: boolean },
  ): Promise<readonly string[]>;
}

/** Steps per batch at most; more wait for the next one. */
const MAX_BATCH = 5000;
/**
 * A batch starts at least this long after the one before it started, gathering the writes that come
 * meanwhile: every batch is a commit (an fsync) and a wake-up of the database's process, so fewer,
 * larger batches cost the database less. An idle server's write still goes at once. README, "Against the
 * floor": at 1,000 games, 4 ms took the steps per write from 2.2–2.7 to 6.7–7.1 and the database's
 * CPU from 17–19% to 12–13% of a core, for about 2.2 ms more at the median ack.
 */
export const GATHER_MS = 4;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

/**
 * Whether an error is the database being away or busy (worth waiting out) rather than a refusal
 * of what was written. PostgreSQL's SQLSTATE classes 08 (connection), 40 (rollback), 53 (resources),
 * 55 (object state, e.g. a database not accepting connections), 57 (operator intervention) and 58
 * (system errors) are transient; so is any error without a SQLSTATE (sockets, timeouts).
 */
export function isTransient(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return ['08', '40', '53', '55', '57', '58'].includes(e.code.slice(0, 2));
    }
  }
  return true;
}

export class GameLog {
  readonly #storage: LogStorage;
  readonly #log: FastifyBaseLogger;
  readonly #onRefused: (gameId: string, error: unknown) => void;
  readonly #onFenced: (gameId: string) => void;
  readonly #clock: Clock;
  readonly #maxInFlight: number;
  readonly #gatherMs: number;
  #pending: Pending[] = [];
  /** Games with a batch in flight: their next writes wait for it. */
  readonly #busyGames = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  #scheduled = false;
  /** When the last batch started (performance.now()). */
  #lastStart = -Infinity;
  /** Figures for /metrics: batches written, steps in them; how long a step waited for its batch to start, to be durable, and how long a write took (ns). */
  batches = 0;
  steps = 0;
  readonly queued: RecordableHistogram = createHistogram();
  readonly waits: RecordableHistogram = createHistogram();
  readonly writes: RecordableHistogram = createHistogram();
  /** Writes that failed for the database being away and were tried again; and those waiting to. */
  retries = 0;
  waiting = 0;

  constructor(deps: {
    storage: LogStorage;
    log: FastifyBaseLogger;
    /** A game's write was refused by the database: the game must be stopped. */
    onRefused: (gameId: string, error: unknown) => void;
    /**
     * Cluster mode: the game's writes were refused because another node took it over. Called before
     * the writes' promises resolve, so the room stops before anything of them is delivered.
     */
    onFenced?: (gameId: string) => void;
    /** Batches written side by side at most (1 by default). */
    maxInFlight?: number;
    /** The least time between two batches' starts (GATHER_MS by default). */
    gatherMs?: number;
    /** Whose time the retries wait on (the server's clock: tests drive a long outage by hand). */
    clock?: Clock;
  }) {
    this.#storage = deps.storage;
    this.#log = deps.log;
    this.#onRefused = deps.onRefused;
    this.#onFenced = deps.onFenced ?? (() => {});
    this.#maxInFlight = deps.maxInFlight ?? 1;
    this.#gatherMs = deps.gatherMs ?? GATHER_MS;
    this.#clock = deps.clock ?? systemClock;
  }

  /** Resolves once the write is durable (or its game was stopped because the database refused it). */
  append(gameId: string, write: RoomWrite): Promise<void> {
    const appended = process.hrtime.bigint();
    return new Promise((resolve) => {
      this.#pending.push({
        gameId,
        write,
        appended,
        resolve: () => {
          this.waits.record(process.hrtime.bigint() - appended);
          resolve();
        },
      });
      this.#schedule();
    });
  }

  /**
   * A write that finds room for a batch waits for company: a turn of the event loop, and what is left
   * of the gathering time since the last batch started.
   */
  #schedule(): void {
    if (this.#scheduled || this.#inFlight.size >= this.#maxInFlight || this.#pending.length === 0) return;
    this.#scheduled = true;
    const run = () => {
      // A timer can fire a little early (the event loop's clock is read once per turn): wait out the rest.
      const wait = this.#lastStart + this.#gatherMs - performance.now();
      if (wait > 0) {
        setTimeout(run, wait);
        return;
      }
      this.#scheduled = false;
      this.#pump();
    };
    setImmediate(run);
  }

  /** Waits until everything appended so far is durable. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#pending.length > 0) {
      this.#pump();
      await Promise.all(this.#inFlight);
    }
  }

  get backlog(): number {
    return this.#pending.length;
  }

  /** Starts batches while there is room: each takes the waiting writes of games not already in flight, in order. */
  #pump(): void {
    while (this.#inFlight.size < this.#maxInFlight && this.#pending.length > 0) {
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      for (const p of this.#pending) {
        if (batch.length < MAX_BATCH && !this.#busyGames.has(p.gameId)) batch.push(p);
        else rest.push(p);
      }
      if (batch.length === 0) return;
      this.#pending = rest;
      const games = new Set(batch.map((p) => p.gameId));
      for (const gameId of games) this.#busyGames.add(gameId);
      const started = process.hrtime.bigint();
      this.#lastStart = performance.now();
      for (const p of batch) this.queued.record(started - p.appended);
      const running: Promise<void> = this.#commit(batch).finally(() => {
        for (const gameId of games) this.#busyGames.delete(gameId);
        this.#inFlight.delete(running);
        if (performance.now() - this.#lastStart >= this.#gatherMs) this.#pump();
        else this.#schedule();
      });
      this.#inFlight.add(running);
    }
  }

  async #commit(batch: readonly Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const started = process.hrtime.bigint();
        const fenced = await this.#storage.write(batch, { fresh: attempt === 1 });
        this.writes.record(process.hrtime.bigint() - started);
        this.batches += 1;
        this.steps += batch.length;
        for (const gameId of fenced) this.#onFenced(gameId);
        for (const p of batch) p.resolve();
        return;
      } catch (error) {
        if (!isTransient(error)) {
          this.#log.error(
            { err: error, steps: batch.length },
            'a batch of game writes was refused; writing game by game',
          );
          await this.#oneByOne(batch);
          return;
        }
        if (attempt === 1 || attempt % 10 === 0) {
          this.#log.warn({ err: error, attempt, steps: batch.length }, 'game writes wait for the database');
        }
        await this.#retryAfter(attempt);
      }
    }
  }

  async #oneByOne(batch: readonly Pending[]): Promise<void> {
    const byGame = new Map<string, Pending[]>();
    for (const p of batch) byGame.set(p.gameId, [...(byGame.get(p.gameId) ?? []), p]);
    for (const [gameId, writes] of byGame) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          for (const fenced of await this.#storage.write(writes)) this.#onFenced(fenced);
          break;
        } catch (error) {
          if (isTransient(error)) {
            await this.#retryAfter(attempt);
            continue;
          }
          this.#log.error({ err: error, gameId }, 'the database refused a game write; the game is stopped');
          this.#onRefused(gameId, error);
          break;
        }
      }
      for (const p of writes) p.resolve();
    }
  }

  /** Backs off before the next attempt: 100 ms doubling to 5 s. */
  #retryAfter(attempt: number): Promise<void> {
    this.retries += 1;
    this.waiting += 1;
    const ms = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempt - 1));
    return new Promise((resolve) =>
      this.#clock.at(this.#clock.now() + ms, () => {
        this.waiting -= 1;
        resolve();
      }),
    );
  }
}
