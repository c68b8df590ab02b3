/** Power-ups against the game's limits: each one once per game, and what happens at the game's end. */
import { describe, expect, it } from 'vitest';
import { POWER_UP_TYPES, type PowerUpType, apply, nextDeadline, viewFor } from '../src/index.ts';
import { accepted, playerOf, refused, scenario, tops, usePowerUp as use } from './scenario.ts';

type Target = NonNullable<Parameters<typeof use>[2]>;

describe('each power-up once per game', () => {
  const s = scenario({
    piles: ['G1Bo G2Bo B5Bo', 'Y1Pe R3Pe'],
    stock: 'O1Pk O2Pk O3Pk O4Pk O5Pk Pu1Pk Pu2Pk',
    players: [
      { hand: 'R1Pe G2Wi Y3Pk', deck: 'O3Pc O4Pc O5Pc' },
      { hand: 'O2Pc', deck: 'R2Wi' },
      { hand: 'Y1Bo', deck: 'R3Wi' },
    ],
  });
  const targets: Record<PowerUpType, [Target, Target]> = {
    BOMB: [{ pileIndex: 0 }, { pileIndex: 1 }],
    REVERSAL: [{}, {}],
    FREEZE: [{ targetPlayerId: 'p2' }, { targetPlayerId: 'p3' }],
    WHIRLWIND: [{}, {}],
    SNIPER: [
      { cardId: 'R1Pe', pileIndex: 0 },
      { cardId: 'G2Wi', pileIndex: 1 },
    ],
  };
  for (const type of POWER_UP_TYPES) {
    it(`${type}: a second use is refused with "Power-up not available"`, () => {
      const once = accepted(apply(s, use('p1', type, targets[type][0]), 10)).state;
      expect(viewFor(once, 'p1').you?.powerUps).toEqual({
        available: POWER_UP_TYPES.filter((t) => t !== type),
        used: [type],
      });
      const twice = refused(apply(once, use('p1', type, targets[type][1]), 20));
      expect(twice.error).toEqual({ code: 'POWER_UP_NOT_AVAILABLE', message: 'Power-up not available' });
      expect(twice.state).toBe(once);
      // Another player's copy is still there (p3: after a FREEZE of p2, p2 is frozen).
      const other =
        type === 'FREEZE' ? { targetPlayerId: 'p1' } : type === 'SNIPER' ? { cardId: 'Y1Bo', pileIndex: 0 } : {};
      expect(apply(once, use('p3', type, other), 20).ok).toBe(true);
    });
  }

  it('offers all five at the start', () => {
    expect(viewFor(s, 'p1').you?.powerUps).toEqual({
      available: ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'],
      used: [],
    });
  });

  it('refuses an unknown power-up', () => {
    expect(refused(apply(s, use('p1', 'LASER'), 10)).error.code).toBe('UNKNOWN_POWER_UP');
  });
});

describe('power-ups and the end of the game', () => {
  const s = scenario({
    piles: ['B5Bo', 'Y4So'],
    players: [{ hand: 'B1Pe', deck: 'R1Pe' }, { hand: 'O2Pc', deck: 'G1Pc' }, { hand: 'Y3Pc' }],
  });

  it('ends every freeze with the game: no finished view shows a frozen player', () => {
    const frozen = accepted(apply(s, use('p1', 'FREEZE', { targetPlayerId: 'p2' }), 100)).state;
    const one = accepted(apply(frozen, { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 }, 200));
    const { state } = accepted(
      apply(one.state, { type: 'playCard', playerId: 'p1', cardId: 'R1Pe', pileIndex: 0 }, 300),
    );
    expect(state.status).toBe('finished');
    expect(playerOf(state, 'p2')).toMatchObject({ frozenUntil: null, frozenBy: null });
    const view = viewFor(state, 'p2');
    expect(view.activeEffects).toEqual([]);
    expect(view.players.map((p) => p.isFrozen)).toEqual([false, false, false]);
    expect(view.you).toMatchObject({ isFrozen: false, frozenUntil: null });
    expect(nextDeadline(state)).toBeNull();
  });

  it('replaces a lapsed freeze that was not advanced yet instead of listing it twice', () => {
    const frozen = accepted(apply(s, use('p1', 'FREEZE', { targetPlayerId: 'p2' }), 100)).state;
    // 8100 has passed, but the caller did not run advance(): p2 is no longer frozen and may be frozen again.
    const again = accepted(apply(frozen, use('p3', 'FREEZE', { targetPlayerId: 'p2' }), 9000)).state;
    expect(playerOf(again, 'p2')).toMatchObject({ frozenUntil: 17_000, frozenBy: 'p3' });
    expect(again.effects).toEqual([{ type: 'freeze', targetPlayerId: 'p2', startTime: 9000, duration: 8000 }]);
  });

  it('SNIPER wins when it plays the last card, the power-up event before gameEnded', () => {
    const last = scenario({ piles: ['B5Bo', 'Y4So'], players: [{ hand: 'R1Pe' }, { hand: 'O2Pc' }] });
    const { state, events } = accepted(apply(last, use('p1', 'SNIPER', { cardId: 'R1Pe', pileIndex: 1 }), 10));
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'win' });
    expect(tops(state)).toBe('B5Bo R1Pe');
    expect(events.map((e) => e.type)).toEqual(['cardPlayed', 'handChanged', 'powerUpUsed', 'gameEnded']);
  });
});
