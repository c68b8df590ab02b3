/**
 * A game in play rebuilt from its durable form: the engine's config, then each log entry as the
 * room applied it (advance to its time, then its command if it has one). Pure: the same header and
 * entries always give the same state. Also the ending a room gives a game it has to stop.
 */
import { type GameResult, type GameState, rankPlayers } from '@memeslam/engine';
import type { LogEntry, Rules, StoredHeader } from './types.ts';

export interface Replayed {
  readonly state: GameState;
  /** Entries replayed (the last `n`). */
  readonly length: number;
  /** The highest broadcast seq the entries carry. */
  readonly seq: number;
  /** The game-clock time the log reached. */
  readonly lastAt: number;
}

/** Throws when an entry is out of sequence or the engine refuses it: the log is not this game's. */
export function replayLog(header: StoredHeader, entries: readonly LogEntry[], rules: Rules): Replayed {
  let state = rules.createGame(header.config);
  let lastAt = header.config.startAt;
  let length = 0;
  let seq = 0;
  for (const entry of entries) {
    if (entry.n !== length + 1) throw new Error(`log entry ${entry.n} follows ${length}`);
    state = rules.advance(state, entry.at).state;
    if (entry.command) {
      const result = rules.apply(state, entry.command, entry.at);
      if (!result.ok) throw new Error(`log entry ${entry.n} is refused on replay: ${result.error.message}`);
      state = result.state;
    }
    length = entry.n;
    seq = Math.max(seq, entry.seq);
    lastAt = Math.max(lastAt, entry.at);
  }
  return { state, length, seq, lastAt };
}

/** The game as it stood, ended as aborted: no winner, no points. */
export function abortedState(state: GameState): GameState {
  const result: GameResult = {
    winnerId: null,
    reason: 'aborted',
    endedAt: state.clock,
    durationMs: state.clock - state.startedAt,
    ranking: rankPlayers(state.players, null, 'aborted'),
  };
  return { ...state, status: 'finished', result };
}
