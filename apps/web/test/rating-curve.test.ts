import { describe, expect, it } from 'vitest';
import { curvePoints } from '../src/components/rating-curve.ts';

const parse = (points: string) => points.split(' ').map((p) => p.split(',').map(Number) as [number, number]);

describe("the profile's rating curve", () => {
  it('puts the highest rating at the top, the lowest at the bottom, evenly spaced left to right', () => {
    const points = parse(curvePoints([1500, 1620, 1450, 1580], 100, 50));
    // 4 px of padding each side: (100 − 8) / 3 between points.
    expect(points.map(([x]) => x)).toEqual([4, 34.7, 65.3, 96]);
    const ys = points.map(([, y]) => y);
    expect(ys[1]).toBe(4);
    expect(ys[2]).toBe(46);
    expect(ys[0]).toBeGreaterThan(ys[3] as number);
  });

  it('draws equal ratings as a flat line', () => {
    const ys = parse(curvePoints([1500, 1500, 1500], 100, 50)).map(([, y]) => y);
    expect(new Set(ys).size).toBe(1);
  });
});
