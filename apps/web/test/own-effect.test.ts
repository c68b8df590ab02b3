/** The note for the player's own power-up: the piles it changed and the cards it moved. */
import { describe, expect, it } from 'vitest';
import { ownEffect } from '../src/game/ownEffect.ts';

const card = { id: '3-Red-Pepe-0', number: 3, color: 'Red', logo: 'Pepe' } as const;
const names = (id: string) => ({ a: 'alice', b: 'bob' })[id] ?? id;

describe('ownEffect', () => {
  it('names the card and the pile of a Bomb or a Sniper, and marks that pile', () => {
    expect(ownEffect({ powerUpType: 'BOMB', card, pileIndex: 1 }, 3, names)).toEqual({
      text: 'Bomb: your Red 3 Pepe onto pile 2',
      piles: [1],
    });
    expect(ownEffect({ powerUpType: 'SNIPER', card, pileIndex: 0 }, 3, names).piles).toEqual([0]);
  });

  it('marks every pile after a Whirlwind, and says who got what from a Reversal or a Freeze', () => {
    expect(ownEffect({ powerUpType: 'WHIRLWIND', cardsShuffled: 9 }, 3, names)).toEqual({
      text: 'Whirlwind: 9 cards shuffled into new piles',
      piles: [0, 1, 2],
    });
    const reversal = ownEffect(
      {
        powerUpType: 'REVERSAL',
        cardsReversed: 5,
        affectedPlayers: [
          { userId: 'a', cardsAdded: 3 },
          { userId: 'b', cardsAdded: 2 },
        ],
      },
      2,
      names,
    );
    expect(reversal).toEqual({ text: 'Reversal: cards sent back (alice +3, bob +2)', piles: [] });
    expect(ownEffect({ powerUpType: 'FREEZE', targetPlayer: 'b', duration: 8000 }, 2, names).text).toBe(
      'Freeze: bob frozen for 8 s',
    );
  });
});
