import { describe, expect, it } from 'vitest';
import {
  CARD_COLORS,
  CARD_LOGOS,
  CARD_NUMBERS,
  type GameConfig,
  type GameSpeed,
  TIME_CAP_MS,
  UNIQUE_CARD_COUNT,
  copiesNeeded,
  createGame,
  viewFor,
} from '../src/index.ts';
import { allCardIds } from './scenario.ts';

const SEED = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

function config(players: number, cardsPerPlayer = 30, seed = SEED, speed: GameSpeed = 'normal'): GameConfig {
  return {
    seed,
    seats: Array.from({ length: players }, (_, i) => ({ id: `u${i}`, username: `User ${i}`, bot: null })),
    cardsPerPlayer,
    speed,
    startAt: 1000,
  };
}

describe('cards', () => {
  it('has 180 unique faces: 5 numbers × 6 colors × 6 logos', () => {
    expect(CARD_NUMBERS).toEqual([1, 2, 3, 4, 5]);
    expect(CARD_COLORS).toEqual(['Red', 'Blue', 'Green', 'Yellow', 'Orange', 'Purple']);
    expect(CARD_LOGOS).toEqual(['Bonk', 'Pepe', 'Solana', 'Popcat', 'Ponke', 'Wif']);
    expect(UNIQUE_CARD_COUNT).toBe(180);
  });
});

describe('deal', () => {
  const table: [players: number, piles: number][] = [
    [2, 2],
    [3, 2],
    [4, 3],
    [5, 3],
    [6, 4],
  ];
  for (const [players, pileCount] of table) {
    for (const cardsPerPlayer of [20, 30, 40]) {
      it(`${players} players × ${cardsPerPlayer} cards: ${pileCount} piles, hands of 3, decks, stock, every face × copies`, () => {
        const state = createGame(config(players, cardsPerPlayer));
        // As many copies of the 180 as needed for the players plus at least 24 undealt cards, and no more.
        const copies = Math.ceil((players * cardsPerPlayer + 24) / 180);
        expect(copiesNeeded(players, cardsPerPlayer)).toBe(copies);
        expect((copies - 1) * 180).toBeLessThan(players * cardsPerPlayer + 24);

        expect(state.piles).toHaveLength(pileCount);
        for (const pile of state.piles) expect(pile).toHaveLength(1);
        for (const p of state.players) {
          expect(p.hand).toHaveLength(3);
          expect(p.deck).toHaveLength(cardsPerPlayer - 3);
          expect(p.cardsPlayed).toBe(0);
          expect(p.powerUpsUsed).toEqual([]);
        }
        const undealt = copies * 180 - players * cardsPerPlayer;
        expect(undealt).toBeGreaterThanOrEqual(24);
        expect(state.stock).toHaveLength(undealt - pileCount);

        const ids = allCardIds(state);
        expect(ids).toHaveLength(copies * 180);
        expect(new Set(ids).size).toBe(ids.length);
        const perFace = new Map<string, number>();
        const every = [...state.players.flatMap((p) => [...p.hand, ...p.deck]), ...state.piles.flat(), ...state.stock];
        for (const c of every) {
          const face = `${c.number} ${c.color} ${c.logo}`;
          perFace.set(face, (perFace.get(face) ?? 0) + 1);
        }
        expect(perFace.size).toBe(180);
        expect(new Set(perFace.values())).toEqual(new Set([copies]));
      });
    }
  }

  it('starts the game at startAt with the 15-minute cap', () => {
    const state = createGame(config(3));
    expect(state.status).toBe('active');
    expect(state.clock).toBe(1000);
    expect(state.startedAt).toBe(1000);
    expect(state.endsAt).toBe(1000 + TIME_CAP_MS);
    expect(TIME_CAP_MS).toBe(15 * 60 * 1000);
    expect(state.result).toBeNull();
    expect(state.players.map((p) => p.seat)).toEqual([0, 1, 2]);
    expect(state.players.map((p) => p.nextBotActionAt)).toEqual([null, null, null]);
  });

  it('deals the same game from the same seed', () => {
    expect(createGame(config(4, 40))).toEqual(createGame(config(4, 40)));
  });

  it('deals a different game from a different seed', () => {
    const a = createGame(config(4, 30, SEED));
    const b = createGame(config(4, 30, 'a1b2c3d4e5f60718293a4b5c6d7e8f91'));
    const order = (s: typeof a): string[] => allCardIds(s);
    expect(order(a)).not.toEqual(order(b));
    expect(a.players[0]?.hand).not.toEqual(b.players[0]?.hand);
  });

  it('does not let the speed change the deal', () => {
    const normal = createGame(config(3, 30, SEED, 'normal'));
    const blitz = createGame(config(3, 30, SEED, 'blitz'));
    expect(allCardIds(blitz)).toEqual(allCardIds(normal));
  });

  it('keeps hands private in the dealt views', () => {
    const state = createGame(config(2));
    const view = viewFor(state, 'u0');
    expect(view.you?.hand).toEqual(state.players[0]?.hand);
    expect(view.players.map((p) => p.cardsLeft)).toEqual([30, 30]);
  });

  const bad: [what: string, change: (c: GameConfig) => GameConfig][] = [
    ['a short seed', (c) => ({ ...c, seed: 'abc' })],
    ['a seed that is not hex', (c) => ({ ...c, seed: 'z'.repeat(32) })],
    ['one player', (c) => ({ ...c, seats: c.seats.slice(0, 1) })],
    [
      'seven players',
      (c) => ({ ...c, seats: Array.from({ length: 7 }, (_, i) => ({ id: `x${i}`, username: 'x', bot: null })) }),
    ],
    ['duplicate player ids', (c) => ({ ...c, seats: [c.seats[0]!, c.seats[0]!] })],
    ['25 cards per player', (c) => ({ ...c, cardsPerPlayer: 25 })],
    ['an unknown speed', (c) => ({ ...c, speed: 'turbo' as GameSpeed })],
    ['a NaN start time', (c) => ({ ...c, startAt: Number.NaN })],
    [
      'an unknown bot difficulty',
      (c) => ({ ...c, seats: [c.seats[0]!, { id: 'b', username: 'b', bot: 'godlike' as never }] }),
    ],
  ];
  for (const [what, change] of bad) {
    it(`refuses to deal with ${what}`, () => {
      expect(() => createGame(change(config(2)))).toThrow(RangeError);
    });
  }
});

