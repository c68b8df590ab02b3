import { describe, expect, it } from 'vitest';
import { allCardIds, card, cards, faces, named, playerOf, scenario, tops } from './scenario.ts';

describe('scenario notation', () => {
  const table: [notation: string, name: string][] = [
    ['R3Pe', 'Red 3 Pepe'],
    ['B5Bo', 'Blue 5 Bonk'],
    ['G1So', 'Green 1 Solana'],
    ['Y2Pc', 'Yellow 2 Popcat'],
    ['O4Pk', 'Orange 4 Ponke'],
    ['Pu5Wi', 'Purple 5 Wif'],
  ];
  for (const [notation, name] of table) {
    it(`${notation} is ${name}, and back`, () => {
      expect(named(notation)).toBe(name);
      expect(faces(card(notation))).toBe(notation);
    });
  }

  for (const bad of ['X1Bo', 'R6Bo', 'R0Bo', 'R1Bx', 'RPe', 'r3pe', 'P5Wi', 'R3Pe ']) {
    it(`rejects "${bad}"`, () => expect(() => card(bad)).toThrow(/Bad card notation/));
  }

  it('reads lists in storage order and names repeated faces apart', () => {
    expect(faces(cards(' R3Pe  B5Bo '))).toBe('R3Pe B5Bo');
    const s = scenario({
      piles: ['G3Wi R3Pe', 'Y4So'],
      stock: 'R3Pe O1Pk',
      players: [
        { hand: 'R3Pe B1Bo', deck: 'O2Pc' },
        { hand: 'Pu5Wi', bot: 'hard' },
      ],
    });
    expect(tops(s)).toBe('R3Pe Y4So');
    expect(playerOf(s, 'p1').hand.map((c) => c.id)).toEqual(['R3Pe.2', 'B1Bo']);
    expect(s.stock.map((c) => c.id)).toEqual(['R3Pe.3', 'O1Pk']);
    expect(new Set(allCardIds(s)).size).toBe(9);
    expect(playerOf(s, 'p2').nextBotActionAt).toBeNull();
    expect(s.status).toBe('active');
  });

  it('derives stuck times and a pending deadlock like a deal', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'R1Pe' }, { hand: 'O3Wi' }], now: 700 });
    expect(s.players.map((p) => p.stuckSince)).toEqual([700, 700]);
    expect(s.deadlock.resolveAt).toBe(4700);
    expect(s.clock).toBe(700);
  });
});
