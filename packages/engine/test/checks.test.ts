/**
 * The refusal checks the engine exports (checks.ts): each code in the checks' order, table-driven, and
 * properties: the checks answer over a player's view exactly what apply() answers over the state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Card,
  type GameState,
  POWER_UP_TYPES,
  type PlaySituation,
  type PowerUpSituation,
  type PowerUpType,
  type RuleErrorCode,
  apply,
  cardsToSendBack,
  createGame,
  hasPlayableCard,
  matches,
  playProblem,
  playablePiles,
  powerUpProblem,
  powerUpTargetProblem,
  selectProblem,
  viewFor,
} from '../src/index.ts';
import { card } from './scenario.ts';

const R3 = card('R3Pe');
const G5 = card('G5Wi');
const B1 = card('B1Bo');

/** Active, not frozen, hand R3Pe G5Wi, piles topped by Red 2 Ponke, nothing, Blue 2 Ponke. */
const s: PowerUpSituation = {
  status: 'active',
  frozen: false,
  hand: [R3, G5],
  pileTops: [card('R2Pk'), undefined, card('B2Pk')],
  powerUpsAvailable: [...POWER_UP_TYPES],
  opponents: [
    { id: 'p2', frozen: false },
    { id: 'p3', frozen: true },
  ],
};

describe('playProblem: the play checks in their order', () => {
  const cases: [string, PlaySituation, string | null, number, RuleErrorCode | null][] = [
    ['a game not active, before all else', { ...s, status: 'finished', frozen: true }, null, 9, 'GAME_NOT_ACTIVE'],
    ['frozen, before the card', { ...s, frozen: true }, null, 9, 'FROZEN_PLAY'],
    ['no card chosen', s, null, 0, 'CARD_REQUIRED'],
    ['a card not in the hand, before the pile', s, B1.id, 9, 'CARD_NOT_IN_HAND'],
    ['a pile past the last', s, R3.id, 3, 'INVALID_PILE'],
    ['a negative pile', s, R3.id, -1, 'INVALID_PILE'],
    ['a fractional pile', s, R3.id, 0.5, 'INVALID_PILE'],
    ['a pile with no cards', s, R3.id, 1, 'EMPTY_PILE'],
    ['a top that does not match', s, G5.id, 0, 'NO_MATCH'],
    ['a match by color', s, R3.id, 0, null],
  ];
  it.each(cases)('%s', (_, situation, cardId, pileIndex, code) => {
    expect(playProblem(situation, cardId, pileIndex)).toBe(code);
  });

  it('ignoreMatch drops the matching rule only', () => {
    expect(playProblem(s, G5.id, 0, { ignoreMatch: true })).toBeNull();
    expect(playProblem(s, G5.id, 1, { ignoreMatch: true })).toBe('EMPTY_PILE');
    expect(playProblem({ ...s, frozen: true }, G5.id, 0, { ignoreMatch: true })).toBe('FROZEN_PLAY');
  });
});

describe('selectProblem: picking a hand card up', () => {
  it('names the freeze first, then a game not active', () => {
    expect(selectProblem({ status: 'starting', frozen: true })).toBe('FROZEN_PLAY');
    expect(selectProblem({ status: 'starting', frozen: false })).toBe('GAME_NOT_ACTIVE');
    expect(selectProblem({ status: 'active', frozen: false })).toBeNull();
  });
});

