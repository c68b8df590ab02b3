import { advance, nextDeadline } from './advance.ts';
import { createGame } from './deal.ts';
import type { GameConfig, GameEvent, GameResult, GameState } from './types.ts';

export interface HeadlessOutcome {
  readonly state: GameState;
  readonly result: GameResult;
  /** Automatic, manual or forced resolutions plus unresolvable reports, as seen in the events. */
  readonly deadlocks: number;
  readonly unresolvable: number;
  readonly steps: number;
}

/**
 * Plays a game with no real waiting: jumps from deadline to deadline until it ends. With only bots
 * seated this is a full bot-vs-bot game; it always ends, at the latest by the time cap.
 */
export function playHeadless(
  config: GameConfig,
  onEvents?: (events: readonly GameEvent[], state: GameState) => void,
): HeadlessOutcome {
  let state = createGame(config);
  let unresolvable = 0;
  let steps = 0;
  for (let due = nextDeadline(state); due !== null; due = nextDeadline(state)) {
    const { state: next, events } = advance(state, due);
    state = next;
    steps += 1;
    for (const e of events) if (e.type === 'deadlockUnresolvable') unresolvable += 1;
    onEvents?.(events, state);
  }
  return { state, result: state.result as GameResult, deadlocks: state.deadlock.count, unresolvable, steps };
}
