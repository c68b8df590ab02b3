/**
 * The replay page's pure parts: the seed commitment check, and the re-run that turns a replay into
 * steps. Replays are made here the way the server makes them: advance to now, apply, record.
 */
import {
  type Command,
  type GameConfig,
  type GameState,
  advance,
  apply,
  createGame,
  matches,
  nextDeadline,
} from '@memeslam/engine';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commitmentMatches, sha256Hex } from '../src/game/result/fairness.ts';
import { runReplay } from '../src/game/result/replaySteps.ts';

const SEED = '0123456789abcdef0123456789abcdef';
const START = 1_700_000_000_000;

function config(seed = SEED): GameConfig {
  return {
    seed,
    seats: [
      { id: 'human', username: 'alice', bot: null },
      { id: 'bot-1', username: 'Robo', bot: 'expert' },
    ],
    cardsPerPlayer: 20,
    speed: 'blitz',
    startAt: START,
  };
}

/** A server-like run: the human plays the first matching card every `every` ms; commands are recorded. */
function serverRun(cfg: GameConfig, every: number, leaveAt?: number) {
  let state: GameState = createGame(cfg);
  const commands: { at: number; command: Command }[] = [];
  const send = (command: Command, at: number) => {
    state = advance(state, at).state;
    if (state.status !== 'active') return;
    const result = apply(state, command, at);
    if (result.ok) {
      commands.push({ at, command });
      state = result.state;
    }
  };
  for (let at = START + every; state.status === 'active' && at < state.endsAt; at += every) {
    if (leaveAt !== undefined && at >= leaveAt) {
      send({ type: 'leave', playerId: 'human' }, at);
      break;
    }
    state = advance(state, at).state;
    const me = state.players.find((p) => p.id === 'human');
    if (!me || state.status !== 'active') break;
    for (const card of me.hand) {
      const pileIndex = state.piles.findIndex((pile) => pile.length > 0 && matches(card, pile.at(-1)!));
      if (pileIndex >= 0) {
        send({ type: 'playCard', playerId: 'human', cardId: card.id, pileIndex }, at);
        break;
      }
    }
  }
  while (state.status === 'active') state = advance(state, nextDeadline(state) ?? state.endsAt).state;
  return { state, replay: { seed: cfg.seed, config: cfg, commands } };
}

describe('seed commitment', () => {
  it('is the hex SHA-256 of the seed', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const commitment = createHash('sha256').update(SEED, 'utf8').digest('hex');
    expect(await commitmentMatches(SEED, commitment)).toBe(true);
    expect(await commitmentMatches(SEED, commitment.toUpperCase())).toBe(true);
  });

  it('fails for another seed', async () => {
    const commitment = createHash('sha256').update(SEED, 'utf8').digest('hex');
    expect(await commitmentMatches('f'.repeat(32), commitment)).toBe(false);
  });
});

describe('runReplay', () => {
  it('reproduces a game with human plays and bot moves, one step per move', () => {
    const { state, replay } = serverRun(config(), 900);
    expect(replay.commands.length).toBeGreaterThan(3);
    const run = runReplay(replay);
    expect(run.problems).toEqual([]);
    expect(run.result).toEqual(state.result);
    const first = run.steps[0]!;
    expect(first.description).toBe('Cards dealt');
    expect(first.at).toBe(0);
    expect(first.players.map((p) => p.cardsLeft)).toEqual([20, 20]);
    // Every card played is a step of its own, in time order, ending with the game over.
    const plays = run.steps.filter((s) => s.description.includes(' played '));
    const cardsPlayed = state.players.reduce((sum, p) => sum + p.cardsPlayed, 0);
    expect(plays.length).toBe(cardsPlayed);
    const times = run.steps.map((s) => s.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const last = run.steps.at(-1)!;
    expect(last.description).toMatch(/Game over/);
    expect(last.players.map((p) => p.cardsLeft)).toEqual(state.players.map((p) => p.hand.length + p.deck.length));
  });

  it('names bots and piles in the step text', () => {
    const { replay } = serverRun(config(), 1500);
    const run = runReplay(replay);
    expect(
      run.steps.some((s) =>
        /^Robo \(Bot\) played (Red|Blue|Green|Yellow|Orange|Purple) [1-5] \w+ on pile [12]/.test(s.description),
      ),
    ).toBe(true);
  });

  it('reproduces a game its only human left (aborted, no winner)', () => {
    const { state, replay } = serverRun(config(), 700, START + 3000);
    const run = runReplay(replay);
    expect(run.problems).toEqual([]);
    expect(run.result?.reason).toBe('aborted');
    expect(run.result?.winnerId).toBeNull();
    expect(run.result).toEqual(state.result);
    expect(run.steps.at(-1)!.description).toBe('alice left the game; Game over: no winner (aborted)');
  });

  it('reports a replay that does not reproduce the game', () => {
    const { replay } = serverRun(config(), 900);
    // The same commands against another deal: some card is not where the log says.
    const other = { ...replay, config: { ...replay.config, seed: 'fedcba9876543210fedcba9876543210' } };
    const run = runReplay(other);
    expect(run.problems.length).toBeGreaterThan(0);
    expect(run.problems[0]).toMatch(/different seed/);
  });

  it('reports a command the engine refuses', () => {
    const { replay } = serverRun(config(), 900);
    const commands = [...replay.commands];
    commands.splice(1, 0, {
      at: commands[0]!.at,
      command: { type: 'playCard', playerId: 'human', cardId: 'nope', pileIndex: 0 },
    });
    const run = runReplay({ ...replay, commands });
    expect(run.problems).toHaveLength(1);
    expect(run.problems[0]).toMatch(/^Command 2 \(playCard\) was refused/);
  });
});
