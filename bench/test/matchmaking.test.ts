import { describe, expect, it } from 'vitest';
import { simulateMatchmaking, spearman } from '../src/matchmaking.ts';

describe('the Play now simulation', () => {
  it("ranks with Spearman's rho: 1 in order, −1 reversed, ties averaged, null for too few", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 10);
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBeCloseTo(-1, 10);
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9487, 3);
    expect(spearman([1, 2], [1, 2])).toBeNull();
  });

  it('gives the same report for the same seed, seats everyone it counts, and sorts people by skill', () => {
    const options = {
      people: 30,
      arrivalEverySeconds: 5,
      hours: 2,
      skillSeconds: [1.2, 4.0] as const,
      sizeMix: { '2': 0.3, '3': 0.1, '4': 0.1, any: 0.5 },
      seed: 'test',
    };
    const report = simulateMatchmaking(options);
    expect(simulateMatchmaking(options)).toEqual(report);
    expect(report.games).toBeGreaterThan(150);
    expect(report.medianWaitSeconds).toBeLessThanOrEqual(20);
    expect(report.botSeatPercent).toBeGreaterThan(0);
    expect(report.botSeatPercent).toBeLessThan(100);
    expect(report.rankCorrelation.get(10)?.rho ?? 0).toBeGreaterThan(0.5);
    // Two simulations of 2 hours: under a second alone, several on a machine running every suite.
  }, 30_000);
});
