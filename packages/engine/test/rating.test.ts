import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_RATING,
  MAX_DEVIATION,
  MIN_DEVIATION,
  type Rating,
  isProvisional,
  rate,
  rateGame,
  ratingLabel,
} from '../src/rating.ts';

describe('Glicko-2', () => {
  it("gives the paper's worked example (Glickman 2012): 1464.06, 151.52, 0.05999", () => {
    const player = { rating: 1500, deviation: 200, volatility: 0.06 };
    const opponent = (rating: number, deviation: number) => ({ rating, deviation, volatility: 0.06 });
    const after = rate(
      player,
      [
        { opponent: opponent(1400, 30), score: 1 },
        { opponent: opponent(1550, 100), score: 0 },
        { opponent: opponent(1700, 300), score: 0 },
      ],
      { tau: 0.5, bounded: false },
    );
    // The paper rounds its steps (μ' = −0.2069, φ' = 0.8722); unrounded, r' = 1464.05.
    expect((after.rating - 1500) / 173.7178).toBeCloseTo(-0.2069, 4);
    expect(after.deviation / 173.7178).toBeCloseTo(0.8722, 4);
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.deviation).toBeCloseTo(151.52, 1);
    expect(after.volatility).toBeCloseTo(0.05999, 4);
  });

  it('only widens the deviation of a period without games', () => {
    const idle = rate({ rating: 1500, deviation: 50, volatility: 0.06 }, [], { bounded: false });
    expect(idle.rating).toBe(1500);
    expect(idle.deviation).toBeCloseTo(Math.sqrt(50 ** 2 + (0.06 * 173.7178) ** 2), 6);
  });

  it('counts a game of several people as pairwise outcomes by place: the winner gains, the last loses', () => {
    const after = rateGame([
      { id: 'a', place: 2, before: INITIAL_RATING },
      { id: 'b', place: 1, before: INITIAL_RATING },
      { id: 'c', place: 3, before: INITIAL_RATING },
    ]);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => after.get(id) as Rating);
    expect(b?.rating).toBeGreaterThan(1500);
    expect(c?.rating).toBeLessThan(1500);
    // One win and one loss against equals is a draw overall.
    expect(a?.rating).toBeCloseTo(1500, 6);
    expect(b?.rating ?? 0).toBeCloseTo(3000 - (c?.rating ?? 0), 6);
  });

  it('treats equal places as draws', () => {
    const after = rateGame([
      { id: 'a', place: 1, before: { rating: 1600, deviation: 80, volatility: 0.06 } },
      { id: 'b', place: 1, before: { rating: 1400, deviation: 80, volatility: 0.06 } },
    ]);
    expect(after.get('a')?.rating).toBeLessThan(1600);
    expect(after.get('b')?.rating).toBeGreaterThan(1400);
  });

  it('moves a winner up and a loser down, keeps the deviation in bounds, and never yields NaN', () => {
    const rating = fc.record({
      rating: fc.double({ min: 600, max: 2800, noNaN: true }),
      deviation: fc.double({ min: MIN_DEVIATION, max: MAX_DEVIATION, noNaN: true }),
      volatility: fc.double({ min: 0.03, max: 0.1, noNaN: true }),
    });
    fc.assert(
      fc.property(rating, rating, (winner, loser) => {
        const after = rateGame([
          { id: 'w', place: 1, before: winner },
          { id: 'l', place: 2, before: loser },
        ]);
        const w = after.get('w') as Rating;
        const l = after.get('l') as Rating;
        for (const r of [w, l]) {
          expect(Number.isFinite(r.rating) && Number.isFinite(r.volatility)).toBe(true);
          expect(r.deviation).toBeGreaterThanOrEqual(MIN_DEVIATION);
          expect(r.deviation).toBeLessThanOrEqual(MAX_DEVIATION);
        }
        expect(w.rating).toBeGreaterThan(winner.rating);
        expect(l.rating).toBeLessThan(loser.rating);
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });

  it('is provisional ("?") until the deviation falls under 110', () => {
    expect(ratingLabel(INITIAL_RATING)).toBe('1500?');
    expect(isProvisional({ deviation: 109.9 })).toBe(false);
    expect(ratingLabel({ rating: 1623.4, deviation: 80, volatility: 0.06 })).toBe('1623');
    let r: Rating = INITIAL_RATING;
    let games = 0;
    while (isProvisional(r)) {
      r = rateGame([
        { id: 'me', place: games % 2 === 0 ? 1 : 2, before: r },
        { id: 'them', place: games % 2 === 0 ? 2 : 1, before: { rating: 1500, deviation: 60, volatility: 0.06 } },
      ]).get('me') as Rating;
      games += 1;
    }
    expect(games).toBeGreaterThan(5);
    expect(games).toBeLessThan(40);
  });
});
