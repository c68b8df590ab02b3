import { describe, expect, it } from 'vitest';
import { DEFAULT_MATCH_PACE_MS, type GameState, Random, apply, createGame, matches, seedRng } from '@memeslam/engine';
import { HUMAN_PRESETS, humanLook, humanModel, parseHumanSeat } from '../src/human.ts';
import { type LadderFigures, ladderBands } from '../src/ladder-bands.ts';
import { simulateMatch } from '../src/match.ts';
import { seatingFor, simulate, type SimulationOptions } from '../src/simulation.ts';
import { parseArgs, percentile } from '../src/stats.ts';

const options: SimulationOptions = {
  players: 2,
  bots: ['easy', 'expert'],
  games: 40,
  speed: 'blitz',
  cardsPerPlayer: 20,
  seed: 'test-seed',
  rotate: true,
};

describe('simulation', () => {
  it('rotates the seating so every difficulty sits in every seat', () => {
    expect(seatingFor(options, 0)).toEqual(['easy', 'expert']);
    expect(seatingFor(options, 1)).toEqual(['expert', 'easy']);
    expect(seatingFor({ ...options, rotate: false }, 1)).toEqual(['easy', 'expert']);
  });

  it('accounts for every game and repeats exactly with the same seed', () => {
    const a = simulate(options, () => 0);
    const b = simulate(options, () => 0);
    expect({ ...a, gamesPerSecond: 0 }).toEqual({ ...b, gamesPerSecond: 0 });
    const wins = Object.values(a.byDifficulty).reduce((sum, d) => sum + d.wins, 0);
    const endings = Object.values(a.endings).reduce((sum, n) => sum + n, 0);
    expect(endings).toBe(options.games);
    expect(wins).toBe(a.bySeat.reduce((sum, s) => sum + s.wins, 0));
    expect(a.byDifficulty.expert?.seats).toBe(options.games);
    expect(a.gameLengthSeconds.median).toBeGreaterThan(0);
    expect(a.gameLengthSeconds.p90).toBeGreaterThanOrEqual(a.gameLengthSeconds.median);
  });

  it('changes with the seed', () => {
    const a = simulate(options, () => 0);
    const b = simulate({ ...options, seed: 'another-seed' }, () => 0);
    expect(a.gameLengthSeconds).not.toEqual(b.gameLengthSeconds);
  });
});

describe('stats helpers', () => {
  it('takes nearest-rank percentiles', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 90)).toBe(9);
    expect(percentile(sorted, 100)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });

  it('parses flags and values', () => {
    const args = parseArgs(['--players', '4', '--json', '--bots', 'easy,hard']);
    expect(Object.fromEntries(args)).toEqual({ players: '4', json: 'true', bots: 'easy,hard' });
    expect(() => parseArgs(['stray'])).toThrow('Unexpected argument: stray');
  });
});

describe('the human model', () => {
  it('scales its parameters with the median time per play', () => {
    const casual = humanModel(HUMAN_PRESETS.casual);
    expect(casual.medianMs).toBe(2200);
    expect(casual.reactionMs).toBe(770);
    expect(casual.powerUps).toBe('loose');
    expect(humanModel(HUMAN_PRESETS.quick).powerUps).toBe('good');
    expect(humanModel(HUMAN_PRESETS.beginner).powerUps).toBe('rare');
    expect(humanModel(1.4).overlook).toBeLessThan(casual.overlook);
    expect(humanModel(3.5).overlook).toBeGreaterThan(casual.overlook);
    expect(parseHumanSeat('human:2.2')).toEqual(casual);
    expect(parseHumanSeat('hard')).toBeNull();
    expect(() => parseHumanSeat('human:x')).toThrow();
  });

  const human = { index: 0, id: 'h', model: humanModel(2.2) };
  const game = (): GameState =>
    createGame({
      seed: '0123456789abcdef0123456789abcdef',
      seats: [
        { id: 'h', username: 'H', bot: null },
        { id: 'b', username: 'B', bot: 'hard' },
      ],
      cardsPerPlayer: 30,
      speed: 'normal',
      startAt: 0,
    });

  it('plays a matching card with a command the engine accepts, after a time per play', () => {
    const state = game();
    const random = new Random(seedRng('look'));
    let plays = 0;
    for (let n = 0; n < 200; n += 1) {
      const { command, busyMs } = humanLook(state, human, random, 0);
      expect(busyMs).toBeGreaterThan(0);
      if (command === null) continue;
      expect(command.type).toBe('playCard');
      expect(apply(state, command, 1000).ok).toBe(true);
      plays += 1;
    }
    const playable = state.players[0]!.stuckSince === null;
    if (playable) {
      // Overlooked now and then (about 8% for the casual model), played otherwise.
      expect(plays).toBeGreaterThan(170);
      expect(plays).toBeLessThan(200);
    } else expect(plays).toBe(0);
  });

  it('waits out a freeze and looks again a reaction time after the thaw', () => {
    const s = game();
    const frozen = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, frozenUntil: 8000 } : p)) };
    const { command, busyMs } = humanLook(frozen, human, new Random(seedRng('f')), 0);
    expect(command).toBeNull();
    expect(busyMs).toBeGreaterThan(8000);
  });

  it('uses power-ups the way the web client lets a person: Bomb without a pile, Freeze on an opponent', () => {
    const s = game();
    const tops = s.piles.map((pile) => pile[pile.length - 1]!);
    const unplayable = s.stock.filter((c) => !tops.some((t) => matches(c, t))).slice(0, 3);
    const stuck = {
      ...s,
      clock: 60_000,
      players: s.players.map((p, i) =>
        i === 0 ? { ...p, hand: unplayable, stuckSince: 0, powerUpsUsed: ['SNIPER' as const] } : p,
      ),
    };
    const { command } = humanLook(stuck, human, new Random(seedRng('b')), 60_000);
    expect(command).toEqual({ type: 'usePowerUp', playerId: 'h', powerUpType: 'BOMB' });
    // The opponent is about to win: a person freezes them (Reversal used already).
    const racing = {
      ...s,
      clock: 60_000,
      players: s.players.map((p, i) =>
        i === 1 ? { ...p, deck: p.deck.slice(0, 5) } : { ...p, powerUpsUsed: ['REVERSAL' as const] },
      ),
    };
    expect(humanLook(racing, human, new Random(seedRng('c')), 60_000).command).toEqual({
      type: 'usePowerUp',
      playerId: 'h',
      powerUpType: 'FREEZE',
      targetPlayerId: 'b',
    });
  });

  it('plays whole games against bots, repeatably, with no opening power-up and no refreeze', () => {
    const withHuman: SimulationOptions = {
      ...options,
      bots: ['human:2.2', 'expert'],
      speed: 'normal',
      cardsPerPlayer: 30,
    };
    const a = simulate(withHuman, () => 0);
    const b = simulate(withHuman, () => 0);
    expect({ ...a, gamesPerSecond: 0 }).toEqual({ ...b, gamesPerSecond: 0 });
    expect(a.byDifficulty['human:2.2']?.seats).toBe(options.games);
    expect((a.byDifficulty['human:2.2']?.wins ?? 0) + (a.byDifficulty.expert?.wins ?? 0)).toBe(options.games);
    expect(a.openingPowerUps).toBe(0);
    expect(a.refreezesWithin20s).toBe(0);
  });
});

