/**
 * A room's way out: what the running step must make durable (its row changes and log entries) and
 * what it will send once that is done. Steps leave in order — a step's sends run only when its own
 * writes and every earlier step's are durable — so nobody hears of a change a crash could undo.
 */
import type { LogEntry, RoomWrite, RowUpdate } from './types.ts';

export class StepBuffer {
  readonly #persist: (write: RoomWrite) => Promise<void>;
  #sends: (() => void)[] = [];
  #write: RoomWrite = { entries: [] };
  /** Resolves when every step so far is durable and sent. */
  #tail: Promise<void> = Promise.resolve();

  constructor(persist: (write: RoomWrite) => Promise<void>) {
    this.#persist = persist;
  }

  /** Sent once the running step is durable. */
  send(deliver: () => void): void {
    this.#sends.push(deliver);
  }

  /** Row changes of the running step; later ones win. */
  row(update: RowUpdate): void {
    this.#write.row = { ...this.#write.row, ...update };
  }

  entry(entry: LogEntry): void {
    this.#write.entries.push(entry);
  }

  /** Forgets what the running step did (it threw). */
  discard(): void {
    this.#sends = [];
    this.#write = { entries: [] };
  }

  /** Ends the running step: its writes go to storage; `deliver` gets its sends once they are durable. */
  seal(deliver: (sends: readonly (() => void)[]) => void): Promise<void> {
    const write = this.#write;
    const sends = this.#sends;
    this.discard();
    const writes = write.row !== undefined || write.entries.length > 0;
    if (!writes && sends.length === 0) return this.#tail;
    const durable = writes ? this.#persist(write) : null;
    const previous = this.#tail;
    this.#tail = (durable ? Promise.all([previous, durable]) : previous).then(() => deliver(sends));
    return this.#tail;
  }

  /** Runs after every step so far is durable and sent. */
  after(run: () => void): void {
    this.#tail = this.#tail.then(run);
  }

  get settled(): Promise<void> {
    return this.#tail;
  }
}
