/**
 * A room's step machinery. Every call into a room is one step that runs to completion in arrival
 * order: the step's broadcasts (the game's, through `gameOut`, among them) are numbered (the room's
 * seq), prepared (on one node: encoded), and held back with its writes in a StepBuffer until those
 * are durable, and the room's one timer is armed again at its next deadline.
 * A step that throws stops the room: its players are told, the service aborts the game, and nothing
 * else is touched.
 */
import { REFUSAL_TEXTS, type ServerPayload } from '@memeslam/protocol';
import type { Alarm } from '../clock.ts';
import { StepBuffer } from './step-buffer.ts';
import type { GameOut } from './played-game.ts';
import {
  type Outcome,
  type RoomDeps,
  type RoomEventName,
  type RoomPayload,
  type RowUpdate,
  fail,
  ok,
} from './types.ts';

/** One step's answer, and the moment its writes are durable and its broadcasts have left. */
export interface Step<T> {
  readonly outcome: Outcome<T>;
  readonly done: Promise<void>;
}

/** What the step machinery asks of its room. */
export interface StepHooks {
  /** The row of a step that changed the lobby: status and lobby record. */
  lobbyRow(): RowUpdate;
  /** The earliest wall-clock time something is due; null when nothing is (or the room is finished). */
  nextDeadline(): number | null;
  /** What the timer runs, as a step of its own: whatever is due. */
  due(): void;
  /** The room threw and ends here: the end of an aborted game in play to announce, or null. */
  halt(): RoomPayload<'gameEnded'> | null;
}

/**
 * A room event's payload given its seq: the event's payload, the same object. The overload says so
 * for every room event, which TypeScript cannot see through `Omit` for a generic event.
 */
function numbered<E extends RoomEventName>(payload: RoomPayload<E>, seq: number): ServerPayload<E>;
function numbered(payload: object, seq: number): object {
  return Object.assign(payload, { seq });
}

export class StepRunner {
  readonly #gameId: string;
  readonly #deps: RoomDeps;
  readonly #hooks: StepHooks;
  readonly #buffer: StepBuffer;
  /** The room's broadcasts so far; every socket event carries it. */
  #seq = 0;
  /** The room's one timer, set to its next deadline after each step. */
  readonly #alarm: Alarm;
  /** When the alarm is set to ring; null when it is not set. */
  #alarmAt: number | null = null;
  /** The room threw: it takes no more steps. */
  #failed = false;
  #lost = false;
  /** The running step changed the lobby: its row is written with the step. */
  #lobbyChanged = false;

  constructor(gameId: string, deps: RoomDeps, hooks: StepHooks) {
    this.#gameId = gameId;
    this.#deps = deps;
    this.#hooks = hooks;
    this.#buffer = new StepBuffer((write) => deps.persist(gameId, write));
    this.#alarm = deps.clock.alarm(() => this.#tick());
  }

  get seq(): number {
    return this.#seq;
  }

  /** A restored room carries on from its stored seq. */
  set seq(seq: number) {
    this.#seq = seq;
  }

  get failed(): boolean {
    return this.#failed;
  }

  get lost(): boolean {
    return this.#lost;
  }

  /** Every step so far is durable and delivered. */
  get settled(): Promise<void> {
    return this.#buffer.settled;
  }

