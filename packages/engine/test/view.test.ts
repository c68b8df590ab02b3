import { describe, expect, it } from 'vitest';
import { POWER_UP_TYPES, type PowerUpType, VISIBLE_PILE_CARDS, apply, publicView, viewFor } from '../src/index.ts';
import { accepted, faces, scenario } from './scenario.ts';

const s = scenario({
  piles: ['G1Bo G2Bo G3Bo B5Bo', 'Y1Pe R3Pe'],
  stock: 'O1Pk O2Pk',
  players: [
    { hand: 'R1Bo G2Wi Y4Pe', deck: 'O3Pc O4Pc' },
    { hand: 'O2Pc Pu1Wi Pu2Wi', deck: 'R2Wi', bot: 'normal', cardsPlayed: 4 },
    { hand: 'Y1Bo' },
  ],
});
const quoted = (ids: string): string[] => ids.split(' ').map((id) => `"${id}"`);

describe('views', () => {
  it("show a player their own hand, and only counts of everyone's cards", () => {
    const view = viewFor(s, 'p1');
    expect(view.you).toEqual({
      hand: s.players[0]?.hand,
      deckSize: 2,
      cardsLeft: 5,
      powerUps: { available: ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'], used: [] },
      isFrozen: false,
      frozenUntil: null,
      stuckSince: null,
    });
    expect(view.players[1]).toEqual({
      userId: 'p2',
      username: 'P2',
      isBot: true,
      botDifficulty: 'normal',
      position: 1,
      cardsLeft: 4,
      handCount: 3,
      deckCount: 1,
      cardsPlayed: 4,
      isReady: true,
      powerUps: { available: ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'], used: [] },
      isFrozen: false,
      isConnected: true,
      hasLeft: false,
    });
  });

  it('show the last 3 cards of each pile, top last, with the pile sizes and the stock size', () => {
    expect(VISIBLE_PILE_CARDS).toBe(3);
    const view = viewFor(s, null);
    expect(view.discardPiles.map((p) => faces(p))).toEqual(['G2Bo G3Bo B5Bo', 'Y1Pe R3Pe']);
    expect(view.pileSizes).toEqual([4, 2]);
    expect(view.stockSize).toBe(2);
    expect(view.status).toBe('active');
    expect(view.winner).toBeNull();
    expect(view.endsAt).toBe(s.endsAt);
  });

  it("never contain another player's hand, a deck, the stock, or cards buried in a pile", () => {
    const json = JSON.stringify(viewFor(s, 'p1'));
    for (const id of quoted('R1Bo G2Wi Y4Pe')) expect(json).toContain(id);
    for (const id of quoted('O2Pc Pu1Wi Pu2Wi Y1Bo O3Pc O4Pc R2Wi O1Pk O2Pk G1Bo')) expect(json).not.toContain(id);
  });

  it('give spectators and unknown ids no hand at all', () => {
    for (const who of [null, 'nobody']) {
      const view = viewFor(s, who);
      expect(view.you).toBeNull();
      const json = JSON.stringify(view);
      for (const id of quoted('R1Bo G2Wi Y4Pe O2Pc Pu1Wi Pu2Wi Y1Bo')) expect(json).not.toContain(id);
    }
  });

  it('show used power-ups, who left and the winner', () => {
    const used = accepted(apply(s, { type: 'usePowerUp', playerId: 'p3', powerUpType: 'WHIRLWIND' }, 5)).state;
    expect(viewFor(used, 'p3').you?.powerUps).toEqual({
      available: ['BOMB', 'REVERSAL', 'FREEZE', 'SNIPER'],
      used: ['WHIRLWIND'],
    });
    const won = accepted(apply(s, { type: 'playCard', playerId: 'p3', cardId: 'Y1Bo', pileIndex: 0 }, 5)).state;
    expect(viewFor(won, null)).toMatchObject({
      status: 'finished',
      winner: { userId: 'p3', username: 'P3', isBot: false, botDifficulty: null },
    });
  });

  it('show each order of used power-ups as it is, from one frozen part per order that views share', () => {
    /** Every order of use of every subset of the five types: 326 of them. */
    const orders: PowerUpType[][] = [[]];
    for (let i = 0; i < orders.length; i += 1) {
      const order = orders[i] as PowerUpType[];
      for (const type of POWER_UP_TYPES) if (!order.includes(type)) orders.push([...order, type]);
    }
    expect(orders).toHaveLength(326);
    const seen = new Set<object>();
    for (const used of orders) {
      const state = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, powerUpsUsed: used } : p)) };
      const view = viewFor(state, 'p1');
      const part = view.players[0]?.powerUps;
      expect(part).toEqual({ available: POWER_UP_TYPES.filter((t) => !used.includes(t)), used });
      expect(view.you?.powerUps).toBe(part);
      expect(publicView(state).players[0]?.powerUps).toBe(part);
      expect(Object.isFrozen(part) && Object.isFrozen(part?.available) && Object.isFrozen(part?.used)).toBe(true);
      seen.add(part as object);
    }
    // One part for each order, none shared between two.
    expect(seen.size).toBe(326);
  });

  it('shift every time they show by the offset asked for, and nothing else', () => {
    const frozen = accepted(
      apply(s, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'FREEZE', targetPlayerId: 'p2' }, 5),
    ).state;
    const deadlocked = { ...frozen, deadlock: { ...frozen.deadlock, resolveAt: 4000 } };
    const view = publicView(deadlocked);
    const shifted = publicView(deadlocked, 1_000_000);
    expect(view.activeEffects).toHaveLength(1);
    expect(shifted).toEqual({
      ...view,
      startedAt: view.startedAt + 1_000_000,
      endsAt: view.endsAt + 1_000_000,
      activeEffects: view.activeEffects.map((e) => ({ ...e, startTime: e.startTime + 1_000_000 })),
      deadlock: { ...view.deadlock, resolveAt: 1_004_000 },
    });
    expect(deadlocked.effects[0]?.startTime).toBe(view.activeEffects[0]?.startTime);
  });
});
