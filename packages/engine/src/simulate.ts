import { advance } from './advance.ts';
import { createGame } from './deal.ts';
import type { GameConfig, GameEvent, GameResult, GameState } from './types.ts';

export interface HeadlessOutcome {
  readonly state: GameState;
  readonly result: GameResult;
  /** Global deadlocks detected during the game. */
  readonly deadlocks: number;
  /** deadlockUnresolvable reports, as seen in the events. */
  readonly unresolvable: number;
  readonly events: readonly GameEvent[];
}

/**
 * Plays a game with no real waiting. With only bots seated nobody sends commands, so one advance()
 * to the time cap runs every deadline in order (advance's result does not depend on how often it is
 * called) and the game always ends, at the latest by the cap.
 */
export function playHeadless(config: GameConfig): HeadlessOutcome {
  const dealt = createGame(config);
  const { state, events } = advance(dealt, dealt.endsAt);
  let unresolvable = 0;
  for (const e of events) if (e.type === 'deadlockUnresolvable') unresolvable += 1;
  return { state, result: state.result as GameResult, deadlocks: state.deadlock.count, unresolvable, events };
}
