/**
 * A room's game once dealt: the engine's state, its seed and its clock. The commands it accepted are
 * in its log only (the record reads them back from there for the replay).
 * Every change goes through `command` or `advance`: the engine's events come back as the protocol's
 * socket events, changed hands and log entries through the room's `GameOut`, which numbers them,
 * makes them durable and sends them. No I/O of its own.
 */
import { type Command, type GameEvent, type GameResult, type GameState, handView } from '@memeslam/engine';
import type { GameSetup } from '@memeslam/protocol';
import type { Clock } from '../clock.ts';
import { socketEventsFor } from './events.ts';
import { abortedState, replayLog } from './game-log-replay.ts';
import { gameStateOf } from './present.ts';
import {
  type LogEntry,
  type Outcome,
  type RoomEventName,
  type RoomPayload,
  type Rules,
  type Seat,
  type StoredHeader,
  fail,
  ok,
} from './types.ts';

/** What an accepted game command did. */
export interface Applied {
  readonly events: readonly GameEvent[];
  readonly deadlockCheck: { deadlockDetected: boolean; resolved: boolean } | null;
}

/** Where a game's changes go: the room's running step. */
export interface GameOut {
  /** To everyone in the room. */
  emit<E extends RoomEventName>(event: E, payload: RoomPayload<E>): void;
  /** A changed hand, to its owner only. */
  hand(userId: string, event: 'handDealt' | 'handUpdated'): void;
  /** A log entry (the room adds its seq). */
  entry(entry: Omit<LogEntry, 'seq'>): void;
  /** The engine ended the game. */
  ended(): void;
}

interface Deps {
  readonly gameId: string;
  readonly seats: readonly Seat[];
  readonly rules: Rules;
  readonly clock: Clock;
}

export class PlayedGame {
  readonly seed: string;
  readonly #deps: Deps;
  #state: GameState;
  /** Entries in the log so far. */
  #logLength: number;
  /** Game clock = wall clock − offset; a restored game resumes its clock where its log stopped. */
  readonly #clockOffset: number;
  /** Wall time each bot last acted, for the bot-status call. */
  readonly #botActivity = new Map<string, number>();

  private constructor(
    deps: Deps,
    game: {
      seed: string;
      state: GameState;
      logLength: number;
      clockOffset: number;
    },
  ) {
    this.#deps = deps;
    this.seed = game.seed;
    this.#state = game.state;
    this.#logLength = game.logLength;
    this.#clockOffset = game.clockOffset;
  }

  /** A new deal of these seats, starting now; `header` is what the log's row keeps. */
  static deal(deps: Deps, setup: GameSetup, seed: string) {
    const config = {
      seed,
      seats: deps.seats.map((s) => ({
        id: s.playerId,
        username: s.username,
        bot: s.bot,
        ...(s.botPaceMs === undefined ? {} : { botPaceMs: s.botPaceMs }),
      })),
      cardsPerPlayer: setup.cardsPerPlayer,
      speed: setup.gameSpeed,
      startAt: deps.clock.now(),
    };
    const game = new PlayedGame(deps, {
      seed,
      state: deps.rules.createGame(config),
      logLength: 0,
      clockOffset: 0,
    });
    return { game, header: { config, clockOffset: 0 } satisfies StoredHeader };
  }

  /**
   * The game replayed from its header and log; its clock resumes where the log stopped. Throws when
   * the log does not replay. `seq` is the last event number the log saw.
   */
  static replayed(deps: Deps, header: StoredHeader, entries: readonly LogEntry[]) {
    const replayed = replayLog(header, entries, deps.rules);
    const game = new PlayedGame(deps, {
      seed: header.config.seed,
      state: replayed.state,
      logLength: replayed.length,
      clockOffset: deps.clock.now() - replayed.lastAt,
    });
    return { game, seq: replayed.seq };
  }

  get state(): GameState {
    return this.#state;
  }

  get clockOffset(): number {
    return this.#clockOffset;
  }

  get #now(): number {
    return this.#deps.clock.now() - this.#clockOffset;
  }

  /** A player's hand and view with wall-clock times; null for someone not playing. */
  handFor(userId: string) {
    const hand = handView(this.#state, userId);
    if (!hand) return null;
    const wall = (t: number | null) => (t === null ? null : t + this.#clockOffset);
    return { ...hand, frozenUntil: wall(hand.frozenUntil), stuckSince: wall(hand.stuckSince) };
  }

  cardsLeft(playerId: string): number | null {
    const player = this.#state.players.find((p) => p.id === playerId);
    return player ? player.hand.length + player.deck.length : null;
  }

  /** Wall time the bot last acted, if it has. */
  lastActed(botId: string): number | undefined {
    return this.#botActivity.get(botId);
  }

  /** The engine's next deadline on the wall clock. */
  nextDeadline(): number | null {
    const due = this.#deps.rules.nextDeadline(this.#state);
    return due === null ? null : due + this.#clockOffset;
  }

  /** Advances the engine to `now` (the game clock's now by default); a change is logged as a timer step. */
  advance(out: GameOut, now = this.#now): void {
    const due = this.#deps.rules.advance(this.#state, now);
    if (due.state === this.#state && due.events.length === 0) return;
    this.#commit(due.state, due.events, out);
    this.#logLength += 1;
    out.entry({ n: this.#logLength, at: now, command: null });
  }

  /** Advances to now, applies the command, logs it, and sends out what happened. */
  command(command: Command, out: GameOut): Outcome<Applied> {
    const now = this.#now;
    this.advance(out, now);
    if (this.#state.status !== 'active') return fail('GAME_NOT_ACTIVE');
    const result = this.#deps.rules.apply(this.#state, command, now);
    if (!result.ok) return fail(result.error.code, result.error.message);
    this.#commit(result.state, result.events, out);
    this.#logLength += 1;
    out.entry({ n: this.#logLength, at: now, command });
    return ok({ events: result.events, deadlockCheck: result.deadlockCheck ?? null });
  }

  /** Ends a game in play as aborted (its room failed); the `gameEnded` payload, or null if it had ended. */
  abort(): RoomPayload<'gameEnded'> | null {
    if (this.#state.result) return null;
    this.#state = abortedState(this.#state);
    const result = this.#state.result as GameResult;
    const sent = socketEventsFor([{ type: 'gameEnded', result }], this.#mapping()).broadcasts;
    return sent.find((m) => m.event === 'gameEnded')?.payload ?? null;
  }

  #commit(state: GameState, events: readonly GameEvent[], out: GameOut): void {
    const wasOver = this.#state.status === 'finished';
    this.#state = state;
    if (events.length > 0) {
      const sent = socketEventsFor(events, this.#mapping());
      const now = this.#deps.clock.now();
      for (const botId of sent.botsActed) this.#botActivity.set(botId, now);
      for (const { event, payload } of sent.broadcasts) out.emit(event, payload);
      for (const playerId of sent.hands) out.hand(playerId, 'handUpdated');
    }
    if (state.status === 'finished' && !wasOver) out.ended();
  }

  #mapping() {
    return {
      gameId: this.#deps.gameId,
      seed: this.seed,
      seats: this.#deps.seats,
      gameState: gameStateOf({ clockOffset: this.#clockOffset }, this.#state),
    };
  }
}
