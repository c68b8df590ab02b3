import { describe, expect, it } from 'vitest';
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
});
