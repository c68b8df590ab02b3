import { describe, expect, it } from 'vitest';
import { FREEZE_DURATION_MS, type GameState, advance, apply, nextDeadline, seedRng, viewFor } from '../src/index.ts';
import { accepted, card, faces, playerOf, refused, scenario, tops, usePowerUp as use } from './scenario.ts';

type Target = NonNullable<Parameters<typeof use>[2]>;

/** The same state with the PRNG seeded differently, to see a random choice vary. */
const reseeded = (s: GameState, n: number): GameState => ({ ...s, rng: seedRng(n.toString(16).padStart(32, '0')) });

describe('BOMB: plays the top deck card, ignoring matching', () => {
  const s = scenario({
    piles: ['B5Bo', 'Y4So'],
    players: [
      { hand: 'R1Bo G2Wi Y4Pe', deck: 'O3Pk Pu2Pe' },
      { hand: 'O2Pc', deck: 'G1Pc' },
    ],
  });

  it('onto the given pile, with effect {card, pileIndex}', () => {
    const { state, events } = accepted(apply(s, use('p1', 'BOMB', { pileIndex: 1 }), 10));
    expect(tops(state)).toBe('B5Bo O3Pk'); // Orange 3 Ponke matches nothing on Yellow 4 Solana
    const p1 = playerOf(state, 'p1');
    expect(faces(p1.hand)).toBe('R1Bo G2Wi Y4Pe');
    expect(faces(p1.deck)).toBe('Pu2Pe');
    expect(p1.cardsPlayed).toBe(1);
    expect(p1.powerUpsUsed).toEqual(['BOMB']);
    expect(events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: { powerUpType: 'BOMB', card: card('O3Pk'), pileIndex: 1 },
    });
    expect(events).toContainEqual({ type: 'cardPlayed', playerId: 'p1', card: card('O3Pk'), pileIndex: 1 });
  });

  it('onto a random pile when none is given', () => {
    const piles = new Set<number>();
    for (let n = 0; n < 40; n += 1) {
      const { state, events } = accepted(apply(reseeded(s, n), use('p1', 'BOMB'), 10));
      const used = events.find((e) => e.type === 'powerUpUsed');
      if (used?.type !== 'powerUpUsed' || used.effect.powerUpType !== 'BOMB') throw new Error('no BOMB effect');
      piles.add(used.effect.pileIndex);
      expect(faces(state.piles[used.effect.pileIndex]!.at(-1)!)).toBe('O3Pk');
    }
    expect(piles).toEqual(new Set([0, 1]));
  });

  it('plays a random hand card when the deck is empty', () => {
    const empty = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'R1Pe G2Wi Y3Pk' }, { hand: 'O2Pc' }] });
    const played = new Set<string>();
    for (let n = 0; n < 40; n += 1) {
      const { state, events } = accepted(apply(reseeded(empty, n), use('p1', 'BOMB', { pileIndex: 0 }), 10));
      const top = state.piles[0]!.at(-1)!;
      played.add(top.id);
      expect(playerOf(state, 'p1').hand.map((c) => c.id)).not.toContain(top.id);
      expect(playerOf(state, 'p1').hand).toHaveLength(2);
      expect(events).toContainEqual({
        type: 'powerUpUsed',
        playerId: 'p1',
        effect: { powerUpType: 'BOMB', card: top, pileIndex: 0 },
      });
    }
    expect(played).toEqual(new Set(['R1Pe', 'G2Wi', 'Y3Pk']));
  });

  it('wins when it plays the last card, the power-up event before gameEnded', () => {
    const last = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'R1Pe' }, { hand: 'O2Pc' }] });
    const { state, events } = accepted(apply(last, use('p1', 'BOMB', { pileIndex: 0 }), 10));
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'win' });
    const types = events.map((e) => e.type);
    expect(types.indexOf('powerUpUsed')).toBeLessThan(types.indexOf('gameEnded'));
    expect(types.at(-1)).toBe('gameEnded');
  });

  for (const pileIndex of [-1, 2]) {
    it(`refuses pile index ${pileIndex}`, () => {
      const r = refused(apply(s, use('p1', 'BOMB', { pileIndex }), 10));
      expect(r.error.code).toBe('INVALID_PILE');
      expect(r.state).toBe(s);
    });
  }
});

