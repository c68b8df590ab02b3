/**
 * Finished games into the history: no result is lost. A record is retried with backoff, without
 * limit, until it lands (or the server stops; a restart records a game whose end is in its log).
 * Records go one at a time: a burst of games ending together must not queue several of them ahead
 * of the live games' log writes on the pool's connections.
 */
import { type RecordableHistogram, createHistogram } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, type Timer, systemClock } from '../clock.ts';
import type { GameStore } from './store.ts';
import type { FinishedGame } from './types.ts';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

export class GameRecorder {
  readonly #store: GameStore;
  readonly #log: FastifyBaseLogger;
  readonly #onRecorded: () => void;
  /** Record attempts in flight, and the last in line. */
  readonly #recording = new Set<Promise<unknown>>();
  #turn: Promise<void> = Promise.resolve();
  readonly #clock: Clock;
  /** Retries waiting for their time (the clock's: tests drive a long outage by hand). */
  readonly #waits = new Set<{ timer: Timer; resolve: () => void }>();
  #stopping = false;
  /** How long recording a finished game takes (ns), for /metrics. */
  readonly durations: RecordableHistogram = createHistogram();
  /** Attempts that failed and were tried again. */
  retries = 0;

  constructor(deps: {
    store: GameStore;
    log: FastifyBaseLogger;
    onRecorded: () => void;
    /** Whose time the retries wait on (the server's clock: tests drive a long outage by hand). */
    clock?: Clock;
  }) {
    this.#store = deps.store;
    this.#clock = deps.clock ?? systemClock;
    this.#log = deps.log;
    this.#onRecorded = deps.onRecorded;
  }

  /** Resolves once the game is recorded (false: the server stopped first). */
  async record(game: FinishedGame): Promise<boolean> {
    for (let attempt = 1; !this.#stopping; attempt += 1) {
      const attempted = this.#turn.then(async () => {
        const started = process.hrtime.bigint();
        await this.#store.finish(game);
        this.durations.record(process.hrtime.bigint() - started);
        this.#onRecorded();
      });
      this.#turn = attempted.catch(() => {});
      this.#recording.add(attempted);
      try {
        await attempted;
        return true;
      } catch (error) {
        this.#log.error({ err: error, gameId: game.id, attempt }, 'recording a finished game failed; retrying');
        this.retries += 1;
        await this.#wait(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempt - 1)));
      } finally {
        this.#recording.delete(attempted);
      }
    }
    return false;
  }

  /** Stops retrying; resolves once the attempts under way have ended. */
  async close(): Promise<void> {
    this.#stopping = true;
    for (const wait of this.#waits) {
      wait.timer.cancel();
      wait.resolve();
    }
    this.#waits.clear();
    await Promise.allSettled([...this.#recording]);
  }

  /** Retries due now or later: the clock's next timers include them. */
  get waiting(): number {
    return this.#waits.size;
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = {
        timer: this.#clock.at(this.#clock.now() + ms, () => {
          this.#waits.delete(wait);
          resolve();
        }),
        resolve,
      };
      this.#waits.add(wait);
    });
  }
}
