import { describe, expect, it } from 'vitest';
import { RULE_TEXTS, type RuleErrorCode, advance, apply, nextDeadline, viewFor } from '../src/index.ts';
import { accepted, scenario } from './scenario.ts';

const s = scenario({
  piles: ['B5Bo', 'G4So'],
  players: [{ hand: 'B1Pe R2Pe', deck: 'Y3Pc' }, { hand: 'R5Wi', deck: 'G1Pk', bot: 'hard' }, { hand: 'O4So' }],
});
const finished = accepted(
  apply(accepted(apply(s, { type: 'leave', playerId: 'p1' }, 10)).state, { type: 'leave', playerId: 'p3' }, 20),
).state;
const gone = accepted(
  apply(
    scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'B1Pe' }, { hand: 'R5Wi' }, { hand: 'O4So' }] }),
    { type: 'leave', playerId: 'p2' },
    10,
  ),
).state;

const play = { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 };

const garbage: [what: string, command: unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a string', 'playCard'],
  ['a number', 42],
  ['a boolean', true],
  ['an array', [play]],
  ['an empty object', {}],
  ['a command without type', { playerId: 'p1' }],
  ['an unknown type', { type: 'fly', playerId: 'p1' }],
  ['a prototype key as type', { type: 'constructor', playerId: 'p1' }],
  ['a numeric playerId', { ...play, playerId: 1 }],
  ['a null playerId', { ...play, playerId: null }],
  ['no playerId', { type: 'checkDeadlock' }],
  ['a numeric cardId', { ...play, cardId: 5 }],
  ['no cardId', { type: 'playCard', playerId: 'p1', pileIndex: 0 }],
  ['a string pileIndex', { ...play, pileIndex: '0' }],
  ['a NaN pileIndex', { ...play, pileIndex: Number.NaN }],
  ['a fractional pileIndex', { ...play, pileIndex: 0.5 }],
  ['an infinite pileIndex', { ...play, pileIndex: Number.POSITIVE_INFINITY }],
  ['a power-up without type', { type: 'usePowerUp', playerId: 'p1' }],
  ['a numeric power-up type', { type: 'usePowerUp', playerId: 'p1', powerUpType: 3 }],
  ['a numeric freeze target', { type: 'usePowerUp', playerId: 'p1', powerUpType: 'FREEZE', targetPlayerId: 7 }],
  ['an object cardId', { type: 'usePowerUp', playerId: 'p1', powerUpType: 'SNIPER', cardId: {}, pileIndex: 0 }],
  ['a string power-up pile', { type: 'usePowerUp', playerId: 'p1', powerUpType: 'BOMB', pileIndex: 'x' }],
  ['a null power-up pile', { type: 'usePowerUp', playerId: 'p1', powerUpType: 'BOMB', pileIndex: null }],
];

/** Every refusal: no throw, the very state object back, nothing changed, the code's text. */
function expectRefusal(state: typeof s, command: unknown, now: number, code: RuleErrorCode): void {
  const before = JSON.stringify(state);
  const r = apply(state, command, now);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe(code);
  expect(r.error.message).toBe(RULE_TEXTS[r.error.code]);
  expect(r.state).toBe(state);
  expect(JSON.stringify(state)).toBe(before);
}

describe('bad input is refused with a code, never thrown', () => {
  for (const [what, command] of garbage) {
    it(`${what}: INVALID_COMMAND`, () => expectRefusal(s, command, 100, 'INVALID_COMMAND'));
  }

  for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    it(`a time of ${now}: INVALID_COMMAND`, () => expectRefusal(s, play, now, 'INVALID_COMMAND'));
  }

  it('an unknown player: PLAYER_NOT_FOUND', () => {
    expectRefusal(s, { ...play, playerId: 'nobody' }, 100, 'PLAYER_NOT_FOUND');
    expectRefusal(s, { type: 'leave', playerId: '' }, 100, 'PLAYER_NOT_FOUND');
  });

  it('a player who left: PLAYER_LEFT', () => expectRefusal(gone, { ...play, playerId: 'p2' }, 100, 'PLAYER_LEFT'));

  it('a finished game: GAME_NOT_ACTIVE, for commands of every type', () => {
    expect(finished.status).toBe('finished');
    for (const type of ['checkDeadlock', 'forceDeadlockResolution', 'leave', 'disconnect', 'reconnect']) {
      expectRefusal(finished, { type, playerId: 'p3' }, 100, 'GAME_NOT_ACTIVE');
    }
    expectRefusal(finished, { ...play, playerId: 'p3', cardId: 'O4So' }, 100, 'GAME_NOT_ACTIVE');
  });

  it('an unknown power-up: UNKNOWN_POWER_UP', () =>
    expectRefusal(s, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'toString' }, 100, 'UNKNOWN_POWER_UP'));
});

describe('bots never take commands', () => {
  const commands: unknown[] = [
    { type: 'playCard', playerId: 'p2', cardId: 'R5Wi', pileIndex: 0 },
    { type: 'usePowerUp', playerId: 'p2', powerUpType: 'WHIRLWIND' },
    { type: 'checkDeadlock', playerId: 'p2' },
    { type: 'forceDeadlockResolution', playerId: 'p2' },
    { type: 'leave', playerId: 'p2' },
    { type: 'disconnect', playerId: 'p2' },
    { type: 'reconnect', playerId: 'p2' },
  ];
  for (const command of commands) {
    it(`${(command as { type: string }).type}: BOT_PLAYER`, () => expectRefusal(s, command, 100, 'BOT_PLAYER'));
  }
});

describe('bad times for advance', () => {
  for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    it(`advance(state, ${now}) changes nothing`, () => {
      const before = JSON.stringify(s);
      const r = advance(s, now);
      expect(r.state).toBe(s);
      expect(r.events).toEqual([]);
      expect(JSON.stringify(s)).toBe(before);
    });
  }

  it('advance to a time before the clock changes nothing', () => {
    const later = accepted(apply(s, { type: 'checkDeadlock', playerId: 'p1' }, 5000)).state;
    expect(advance(later, 100).state).toBe(later);
    expect(later.clock).toBe(5000);
  });

  it('an apply at a time before the clock keeps the clock', () => {
    const later = accepted(apply(s, { type: 'checkDeadlock', playerId: 'p1' }, 5000)).state;
    expect(accepted(apply(later, { type: 'checkDeadlock', playerId: 'p1' }, 100)).state.clock).toBe(5000);
  });

  it('views and deadlines accept anything a state holds', () => {
    expect(viewFor(s, 'nobody').you).toBeNull();
    expect(viewFor(s, null).you).toBeNull();
    expect(nextDeadline(finished)).toBeNull();
  });
});
