import { describe, expect, it } from 'vitest';
import { RULE_TEXTS, apply, cardsLeft, matches, nextDeadline, viewFor } from '../src/index.ts';
import { accepted, card, faces, named, playerOf, refused, scenario, tops } from './scenario.ts';

const play = (playerId: string, cardId: string, pileIndex: number) =>
  ({ type: 'playCard', playerId, cardId, pileIndex }) as const;

describe('matching: number OR color OR logo', () => {
  const table: [hand: string, top: string, ok: boolean][] = [
    ['B1Pe', 'B5Bo', true], // color
    ['R5Pe', 'B5Bo', true], // number
    ['R1Bo', 'B5Bo', true], // logo
    ['Y5Bo', 'B5Bo', true], // number and logo
    ['R1Pe', 'B5Bo', false],
    ['Pu2Wi', 'O3Pc', false],
    ['Pu3Wi', 'O3Pc', true],
  ];
  for (const [hand, top, ok] of table) {
    it(`${hand} on ${top}: ${ok ? 'allowed' : 'refused'}`, () => {
      expect(matches(card(hand), card(top))).toBe(ok);
      const s = scenario({ piles: [top, 'Y4So'], players: [{ hand, deck: 'G1Pk' }, { hand: 'O2Pc' }] });
      const r = apply(s, play('p1', hand, 0), 10);
      if (ok) {
        expect(tops(accepted(r).state)).toBe(`${hand} Y4So`);
      } else {
        const { error, state } = refused(r);
        expect(error).toEqual({ code: 'NO_MATCH', message: `Cannot play ${named(hand)} on ${named(top)}` });
        expect(state).toBe(s);
      }
    });
  }

  it('names the cards like "Cannot play Red 3 Pepe on Blue 5 Bonk"', () => {
    const s = scenario({ piles: ['B5Bo', 'G1Wi'], players: [{ hand: 'R3Pe' }, { hand: 'O2Pc' }] });
    expect(refused(apply(s, play('p1', 'R3Pe', 0), 0)).error.message).toBe('Cannot play Red 3 Pepe on Blue 5 Bonk');
    expect(RULE_TEXTS.NO_MATCH).toBe('Cannot play {card} on {card}');
  });
});

