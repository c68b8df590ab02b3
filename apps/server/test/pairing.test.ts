/** "Play now" pairing on its own (pure): windows, table sizes, bot fill, the bot offer, farming. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOT_FILL_AFTER_MS,
  type Decision,
  MAX_SAME_ADDRESS_MEETINGS,
  type PairingContext,
  type Seeker,
  type TableSize,
  pair,
  windowOf,
} from '../src/matchmaking/pairing.ts';

let n = 0;
const seeker = (rating: number, size: TableSize = 2, since = 0, extra: Partial<Seeker> = {}): Seeker => ({
  userId: `u${(n += 1)}`,
  rating,
  size,
  since,
  address: `10.0.0.${n}`,
  paceMs: 2000,
  ...extra,
});
const at = (now: number, extra: Partial<PairingContext> = {}): PairingContext => ({
  now,
  meetingsWithin: () => 0,
  offered: () => false,
  ...extra,
});
const tables = (decisions: Decision[]) =>
  decisions.flatMap((d) => (d.kind === 'table' ? [{ people: d.people.map((p) => p.userId), bots: d.bots }] : []));

describe('Play now pairing', () => {
  it('seats two people of similar rating at once; people far apart once their windows have grown', () => {
    const a = seeker(1500);
    const b = seeker(1580);
    expect(tables(pair([b, a], at(0)))).toEqual([{ people: [a.userId, b.userId], bots: 0 }]);
    const c = seeker(1500);
    const d = seeker(1900);
    expect(pair([c, d], at(0))).toEqual([]);
    // 400 apart: a window of 100 + 15 per second reaches it after 20 s.
    expect(windowOf(c, 20_000)).toBe(400);
    expect(tables(pair([c, d], at(19_000)))).toEqual([]);
    expect(tables(pair([c, d], at(20_000)))).toEqual([{ people: [c.userId, d.userId], bots: 0 }]);
  });

  it('keeps table sizes apart; "any" joins the table the others want', () => {
    const two = seeker(1500, 2);
    const three = seeker(1500, 3);
    expect(pair([two, three], at(0))).toEqual([]);
    const anyOne = seeker(1510, 'any');
    const anyTwo = seeker(1490, 'any');
    expect(tables(pair([three, anyOne, anyTwo], at(0)))).toEqual([
      { people: [three.userId, anyOne.userId, anyTwo.userId], bots: 0 },
    ]);
    const trio = [seeker(1500, 'any', 0), seeker(1500, 'any', 1), seeker(1500, 'any', 2)];
    expect(tables(pair(trio, at(0)))).toEqual([{ people: trio.map((s) => s.userId), bots: 0 }]);
  });

  it('after 20 s fills the empty seats with bots paced like the people present', () => {
    const a = seeker(1500, 4, 0, { paceMs: 1800 });
    const b = seeker(1520, 4, 1000, { paceMs: 2600 });
    expect(pair([a, b], at(BOT_FILL_AFTER_MS - 1))).toEqual([]);
    const [table] = pair([a, b], at(BOT_FILL_AFTER_MS));
    expect(table).toEqual({ kind: 'table', people: [a, b], bots: 2, botPaceMs: 2200 });
  });

  it('offers someone alone for 20 s a bot game paced to them, once', () => {
    const a = seeker(1500, 3, 0, { paceMs: 1700 });
    expect(pair([a], at(BOT_FILL_AFTER_MS - 1))).toEqual([]);
    expect(pair([a], at(BOT_FILL_AFTER_MS))).toEqual([{ kind: 'offerBots', seeker: a, botPaceMs: 1700 }]);
    expect(pair([a], at(BOT_FILL_AFTER_MS + 5000, { offered: () => true }))).toEqual([]);
  });

  it('seats two accounts from one address together at most twice an hour', () => {
    const a = seeker(1500, 2, 0, { address: '192.0.2.7' });
    const b = seeker(1500, 2, 0, { address: '192.0.2.7' });
    for (let met = 0; met < MAX_SAME_ADDRESS_MEETINGS; met += 1) {
      expect(tables(pair([a, b], at(0, { meetingsWithin: () => met })))).toHaveLength(1);
    }
    expect(pair([a, b], at(0, { meetingsWithin: () => MAX_SAME_ADDRESS_MEETINGS }))).toEqual([]);
  });

  it('never seats anyone twice, only at tables of their size, within every pair of windows, whatever the order', () => {
    const arbitrarySeeker = fc.record({
      rating: fc.integer({ min: 800, max: 2400 }),
      size: fc.constantFrom<TableSize>(2, 3, 4, 'any'),
      since: fc.integer({ min: 0, max: 60_000 }),
    });
    fc.assert(
      fc.property(fc.array(arbitrarySeeker, { maxLength: 30 }), fc.integer({ min: 0, max: 90_000 }), (specs, later) => {
        const queue = specs.map((s, i) => ({ ...seeker(s.rating, s.size, s.since), userId: `s${i}` }));
        const now = 60_000 + later;
        const decisions = pair(queue, at(now));
        const seated = decisions.flatMap((d) => (d.kind === 'table' ? d.people : [d.seeker])).map((s) => s.userId);
        expect(new Set(seated).size).toBe(seated.length);
        for (const d of decisions) {
          if (d.kind !== 'table') continue;
          const size = d.people.length + d.bots;
          expect(size).toBeGreaterThanOrEqual(2);
          expect(size).toBeLessThanOrEqual(4);
          expect(d.people.length).toBeGreaterThanOrEqual(2);
          for (const p of d.people) {
            expect(p.size === 'any' || p.size === size).toBe(true);
            for (const q of d.people) {
              expect(Math.abs(p.rating - q.rating)).toBeLessThanOrEqual(Math.min(windowOf(p, now), windowOf(q, now)));
            }
          }
        }
        expect(pair([...queue].reverse(), at(now))).toEqual(decisions);
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });
});