describe('REVERSAL: 3 cards to the bottom of each opponent deck, from under the pile tops, then the stock', () => {
  const s = scenario({
    piles: ['G1Bo G2Bo B5Bo', 'Y1Pe R3Pe'],
    stock: 'O1Pk O2Pk O3Pk O4Pk',
    players: [{ hand: 'R1Bo G2Wi Y4Pe' }, { hand: 'O2Pc R4Pc G4Pc', deck: 'R2Pc' }, { hand: 'Y1Bo' }],
  });

  it('never takes a top, takes from under the tops round robin, then the stock', () => {
    const { state, events } = accepted(apply(s, use('p1', 'REVERSAL'), 10));
    expect(faces(state.piles[0]!)).toBe('B5Bo');
    expect(faces(state.piles[1]!)).toBe('R3Pe');
    expect(faces(state.stock)).toBe('O1Pk');
    expect(faces(playerOf(state, 'p2').deck)).toBe('R2Pc G1Bo Y1Pe G2Bo');
    // p3 had one card and an empty deck: its hand refills from the added cards.
    expect(faces(playerOf(state, 'p3').hand)).toBe('Y1Bo O4Pk O3Pk');
    expect(faces(playerOf(state, 'p3').deck)).toBe('O2Pk');
    expect(faces(playerOf(state, 'p1').hand)).toBe('R1Bo G2Wi Y4Pe');
    expect(events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: {
        powerUpType: 'REVERSAL',
        cardsReversed: 6,
        affectedPlayers: [
          { userId: 'p2', cardsAdded: 3 },
          { userId: 'p3', cardsAdded: 3 },
        ],
      },
    });
    expect(events).toContainEqual({ type: 'handChanged', playerId: 'p2' });
    expect(events).toContainEqual({ type: 'handChanged', playerId: 'p3' });
  });

  it('gives fewer cards when piles and stock run out', () => {
    const poor = scenario({
      piles: ['B5Bo', 'Y1Pe R3Pe'],
      stock: 'O1Pk',
      players: [{ hand: 'R1Bo' }, { hand: 'O2Pc' }, { hand: 'Y1Bo' }],
    });
    const { state, events } = accepted(apply(poor, use('p1', 'REVERSAL'), 10));
    expect(tops(state)).toBe('B5Bo R3Pe');
    expect(state.stock).toEqual([]);
    expect(faces(playerOf(state, 'p2').hand)).toBe('O2Pc Y1Pe O1Pk');
    expect(playerOf(state, 'p3').hand).toHaveLength(1);
    expect(events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: {
        powerUpType: 'REVERSAL',
        cardsReversed: 2,
        affectedPlayers: [
          { userId: 'p2', cardsAdded: 2 },
          { userId: 'p3', cardsAdded: 0 },
        ],
      },
    });
    expect(events).not.toContainEqual({ type: 'handChanged', playerId: 'p3' });
  });

  it('is refused, and not used up, when only the pile tops are left and the stock is empty', () => {
    const bare = scenario({
      piles: ['B5Bo', 'R3Pe'],
      players: [{ hand: 'R1Bo' }, { hand: 'O2Pc', deck: 'G1Pc' }],
    });
    const r = refused(apply(bare, use('p1', 'REVERSAL'), 10));
    expect(r.error).toEqual({
      code: 'NOTHING_TO_SEND_BACK',
      message: 'Nothing to send back: the piles hold only their top cards and the stock is empty',
    });
    expect(r.state).toBe(bare);
    // One card in the stock is enough to send back.
    const one = { ...bare, stock: [card('O1Pk')] };
    const { state } = accepted(apply(one, use('p1', 'REVERSAL'), 10));
    expect(playerOf(state, 'p1').powerUpsUsed).toEqual(['REVERSAL']);
    // p2's hand refills from its deck, then from the card sent back.
    expect(faces(playerOf(state, 'p2').hand)).toBe('O2Pc G1Pc O1Pk');
  });

  it('skips opponents who left', () => {
    const four = scenario({
      piles: ['G1Bo G2Bo B5Bo', 'Y1Pe R3Pe'],
      stock: 'O1Pk O2Pk O3Pk O4Pk',
      players: [{ hand: 'R1Bo' }, { hand: 'O2Pc' }, { hand: 'Y1Bo' }, { hand: 'Y2Bo' }],
    });
    const gone = accepted(apply(four, { type: 'leave', playerId: 'p2' }, 5)).state;
    const { state, events } = accepted(apply(gone, use('p1', 'REVERSAL'), 10));
    expect(playerOf(state, 'p2').hand).toHaveLength(1);
    const used = events.find((e) => e.type === 'powerUpUsed');
    expect(used).toMatchObject({ effect: { affectedPlayers: [{ userId: 'p3' }, { userId: 'p4' }] } });
  });
});

