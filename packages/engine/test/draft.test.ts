import { describe, expect, it } from 'vitest';
import type { Card } from '../src/cards.ts';
import { Draft } from '../src/draft.ts';
import { scenario } from './scenario.ts';

const s = scenario({
  piles: ['G1Bo G2Bo', 'Y1Pe R3Pe'],
  stock: 'O1Pk',
  players: [
    { hand: 'R1Bo G2Wi Y4Pe', deck: 'O3Pc O4Pc' },
    { hand: 'O2Pc', deck: 'R2Wi', bot: 'normal' },
  ],
});

describe('a draft', () => {
  it('copies a player whose fields change, and shares their cards until they change', () => {
    const d = new Draft(s, s.clock);
    d.player(1).stuckSince = 42;
    const fields = d.commit();
    expect(fields.players[1]).not.toBe(s.players[1]);
    expect(fields.players[1]?.stuckSince).toBe(42);
    expect(fields.players[1]?.hand).toBe(s.players[1]?.hand);
    expect(fields.players[1]?.deck).toBe(s.players[1]?.deck);
    expect(fields.players[0]).toBe(s.players[0]);

    const p = new Draft(fields, s.clock).cards(1);
    p.hand.push(...p.deck.splice(0));
    expect(p.hand.map((c) => c.id)).toEqual(['O2Pc', 'R2Wi']);
    // Playing a card leaves the used power-ups shared (a power-up replaces the list).
    expect(p.powerUpsUsed).toBe(fields.players[1]?.powerUpsUsed);
    expect(fields.players[1]?.hand).toHaveLength(1);
    expect(fields.players[1]?.deck).toHaveLength(1);
    expect(s.players[1]?.stuckSince).not.toBe(42);
  });

  it('copies a pile on its first write only, and never the state it started from', () => {
    const d = new Draft(s, s.clock);
    const pile = d.pile(0);
    expect(d.pile(0)).toBe(pile);
    pile.push(...d.stock().splice(0));
    const next = d.commit();
    expect(next.piles[0]).toHaveLength(3);
    expect(s.piles[0]).toHaveLength(2);
    expect(s.stock).toHaveLength(1);
    expect(next.piles[1]).toBe(s.piles[1]);
  });

  it('puts a card on a pile as a copy of it one card longer, and then on that copy', () => {
    const d = new Draft(s, s.clock);
    const [first, second] = d.tops() as [Card, Card];
    d.pushOnPile(1, first);
    const copied = d.pileView(1);
    d.pushOnPile(1, second);
    expect(d.pileView(1)).toBe(copied);
    const next = d.commit();
    expect(next.piles[1]?.map((c) => c.id)).toEqual(['Y1Pe', 'R3Pe', 'G2Bo', 'R3Pe']);
    expect(s.piles[1]?.map((c) => c.id)).toEqual(['Y1Pe', 'R3Pe']);
    expect(next.piles[0]).toBe(s.piles[0]);
  });

  it("hands back the base's own lists and records where the draft's equal them", () => {
    const d = new Draft(s, s.clock + 500);
    // Writes of the values already there (a play resets the unresolvable count, a step with a
    // playable card clears the resolution time) change nothing.
    d.deadlock.consecutiveUnresolvable = s.deadlock.consecutiveUnresolvable;
    d.deadlock.resolveAt = s.deadlock.resolveAt;
    const next = d.commit();
    expect(next.clock).toBe(s.clock + 500);
    expect(next.players).toBe(s.players);
    expect(next.piles).toBe(s.piles);
    expect(next.deadlock).toBe(s.deadlock);
    expect(next.rng).toBe(s.rng);
    expect(next.stock).toBe(s.stock);
  });

  it('gives changed lists, records and random states their own copies, the base left as it was', () => {
    const d = new Draft(s, s.clock);
    d.player(0).cardsPlayed += 1;
    d.deadlock.count += 1;
    d.random.float();
    const next = d.commit();
    expect(next.players).not.toBe(s.players);
    expect(next.players[1]).toBe(s.players[1]);
    expect(next.deadlock).toEqual({ ...s.deadlock, count: s.deadlock.count + 1 });
    expect(next.rng).not.toEqual(s.rng);
    expect(s.players[0]?.cardsPlayed).toBe(0);
    expect(next.players[0]?.cardsPlayed).toBe(1);
    expect(next.piles).toBe(s.piles);
    expect(new Draft(next, next.clock).commit().rng).toBe(next.rng);
  });
});