describe('the ladder bands', () => {
  const cell = (winRate: number, median = 100) => ({
    winRate,
    median,
    p90: median + 10,
    openingPowerUps: 0,
    refreezes: 0,
  });
  const figures: LadderFigures = {
    games: 2000,
    humans: {
      quick: { hard: cell(60) },
      casual: { easy: cell(90), normal: cell(65, 95), hard: cell(40), expert: cell(15) },
    },
    match: { casual: { human: 2.2, games: 2000, winRate: 50, recordedPaceMs: 2400 } },
    headToHead: {},
    ordered: true,
  };

  it('pass inside the ladder bands', () => {
    expect(ladderBands(figures).every((b) => b.ok)).toBe(true);
  });

  it('fail outside them, one by one', () => {
    const failing = (f: LadderFigures) =>
      ladderBands(f)
        .filter((b) => !b.ok)
        .map((b) => b.what);
    expect(
      failing({ ...figures, humans: { ...figures.humans, casual: { ...figures.humans.casual, easy: cell(96) } } }),
    ).toEqual(['casual person (2.2 s) wins against easy']);
    expect(failing({ ...figures, humans: { ...figures.humans, quick: { hard: cell(50) } } })).toEqual([
      'quick person (1.4 s) wins against hard',
    ]);
    expect(failing({ ...figures, ordered: false })).toHaveLength(1);
    expect(
      failing({ ...figures, match: { casual: { human: 2.2, games: 2000, winRate: 61, recordedPaceMs: 2400 } } }),
    ).toEqual(['"Match me" after 5 games: casual person (2.2 s) wins']);
    expect(
      failing({
        ...figures,
        humans: { ...figures.humans, casual: { ...figures.humans.casual, normal: cell(65, 89) } },
      }),
    ).toEqual(['casual person against normal: median game length']);
    expect(
      failing({
        ...figures,
        humans: { ...figures.humans, quick: { hard: { ...cell(60), openingPowerUps: 1, refreezes: 2 } } },
      }),
    ).toHaveLength(2);
  });
});

describe('"Match me" in simulation', () => {
  it('plays warm-up games to record a pace, then counts the rest, repeatably', () => {
    const options = { human: 2.2, people: 3, warmUp: 2, counted: 2, seed: 'match-test' };
    const a = simulateMatch(options);
    expect(a.games).toBe(6);
    expect(a.winRate).toBeGreaterThanOrEqual(0);
    expect(a.winRate).toBeLessThanOrEqual(100);
    // The recorded pace is the person's measured median, not the default.
    expect(a.recordedPaceMs).not.toBe(DEFAULT_MATCH_PACE_MS);
    expect(a.recordedPaceMs).toBeGreaterThan(1800);
    expect(a.recordedPaceMs).toBeLessThan(3200);
    expect(simulateMatch(options)).toEqual(a);
  });
});