describe('FREEZE: the target can neither play nor use power-ups for 8000 ms', () => {
  const s = scenario({
    piles: ['B5Bo', 'Y4So'],
    players: [{ hand: 'R1Bo G2Wi' }, { hand: 'B1Pc R4Wi', deck: 'G4Wi' }, { hand: 'Y1Bo', deck: 'G2Pk' }],
    now: 1000,
  });
  const frozen = accepted(apply(s, use('p1', 'FREEZE', { targetPlayerId: 'p2' }), 2000));

  it('freezes the target with effect {targetPlayer, duration}', () => {
    expect(FREEZE_DURATION_MS).toBe(8000);
    const p2 = playerOf(frozen.state, 'p2');
    expect(p2.frozenUntil).toBe(10_000);
    expect(p2.frozenBy).toBe('p1');
    expect(frozen.events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: { powerUpType: 'FREEZE', targetPlayer: 'p2', duration: 8000 },
    });
    expect(frozen.events).toContainEqual({
      type: 'playerFrozen',
      playerId: 'p2',
      frozenBy: 'p1',
      duration: 8000,
      until: 10_000,
    });
    const view = viewFor(frozen.state, 'p2');
    expect(view.activeEffects).toEqual([{ type: 'freeze', targetPlayerId: 'p2', startTime: 2000, duration: 8000 }]);
    expect(view.you).toMatchObject({ isFrozen: true, frozenUntil: 10_000 });
    expect(view.players[1]?.isFrozen).toBe(true);
    expect(nextDeadline(frozen.state)).toBe(10_000);
  });

  it('refuses the frozen player a play and a power-up with the rule texts', () => {
    const at = advance(frozen.state, 9999).state;
    const playing = refused(apply(at, { type: 'playCard', playerId: 'p2', cardId: 'B1Pc', pileIndex: 0 }, 9999));
    expect(playing.error).toEqual({ code: 'FROZEN_PLAY', message: 'You are frozen and cannot play cards!' });
    expect(playing.state).toBe(at);
    const powering = refused(apply(at, use('p2', 'WHIRLWIND'), 9999));
    expect(powering.error).toEqual({ code: 'FROZEN_POWER_UP', message: 'You are frozen and cannot use power-ups!' });
  });

  it('cannot freeze a frozen player again', () => {
    const again = refused(apply(frozen.state, use('p3', 'FREEZE', { targetPlayerId: 'p2' }), 3000));
    expect(again.error.code).toBe('ALREADY_FROZEN');
    expect(again.state).toBe(frozen.state);
  });

  it('ends with an unfreeze event at its deadline', () => {
    const before = advance(frozen.state, 9999);
    expect(before.events).toEqual([]);
    expect(before.state).toBe(frozen.state);
    const { state, events } = advance(frozen.state, 10_000);
    expect(events).toEqual([{ type: 'playerUnfrozen', playerId: 'p2' }]);
    expect(playerOf(state, 'p2').frozenUntil).toBeNull();
    expect(state.effects).toEqual([]);
    expect(viewFor(state, 'p2').you?.isFrozen).toBe(false);
    const played = accepted(apply(state, { type: 'playCard', playerId: 'p2', cardId: 'B1Pc', pileIndex: 0 }, 10_000));
    expect(tops(played.state)).toBe('B1Pc Y4So');
    // Once thawed, the player may be frozen again by someone who still has FREEZE.
    expect(
      accepted(apply(state, use('p3', 'FREEZE', { targetPlayerId: 'p2' }), 10_001)).state.players[1]?.frozenUntil,
    ).toBe(18_001);
  });

  it('ends at its deadline even when the frozen player has left', () => {
    const gone = accepted(apply(frozen.state, { type: 'leave', playerId: 'p2' }, 3000)).state;
    expect(nextDeadline(gone)).toBe(10_000);
    const { state, events } = advance(gone, 10_000);
    expect(events).toEqual([{ type: 'playerUnfrozen', playerId: 'p2' }]);
    expect(viewFor(state, null).activeEffects).toEqual([]);
  });

  it('can freeze a bot', () => {
    const withBot = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'R1Bo' }, { hand: 'O2Pc', bot: 'easy' }] });
    const r = accepted(apply(withBot, use('p1', 'FREEZE', { targetPlayerId: 'p2' }), 0));
    expect(playerOf(r.state, 'p2').frozenUntil).toBe(8000);
  });

  const bad: [what: string, target: Target, code: string][] = [
    ['no target', {}, 'TARGET_REQUIRED'],
    ['oneself', { targetPlayerId: 'p1' }, 'INVALID_TARGET'],
    ['an unknown player', { targetPlayerId: 'zz' }, 'INVALID_TARGET'],
  ];
  for (const [what, target, code] of bad) {
    it(`refuses a freeze of ${what}`, () => {
      const r = refused(apply(s, use('p1', 'FREEZE', target), 2000));
      expect(r.error.code).toBe(code);
      expect(r.state).toBe(s);
      expect(r.error.message.length).toBeGreaterThan(0);
    });
  }

  it('refuses a freeze of a player who left', () => {
    const gone = accepted(apply(s, { type: 'leave', playerId: 'p3' }, 1500)).state;
    expect(refused(apply(gone, use('p1', 'FREEZE', { targetPlayerId: 'p3' }), 2000)).error.code).toBe('INVALID_TARGET');
  });

  it('refuses with "No opponents to freeze" when nobody else is in the game (defensive)', () => {
    // A game ends as soon as one player remains, so this state is built by hand.
    const two = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'R1Bo' }, { hand: 'O2Pc' }] });
    const alone: GameState = {
      ...two,
      players: [two.players[0]!, { ...two.players[1]!, left: { at: 0, wentAt: 0, reason: 'left' } }],
    };
    expect(refused(apply(alone, use('p1', 'FREEZE', { targetPlayerId: 'p2' }), 0)).error).toEqual({
      code: 'NO_OPPONENTS',
      message: 'No opponents to freeze',
    });
  });
});