describe('powerUpProblem and powerUpTargetProblem: the power-up checks in their order', () => {
  it('frozen, then not active, then used up, then no one to freeze', () => {
    expect(powerUpProblem({ ...s, frozen: true, status: 'finished', powerUpsAvailable: [] }, 'BOMB')).toBe(
      'FROZEN_POWER_UP',
    );
    expect(powerUpProblem({ ...s, status: 'finished', powerUpsAvailable: [] }, 'BOMB')).toBe('GAME_NOT_ACTIVE');
    expect(powerUpProblem({ ...s, powerUpsAvailable: ['SNIPER'], opponents: [] }, 'FREEZE')).toBe(
      'POWER_UP_NOT_AVAILABLE',
    );
    expect(powerUpProblem({ ...s, opponents: [] }, 'FREEZE')).toBe('NO_OPPONENTS');
    expect(powerUpProblem({ ...s, opponents: [] }, 'REVERSAL')).toBeNull();
  });

  it('refuses a REVERSAL with nothing to send back, and allows it while that is not known', () => {
    expect(powerUpProblem({ ...s, cardsToSendBack: 0 }, 'REVERSAL')).toBe('NOTHING_TO_SEND_BACK');
    expect(powerUpProblem({ ...s, cardsToSendBack: 1 }, 'REVERSAL')).toBeNull();
    expect(powerUpProblem({ ...s, cardsToSendBack: undefined }, 'REVERSAL')).toBeNull();
    expect(powerUpProblem({ ...s, cardsToSendBack: 0 }, 'WHIRLWIND')).toBeNull();
    expect(cardsToSendBack([1, 1, 1], 0)).toBe(0);
    expect(cardsToSendBack([3, 1, 2], 4)).toBe(7);
    expect(cardsToSendBack([0, 1], 0)).toBe(0);
  });

  const target: [PowerUpType, Parameters<typeof powerUpTargetProblem>[2], RuleErrorCode | null][] = [
    ['BOMB', {}, null],
    ['BOMB', { pileIndex: 2 }, null],
    ['BOMB', { pileIndex: 3 }, 'INVALID_PILE'],
    ['SNIPER', { pileIndex: 0 }, 'CARD_REQUIRED'],
    ['SNIPER', { cardId: B1.id, pileIndex: 9 }, 'CARD_NOT_IN_HAND'],
    ['SNIPER', { cardId: G5.id }, 'INVALID_PILE'],
    ['SNIPER', { cardId: G5.id, pileIndex: -1 }, 'INVALID_PILE'],
    ['SNIPER', { cardId: G5.id, pileIndex: 1 }, null], // an empty pile takes a sniped card
    ['FREEZE', {}, 'TARGET_REQUIRED'],
    ['FREEZE', { targetPlayerId: 'p9' }, 'INVALID_TARGET'],
    ['FREEZE', { targetPlayerId: 'p3' }, 'ALREADY_FROZEN'],
    ['FREEZE', { targetPlayerId: 'p2' }, null],
    ['REVERSAL', { targetPlayerId: 'p9', pileIndex: 9 }, null],
    ['WHIRLWIND', { cardId: 'nothing' }, null],
  ];
  it.each(target)('%s with %j: %s', (type, t, code) => {
    expect(powerUpTargetProblem(s, type, t)).toBe(code);
  });
});

const cardArb: fc.Arbitrary<Card> = fc
  .record({
    n: fc.integer({ min: 1, max: 5 }),
    color: fc.constantFrom('R', 'B', 'G'),
    logo: fc.constantFrom('Bo', 'Pe', 'Wi'),
    copy: fc.integer({ min: 0, max: 99 }),
  })
  .map(({ n, color, logo, copy }) => card(`${color}${n}${logo}`, `${color}${n}${logo}.${copy}`));

describe('playablePiles and hasPlayableCard', () => {
  it('a pile is playable exactly when the play checks accept the card there', () => {
    fc.assert(
      fc.property(fc.array(cardArb, { minLength: 1, maxLength: 3 }), fc.array(fc.option(cardArb)), (hand, tops) => {
        const situation: PlaySituation = {
          status: 'active',
          frozen: false,
          hand,
          pileTops: tops.map((t) => t ?? undefined),
        };
        for (const c of hand) {
          const accepted = situation.pileTops.flatMap((_, k) => (playProblem(situation, c.id, k) === null ? [k] : []));
          expect(playablePiles(c, situation.pileTops)).toEqual(accepted);
        }
        expect(hasPlayableCard(hand, situation.pileTops)).toBe(
          hand.some((c) => playablePiles(c, situation.pileTops).length > 0),
        );
        expect(hasPlayableCard(hand, situation.pileTops)).toBe(
          hand.some((c) => tops.some((t) => t !== null && matches(c, t))),
        );
      }),
    );
  });
});