  /** Runs `action` as one step: its timer armed again after it, its writes sealed, or the room stopped. */
  run<T>(action: () => Outcome<T>): Step<T> {
    if (this.#failed) return { outcome: fail('GAME_STOPPED'), done: this.#buffer.settled };
    let outcome: Outcome<T>;
    try {
      outcome = action();
      this.#rearm();
    } catch (error) {
      this.#fail(error);
      return { outcome: fail('GAME_STOPPED'), done: this.#buffer.settled };
    }
    return { outcome, done: this.#seal() };
  }

  /**
   * To everyone in the room, numbered, once the running step is durable. The payload becomes the
   * message: it is given its `seq` rather than copied (every caller builds it for this one call).
   */
  emit<E extends RoomEventName>(event: E, payload: RoomPayload<E>): void {
    this.#seq += 1;
    const message = numbered(payload, this.#seq);
    this.#buffer.send(this.#deps.prepareToRoom(this.#gameId, event, message));
  }

  /**
   * Where a game's changes go when the engine applies a command or advances: this runner's running
   * step. `handFor` reads a member's hand as it stands; `ended`: the engine ended the game.
   */
  gameOut(room: { handFor(userId: string): ServerPayload<'handDealt'> | null; ended(): void }): GameOut {
    return {
      emit: (event, payload) => this.emit(event, payload),
      hand: (userId, event) => {
        const hand = room.handFor(userId);
        if (hand) this.#buffer.send(this.#deps.prepareToUser(userId, event, hand));
      },
      entry: (entry) => this.#buffer.entry({ ...entry, seq: this.#seq }),
      ended: () => room.ended(),
    };
  }

  /** Runs once the running step is durable. */
  send(deliver: () => void): void {
    this.#buffer.send(deliver);
  }

  /** Row changes of the running step; later ones win. */
  row(update: RowUpdate): void {
    this.#buffer.row(update);
  }

  /** Whether the running step's lobby row is written with it (false: the step writes the row otherwise). */
  set lobbyChanged(changed: boolean) {
    this.#lobbyChanged = changed;
  }

  /** Stops the timer; the room takes no more timed steps. */
  dispose(): void {
    this.#cancelAlarm();
  }

  /** Another node took the game over: no more steps, and nothing unwritten is delivered. */
  lose(): void {
    this.#lost = true;
    this.#failed = true;
    this.#cancelAlarm();
    this.#buffer.discard();
    this.#lobbyChanged = false;
  }

  /** Stops the room from outside (its writes could not be made durable): the game is aborted. */
  abort(error: unknown): void {
    if (!this.#failed) this.#fail(error);
  }

  /** Hands the step's writes to storage and queues its broadcasts behind them. */
  #seal(): Promise<void> {
    if (this.#lobbyChanged) {
      this.#buffer.row(this.#hooks.lobbyRow());
      this.#lobbyChanged = false;
    }
    return this.#buffer.seal((sends) => {
      if (!this.#failed) this.#deliver(sends);
    });
  }

  #deliver(outbox: readonly (() => void)[]): void {
    for (const send of outbox) {
      try {
        send();
      } catch (error) {
        this.#fail(error);
        return;
      }
    }
  }

  /** The room threw: stop it, tell its players, and let the service record the game as aborted. */
  #fail(error: unknown): void {
    this.#failed = true;
    this.#cancelAlarm();
    this.#buffer.discard();
    this.#lobbyChanged = false;
    const ended = this.#hooks.halt();
    const { toRoom } = this.#deps;
    this.#buffer.after(() => {
      this.#seq += 1;
      toRoom(this.#gameId, 'gameError', { message: REFUSAL_TEXTS.GAME_STOPPED, code: 'GAME_STOPPED', seq: this.#seq });
      if (ended) {
        this.#seq += 1;
        toRoom(this.#gameId, 'gameEnded', { ...ended, seq: this.#seq });
      }
    });
    this.#deps.failed(this.#gameId, error);
  }

  /** Runs what is due: countdown end, auto-start, lobby disconnects, the engine's deadlines. */
  #tick(): void {
    this.#alarmAt = null;
    const step = this.run(() => {
      this.#hooks.due();
      return ok(null);
    });
    void step.done;
  }

  /** Sets the alarm to the next deadline (most steps leave it as it was). */
  #rearm(): void {
    const at = this.#failed ? null : this.#hooks.nextDeadline();
    if (at === this.#alarmAt) return;
    if (at === null) {
      this.#cancelAlarm();
      return;
    }
    this.#alarm.set(at);
    this.#alarmAt = at;
  }

  #cancelAlarm(): void {
    this.#alarm.cancel();
    this.#alarmAt = null;
  }
}