describe('playing a card', () => {
  const s = scenario({
    piles: ['G3Wi B5Bo', 'Y4So'],
    players: [
      { hand: 'R1Bo G2Wi Y4Pe', deck: 'O3Pk Pu2Pe' },
      { hand: 'O2Pc', deck: 'R2Pc' },
    ],
  });

  it('puts the card on the pile and refills the hand to 3 from the top of the deck', () => {
    const { state, events } = accepted(apply(s, play('p1', 'R1Bo', 0), 500));
    const p1 = playerOf(state, 'p1');
    expect(faces(state.piles[0]!)).toBe('G3Wi B5Bo R1Bo');
    expect(faces(p1.hand)).toBe('G2Wi Y4Pe O3Pk');
    expect(faces(p1.deck)).toBe('Pu2Pe');
    expect(p1.cardsPlayed).toBe(1);
    expect(cardsLeft(p1)).toBe(4);
    expect(viewFor(state, 'p1').players[0]).toMatchObject({ cardsLeft: 4, handCount: 3, deckCount: 1, cardsPlayed: 1 });
    expect(events).toEqual([
      { type: 'cardPlayed', playerId: 'p1', card: card('R1Bo'), pileIndex: 0 },
      { type: 'handChanged', playerId: 'p1' },
    ]);
    expect(state.clock).toBe(500);
  });

  it('leaves the state it was given unchanged (copy on write)', () => {
    const before = JSON.stringify(s);
    const { state } = accepted(apply(s, play('p1', 'Y4Pe', 1), 500));
    expect(JSON.stringify(s)).toBe(before);
    expect(state).not.toBe(s);
    expect(state.players[1]).toBe(s.players[1]);
  });

  it('keeps a short hand when the deck is empty', () => {
    const t = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'B1Pe R2So' }, { hand: 'O2Pc' }] });
    const p1 = playerOf(accepted(apply(t, play('p1', 'B1Pe', 0), 0)).state, 'p1');
    expect(faces(p1.hand)).toBe('R2So');
    expect(p1.deck).toEqual([]);
  });

  it('checks the second of two racing players against the new top', () => {
    const race = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'B1Pe', deck: 'G2Pk' }, { hand: 'R5Wi' }] });
    const first = accepted(apply(race, play('p1', 'B1Pe', 0), 100)).state;
    const second = refused(apply(first, play('p2', 'R5Wi', 0), 101));
    expect(second.error.message).toBe('Cannot play Red 5 Wif on Blue 1 Pepe');
    expect(second.state).toBe(first);
  });

  it('refuses a card that is not in the hand', () => {
    const mine = refused(apply(s, play('p1', 'O2Pc', 1), 0)); // p2's card
    expect(mine.error).toEqual({ code: 'CARD_NOT_IN_HAND', message: 'Card not found in hand' });
    expect(refused(apply(s, play('p1', 'O3Pk', 1), 0)).error.code).toBe('CARD_NOT_IN_HAND'); // own deck
    expect(refused(apply(s, play('p1', 'nope', 1), 0)).error.code).toBe('CARD_NOT_IN_HAND');
  });

  for (const pileIndex of [-1, 2, 99]) {
    it(`refuses pile index ${pileIndex}`, () => {
      const r = refused(apply(s, play('p1', 'R1Bo', pileIndex), 0));
      expect(r.error).toEqual({ code: 'INVALID_PILE', message: RULE_TEXTS.INVALID_PILE });
      expect(r.state).toBe(s);
    });
  }

  it('refuses a pile with no card (defensive: piles never empty in play)', () => {
    const t = scenario({ piles: ['', 'Y4So'], players: [{ hand: 'R1Bo' }, { hand: 'O2Pc' }] });
    expect(refused(apply(t, play('p1', 'R1Bo', 0), 0)).error).toEqual({
      code: 'EMPTY_PILE',
      message: 'No cards in discard pile',
    });
  });
});

describe('winning', () => {
  const s = scenario({
    piles: ['B5Bo', 'Y4So'],
    players: [{ hand: 'B1Pe' }, { hand: 'O2Pc R4Wi', deck: 'G1Pk' }, { hand: 'Y1Bo', deck: 'G2Pk G3Pk' }],
  });

  it('ends the game at once when a player has no cards left', () => {
    const { state, events } = accepted(apply(s, play('p1', 'B1Pe', 0), 42_000));
    expect(state.status).toBe('finished');
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'win', endedAt: 42_000, durationMs: 42_000 });
    expect(state.result?.ranking.map((r) => r.playerId)).toEqual(['p1', 'p2', 'p3']);
    expect(events.map((e) => e.type)).toEqual(['cardPlayed', 'handChanged', 'gameEnded']);
    expect(events[2]).toEqual({ type: 'gameEnded', result: state.result });
    expect(nextDeadline(state)).toBeNull();
    expect(viewFor(state, null).winner).toEqual({ userId: 'p1', username: 'P1', isBot: false, botDifficulty: null });
  });

  it('accepts no command after the game finished', () => {
    const done = accepted(apply(s, play('p1', 'B1Pe', 0), 0)).state;
    for (const command of [
      play('p2', 'R4Wi', 1),
      { type: 'usePowerUp', playerId: 'p2', powerUpType: 'WHIRLWIND' },
      { type: 'checkDeadlock', playerId: 'p3' },
      { type: 'leave', playerId: 'p3' },
    ]) {
      const r = refused(apply(done, command, 1));
      expect(r.error).toEqual({ code: 'GAME_NOT_ACTIVE', message: 'Game not active' });
      expect(r.state).toBe(done);
    }
  });
});
