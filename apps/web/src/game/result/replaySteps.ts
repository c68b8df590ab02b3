/**
 * Re-runs a finished game from its replay (seed + timestamped commands) with the engine, exactly as
 * the server ran it: advance to each command's time, apply it, and at the end advance until the game
 * is over. Everything the engine did on its own (bot moves, deadlock flips, time-outs) happens at its
 * own deadline, so stepping from deadline to deadline turns each of them into a step of its own.
 */
import {
  type Card,
  type Command,
  type GameConfig,
  type GameEvent,
  type GameResult,
  type GameState,
  advance,
  apply,
  cardsLeft,
  createGame,
  formatCard,
  nextDeadline,
} from '@memeslam/engine';

export interface StepPlayer {
  readonly id: string;
  readonly username: string;
  readonly isBot: boolean;
  readonly cardsLeft: number;
  readonly hand: readonly Card[];
  readonly left: boolean;
  readonly frozen: boolean;
}

export interface ReplayStep {
  /** Milliseconds since play began. */
  readonly at: number;
  /** What happened at this step, in words. */
  readonly description: string;
  readonly piles: readonly { readonly top: Card | null; readonly size: number }[];
  readonly players: readonly StepPlayer[];
}

export interface ReplayRun {
  readonly steps: readonly ReplayStep[];
  readonly result: GameResult | null;
  /** Why the re-run does not reproduce a finished game; empty when it does. */
  readonly problems: readonly string[];
}

/** A guard against a malformed replay that would never finish. */
const MAX_STEPS = 50_000;

function snapshot(state: GameState, at: number, description: string): ReplayStep {
  return {
    at: Math.max(0, at - state.startedAt),
    description,
    piles: state.piles.map((pile) => ({ top: pile.at(-1) ?? null, size: pile.length })),
    players: state.players.map((p) => ({
      id: p.id,
      username: p.username,
      isBot: p.bot !== null,
      cardsLeft: cardsLeft(p),
      hand: p.hand,
      left: p.left !== null,
      frozen: p.frozenUntil !== null && p.frozenUntil > state.clock,
    })),
  };
}

/** The events of one step in words; null when nothing visible happened (a bot that held back). */
export function describeEvents(events: readonly GameEvent[], names: ReadonlyMap<string, string>): string | null {
  const name = (id: string) => names.get(id) ?? id;
  const lines: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'cardPlayed':
        lines.push(`${name(e.playerId)} played ${formatCard(e.card)} on pile ${e.pileIndex + 1}`);
        break;
      case 'powerUpUsed':
        lines.push(`${name(e.playerId)} used ${e.effect.powerUpType}`);
        break;
      case 'playerFrozen':
        lines.push(`${name(e.playerId)} was frozen by ${name(e.frozenBy)}`);
        break;
      case 'deadlockResolved':
        lines.push(`Deadlock resolved: ${e.cardsFlipped} cards flipped`);
        break;
      case 'deadlockUnresolvable':
        lines.push(`Deadlock: ${e.reason}`);
        break;
      case 'playerLeft':
        lines.push(`${name(e.playerId)} ${e.reason === 'left' ? 'left the game' : 'disconnected for too long'}`);
        break;
      case 'gameEnded':
        lines.push(
          e.result.winnerId
            ? `Game over: ${name(e.result.winnerId)} wins`
            : `Game over: no winner (${e.result.reason})`,
        );
        break;
      default:
        break;
    }
  }
  return lines.length > 0 ? lines.join('; ') : null;
}

/** What a replay holds, in the engine's terms (the protocol's Replay fits it). */
export interface ReplayInput {
  readonly seed: string;
  readonly config: GameConfig;
  readonly commands: readonly { readonly at: number; readonly command: Command }[];
}

export function runReplay(replay: ReplayInput): ReplayRun {
  const problems: string[] = [];
  if (replay.config.seed !== replay.seed)
    problems.push('The game was dealt from a different seed than the one revealed.');
  let state: GameState;
  try {
    state = createGame(replay.config);
  } catch (error) {
    return { steps: [], result: null, problems: [`The deal cannot be re-run: ${String(error)}`] };
  }
  const names = new Map(state.players.map((p) => [p.id, p.bot ? `${p.username} (Bot)` : p.username]));
  const steps: ReplayStep[] = [snapshot(state, state.startedAt, 'Cards dealt')];

  const record = (events: readonly GameEvent[], at: number) => {
    const description = describeEvents(events, names);
    if (description !== null && steps.length < MAX_STEPS) steps.push(snapshot(state, at, description));
  };
  /** Runs every deadline up to `until`, one deadline per step. */
  const runUntil = (until: number) => {
    for (let due = nextDeadline(state); due !== null && due <= until; due = nextDeadline(state)) {
      const next = advance(state, due);
      state = next.state;
      record(next.events, due);
      // Every deadline due is run by advance(), so the next one is later; if not, stop stepping.
      const after = nextDeadline(state);
      if (steps.length >= MAX_STEPS || (after !== null && after <= due)) break;
    }
    state = advance(state, until).state;
  };

  for (const [index, { at, command }] of replay.commands.entries()) {
    runUntil(at);
    if (state.status !== 'active') {
      problems.push(`The game was already over before command ${index + 1} (${command.type}).`);
      break;
    }
    const result = apply(state, command, at);
    if (!result.ok) {
      problems.push(`Command ${index + 1} (${command.type}) was refused: ${result.error.message}`);
      break;
    }
    state = result.state;
    record(result.events, at);
  }
  if (problems.length === 0 && state.status === 'active') runUntil(state.endsAt);
  if (problems.length === 0 && state.status !== 'finished') problems.push('The game does not finish when re-run.');
  return { steps, result: state.result, problems };
}