describe('the deal is a fixed function of the seed (fairness: anyone can re-run it)', () => {
  // Pins the shuffle and the order of PRNG draws at deal time (the cards first, then each bot's first
  // action time in seat order). If this changes, published seeds no longer reproduce their games.
  it('deals exactly this game from this seed', () => {
    const state = createGame({
      seed: SEED,
      seats: [
        { id: 'u0', username: 'U0', bot: null },
        { id: 'u1', username: 'U1', bot: 'hard' },
        { id: 'u2', username: 'U2', bot: 'easy' },
      ],
      cardsPerPlayer: 20,
      speed: 'normal',
      startAt: 1000,
    });
    expect(state.players.map((p) => p.hand.map((c) => c.id))).toEqual([
      ['4-Purple-Bonk-0', '5-Orange-Pepe-0', '3-Blue-Solana-0'],
      ['3-Orange-Solana-0', '5-Orange-Ponke-0', '2-Yellow-Wif-0'],
      ['5-Red-Bonk-0', '2-Orange-Ponke-0', '2-Green-Wif-0'],
    ]);
    expect(state.players.map((p) => p.deck[0]?.id)).toEqual(['3-Purple-Pepe-0', '1-Red-Wif-0', '3-Green-Solana-0']);
    expect(state.piles.map((pile) => pile.map((c) => c.id))).toEqual([['2-Orange-Solana-0'], ['1-Red-Solana-0']]);
    expect(state.stock).toHaveLength(180 - 3 * 20 - 2);
    expect(state.stock.at(-1)?.id).toBe('2-Purple-Bonk-0');
    expect(state.players.map((p) => p.nextBotActionAt)).toEqual([null, 2698, 4611]);
  });
});

describe('cardById', () => {
  it('finds every card of a deal by its id and nothing else', async () => {
    const { cardById, cardSet } = await import('../src/cards.ts');
    for (const copy of [0, 1, 2]) for (const card of cardSet(copy)) expect(cardById(card.id)).toBe(card);
    for (const id of ['', '3-Red-Pepe', '3-Red-Pepe-x', '9-Red-Pepe-0', '3-Red-Pepe-99', 'constructor']) {
      expect(cardById(id)).toBeUndefined();
    }
  });
});