describe('WHIRLWIND: all pile cards gathered, shuffled and dealt back round robin', () => {
  const s = scenario({
    piles: ['G1Bo G2Bo B5Bo', 'Y1Pe R3Pe'],
    stock: 'O1Pk',
    players: [{ hand: 'R1Bo G2Wi Y4Pe' }, { hand: 'O2Pc' }],
  });

  it('keeps every pile card on the piles, redealt round robin, with effect {cardsShuffled}', () => {
    const { state, events } = accepted(apply(s, use('p1', 'WHIRLWIND'), 10));
    expect(state.piles.map((p) => p.length)).toEqual([3, 2]);
    expect(
      state.piles
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(['B5Bo', 'G1Bo', 'G2Bo', 'R3Pe', 'Y1Pe']);
    expect(faces(state.stock)).toBe('O1Pk');
    expect(playerOf(state, 'p1').hand).toEqual(s.players[0]?.hand);
    expect(events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: { powerUpType: 'WHIRLWIND', cardsShuffled: 5 },
    });
  });

  it('gives new tops, drawn at random', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 30; n += 1) seen.add(tops(accepted(apply(reseeded(s, n), use('p1', 'WHIRLWIND'), 10)).state));
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe('SNIPER: plays one hand card ignoring matching', () => {
  const s = scenario({
    piles: ['B5Bo', 'Y4So'],
    players: [{ hand: 'R1Pe G2Wi Y3Pk', deck: 'O3Pk' }, { hand: 'O2Pc' }],
  });

  it('plays the chosen card on the chosen pile, with effect {card, pileIndex}', () => {
    const { state, events } = accepted(apply(s, use('p1', 'SNIPER', { cardId: 'R1Pe', pileIndex: 0 }), 10));
    expect(tops(state)).toBe('R1Pe Y4So');
    expect(faces(playerOf(state, 'p1').hand)).toBe('G2Wi Y3Pk O3Pk');
    expect(playerOf(state, 'p1').cardsPlayed).toBe(1);
    expect(events).toContainEqual({
      type: 'powerUpUsed',
      playerId: 'p1',
      effect: { powerUpType: 'SNIPER', card: card('R1Pe'), pileIndex: 0 },
    });
  });

  const bad: [what: string, target: Target, code: string][] = [
    ['no card', { pileIndex: 0 }, 'CARD_REQUIRED'],
    ['a card not in hand', { cardId: 'O2Pc', pileIndex: 0 }, 'CARD_NOT_IN_HAND'],
    ['a deck card', { cardId: 'O3Pk', pileIndex: 0 }, 'CARD_NOT_IN_HAND'],
    ['no pile', { cardId: 'R1Pe' }, 'INVALID_PILE'],
    ['a pile out of range', { cardId: 'R1Pe', pileIndex: 2 }, 'INVALID_PILE'],
  ];
  for (const [what, target, code] of bad) {
    it(`refuses ${what}`, () => {
      const r = refused(apply(s, use('p1', 'SNIPER', target), 10));
      expect(r.error.code).toBe(code);
      expect(r.state).toBe(s);
    });
  }
  it('asks for the card first with the rule text', () => {
    expect(refused(apply(s, use('p1', 'SNIPER', { pileIndex: 0 }), 10)).error.message).toBe(
      'Please select the card first',
    );
  });
});