/** A fresh deal of 2–4 humans, maybe one frozen and some power-ups used, as the property's ground. */
const gameArb = fc
  .record({
    seed: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
    seats: fc.integer({ min: 2, max: 4 }),
    frozen: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    left: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    used: fc.subarray([...POWER_UP_TYPES]),
  })
  .map(({ seed, seats, frozen, left, used }): GameState => {
    const dealt = createGame({
      seed,
      seats: Array.from({ length: seats }, (_, i) => ({ id: `p${i + 1}`, username: `P${i + 1}`, bot: null })),
      cardsPerPlayer: 20,
      speed: 'normal',
      startAt: 0,
    });
    const players = dealt.players.map((p, i) => ({
      ...p,
      frozenUntil: i === frozen ? 5_000 : null,
      frozenBy: i === frozen ? 'someone' : null,
      left: i === left && i !== 0 ? { at: 0, wentAt: 0, reason: 'left' as const } : null,
      powerUpsUsed: i === 0 ? used : [],
    }));
    return { ...dealt, players };
  });

/** What p1's screen knows: its hand, the piles' tops, its power-ups and who it could freeze. */
function situationOfView(state: GameState): PowerUpSituation {
  const view = viewFor(state, 'p1');
  const you = view.you as NonNullable<typeof view.you>;
  return {
    status: view.status,
    frozen: you.isFrozen,
    hand: you.hand,
    pileTops: view.discardPiles.map((pile) => pile.at(-1)),
    powerUpsAvailable: you.powerUps.available,
    opponents: view.players
      .filter((p) => p.userId !== 'p1' && !p.hasLeft)
      .map((p) => ({ id: p.userId, frozen: p.isFrozen })),
  };
}

const codeOf = (state: GameState, command: object): RuleErrorCode | null => {
  const result = apply(state, command, 1);
  return result.ok ? null : result.error.code;
};

describe('the checks over a player view answer what apply answers', () => {
  it('for card plays', () => {
    fc.assert(
      fc.property(gameArb, fc.nat(), fc.integer({ min: -1, max: 7 }), (state, pick, pileIndex) => {
        const ids = state.players.flatMap((p) => p.hand.map((c) => c.id));
        const cardId = ids[pick % ids.length] as string;
        const expected = playProblem(situationOfView(state), cardId, pileIndex);
        expect(codeOf(state, { type: 'playCard', playerId: 'p1', cardId, pileIndex })).toBe(expected);
      }),
    );
  });

  it('for power-ups', () => {
    fc.assert(
      fc.property(
        gameArb,
        fc.constantFrom(...POWER_UP_TYPES),
        fc.record({
          targetPlayerId: fc.option(fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p9'), { nil: undefined }),
          card: fc.option(fc.nat(), { nil: undefined }),
          pileIndex: fc.option(fc.integer({ min: -1, max: 7 }), { nil: undefined }),
        }),
        (state, type, { targetPlayerId, card: pick, pileIndex }) => {
          const ids = state.players.flatMap((p) => p.hand.map((c) => c.id));
          const target = { targetPlayerId, cardId: pick === undefined ? undefined : ids[pick % ids.length], pileIndex };
          const situation = situationOfView(state);
          const expected = powerUpProblem(situation, type) ?? powerUpTargetProblem(situation, type, target);
          expect(codeOf(state, { type: 'usePowerUp', playerId: 'p1', powerUpType: type, ...target })).toBe(expected);
        },
      ),
    );
  });
});
