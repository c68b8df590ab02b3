import { describe, expect, it } from 'vitest';
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
