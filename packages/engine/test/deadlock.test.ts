import { describe, expect, it } from 'vitest';
import {
  FORCE_DEADLOCK_AFTER_MS,
  type GameSpeed,
  RULE_TEXTS,
  SPEED_TABLE,
  UNRESOLVABLE_REASON,
  advance,
  apply,
  nextDeadline,
  seedRng,
  viewFor,
} from '../src/index.ts';
import { accepted, allCardIds, faces, playerOf, refused, scenario, tops } from './scenario.ts';

// Nobody's hand matches Blue 5 Bonk or Green 4 Solana: a global deadlock.
const STUCK = [{ hand: 'R1Pe Pu2Pc' }, { hand: 'O3Wi' }];
// Cards matching no hand card above (colors B/G/Y, numbers 4/5, logos Bo/So/Pk).
const DEAD_FLIPS = 'G5Pk Y4Bo';

describe('global deadlock detection and automatic resolution', () => {
  const delays: [GameSpeed, number][] = [
    ['slow', 6000],
    ['normal', 4000],
    ['fast', 3000],
    ['blitz', 2000],
  ];
  for (const [speed, delay] of delays) {
    it(`${speed}: resolves after ${delay / 1000} s by flipping one stock card onto each pile`, () => {
      expect(SPEED_TABLE[speed].deadlockDelayMs).toBe(delay);
      const s = scenario({ piles: ['B5Bo', 'G4So'], stock: 'O1Pk Y5Pe B1Wi', players: STUCK, speed, now: 1000 });
      expect(s.deadlock.resolveAt).toBe(1000 + delay);
      expect(viewFor(s, null).deadlock).toEqual({ active: true, resolveAt: 1000 + delay, consecutive: 0 });
      expect(nextDeadline(s)).toBe(1000 + delay);

      const early = advance(s, 1000 + delay - 1);
      expect(early.state).toBe(s);
      expect(early.events).toEqual([]);

      const { state, events } = advance(s, 1000 + delay);
      expect(events).toEqual([{ type: 'deadlockResolved', mode: 'automatic', cardsFlipped: 2, recycled: 0 }]);
      expect(tops(state)).toBe('B1Wi Y5Pe');
      expect(faces(state.stock)).toBe('O1Pk');
      expect(state.deadlock.resolveAt).toBeNull();
      expect(playerOf(state, 'p1').stuckSince).toBeNull(); // Red 1 Pepe now matches Blue 1 Wif
    });
  }

  it('counts bots: a bot holding a playable card means no global deadlock', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'R1Pe' }, { hand: 'B2Wi', bot: 'easy' }] });
    expect(s.deadlock.resolveAt).toBeNull();
    expect(playerOf(s, 'p1').stuckSince).toBe(0);
    expect(playerOf(s, 'p2').stuckSince).toBeNull();
  });

  it('ignores players who left: their cards no longer break a deadlock', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: [...STUCK, { hand: 'B2Wi' }] });
    expect(s.deadlock.resolveAt).toBeNull();
    const { state, events } = accepted(apply(s, { type: 'leave', playerId: 'p3' }, 500));
    expect(events).toContainEqual({ type: 'deadlockDetected', resolveAt: 4500 });
    expect(state.deadlock.resolveAt).toBe(4500);
  });

  it('detects again when the new tops still match nothing', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], stock: DEAD_FLIPS, players: STUCK });
    const { state, events } = advance(s, 4000);
    expect(events).toEqual([
      { type: 'deadlockResolved', mode: 'automatic', cardsFlipped: 2, recycled: 0 },
      { type: 'deadlockDetected', resolveAt: 8000 },
    ]);
    expect(tops(state)).toBe('Y4Bo G5Pk');
    expect(state.deadlock.count).toBe(2);
  });

  it('shuffles every pile except its top into an empty stock first', () => {
    const s = scenario({ piles: ['Y5Pe B5Bo', 'B1Wi Y2Pe G4So'], players: STUCK });
    const { state, events } = advance(s, 4000);
    expect(events[0]).toEqual({ type: 'deadlockResolved', mode: 'automatic', cardsFlipped: 2, recycled: 3 });
    expect(faces(state.piles[0]![0]!)).toBe('B5Bo');
    expect(faces(state.piles[1]![0]!)).toBe('G4So');
    expect(state.piles.map((p) => p.length)).toEqual([2, 2]);
    expect(state.stock).toHaveLength(1);
    expect(allCardIds(state).sort()).toEqual(allCardIds(s).sort());
    const flipped = [state.piles[0]![1]!, state.piles[1]![1]!, state.stock[0]!].map((c) => c.id).sort();
    expect(flipped).toEqual(['B1Wi', 'Y2Pe', 'Y5Pe']);
  });

  it('reports "No more cards can be flipped." and retries; three in a row end the game by ranking', () => {
    // p2 holds fewer cards than p1, so p2 leads the ranking.
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK });
    const first = advance(s, 4000);
    expect(first.events).toEqual([
      { type: 'deadlockUnresolvable', reason: 'No more cards can be flipped.', consecutiveDeadlocks: 1 },
    ]);
    expect(UNRESOLVABLE_REASON).toBe('No more cards can be flipped.');
    expect(first.state.deadlock.resolveAt).toBe(8000);
    expect(viewFor(first.state, null).deadlock.consecutive).toBe(1);
    expect(advance(first.state, 7999).state).toBe(first.state);

    const second = advance(first.state, 8000);
    expect(second.events).toEqual([
      { type: 'deadlockUnresolvable', reason: UNRESOLVABLE_REASON, consecutiveDeadlocks: 2 },
    ]);
    expect(second.state.status).toBe('active');

    const third = advance(second.state, 12_000);
    expect(third.events.map((e) => e.type)).toEqual(['deadlockUnresolvable', 'gameEnded']);
    expect(third.events[0]).toMatchObject({ consecutiveDeadlocks: 3 });
    expect(third.state.result).toMatchObject({ reason: 'deadlock', winnerId: 'p2', endedAt: 12_000 });
    expect(nextDeadline(third.state)).toBeNull();
  });

  it('gets there in one advance call as well (each step at its own deadline)', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK });
    const { state, events } = advance(s, 60_000);
    expect(events.filter((e) => e.type === 'deadlockUnresolvable')).toHaveLength(3);
    expect(state.result).toMatchObject({ reason: 'deadlock', endedAt: 12_000 });
    expect(state.clock).toBe(60_000);
  });

  it('resets the consecutive count when a card is played', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK });
    const twice = advance(s, 8000).state;
    expect(twice.deadlock.consecutiveUnresolvable).toBe(2);
    const sniped = accepted(
      apply(twice, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'SNIPER', cardId: 'R1Pe', pileIndex: 0 }, 9000),
    ).state;
    expect(sniped.deadlock.consecutiveUnresolvable).toBe(0);
    expect(viewFor(sniped, 'p1').deadlock.consecutive).toBe(0);
    // Still no match, so the retry at 12 s runs; the card under the new top is recycled and flipped.
    const { state, events } = advance(sniped, 12_000);
    expect(events[0]).toEqual({ type: 'deadlockResolved', mode: 'automatic', cardsFlipped: 1, recycled: 1 });
    expect(faces(state.piles[0]!)).toBe('R1Pe B5Bo');
    expect(tops(state)).toBe('B5Bo G4So');
    expect(state.status).toBe('active');
  });

  it('is lifted by a power-up that gives someone a match', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'R1Pe Pu2Pc', deck: 'R5Bo' }, { hand: 'O3Wi' }] });
    const { state } = accepted(
      apply(s, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'BOMB', pileIndex: 0 }, 100),
    );
    expect(tops(state)).toBe('R5Bo G4So');
    expect(state.deadlock.resolveAt).toBeNull();
    expect(nextDeadline(state)).toBe(state.endsAt);
  });
});

describe('checkDeadlock (manual)', () => {
  const check = { type: 'checkDeadlock', playerId: 'p1' } as const;

  it('reports no deadlock when someone can play', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], stock: 'O1Pk', players: [{ hand: 'R1Pe' }, { hand: 'B2Wi' }] });
    const r = accepted(apply(s, check, 100));
    expect(r.deadlockCheck).toEqual({ deadlockDetected: false, resolved: false });
    expect(r.events).toEqual([]);
    expect(r.state.piles).toEqual(s.piles);
  });

  it('resolves a global deadlock at once', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], stock: 'O1Pk Y5Pe B1Wi', players: STUCK });
    const r = accepted(apply(s, check, 100));
    expect(r.deadlockCheck).toEqual({ deadlockDetected: true, resolved: true });
    expect(r.events).toEqual([{ type: 'deadlockResolved', mode: 'manual', cardsFlipped: 2, recycled: 0 }]);
    expect(tops(r.state)).toBe('B1Wi Y5Pe');
    expect(r.state.deadlock.resolveAt).toBeNull();
  });

  it('ignores the cards of players who left', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], stock: 'O1Pk Y5Pe B1Wi', players: [...STUCK, { hand: 'B2Wi' }] });
    const gone = accepted(apply(s, { type: 'leave', playerId: 'p3' }, 50)).state;
    expect(accepted(apply(gone, check, 100)).deadlockCheck).toEqual({ deadlockDetected: true, resolved: true });
  });

  it('reports an unresolvable deadlock as detected but not resolved, without counting it or moving the retry', () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK });
    const r = accepted(apply(s, check, 100));
    expect(r.deadlockCheck).toEqual({ deadlockDetected: true, resolved: false });
    expect(r.events).toEqual([{ type: 'deadlockUnresolvable', reason: UNRESOLVABLE_REASON, consecutiveDeadlocks: 0 }]);
    expect(r.state.deadlock.consecutiveUnresolvable).toBe(0);
    expect(r.state.deadlock.resolveAt).toBe(s.deadlock.resolveAt);
  });

  it('cannot hurry the end: any number of checks leaves the game on, only the timed retries count', () => {
    let state = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK });
    for (let i = 1; i <= 5; i++) state = accepted(apply(state, check, 100 * i)).state;
    expect(state.status).toBe('active');
    expect(state.deadlock.consecutiveUnresolvable).toBe(0);
  });
});

describe('forceDeadlockResolution', () => {
  const force = { type: 'forceDeadlockResolution', playerId: 'p1' } as const;
  // p1 can play Blue 1 Pepe on Blue 5 Bonk until p2 covers it with Red 5 Wif at 3 s.
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    stock: 'O1Pk Y5Pe B1Wi',
    players: [{ hand: 'B1Pe' }, { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' }],
  });
  const covered = accepted(apply(s, { type: 'playCard', playerId: 'p2', cardId: 'R5Wi', pileIndex: 0 }, 3000)).state;

  it('tracks since when the player has had no playable card', () => {
    expect(playerOf(s, 'p1').stuckSince).toBeNull();
    expect(playerOf(covered, 'p1').stuckSince).toBe(3000);
    expect(viewFor(covered, 'p1').you?.stuckSince).toBe(3000);
    expect(covered.deadlock.resolveAt).toBeNull(); // p2 can still play
  });

  it('is refused before 15 s without a playable card, with a clear error', () => {
    expect(FORCE_DEADLOCK_AFTER_MS).toBe(15_000);
    const at = advance(covered, 17_999).state;
    const r = refused(apply(at, force, 17_999));
    expect(r.error).toEqual({ code: 'FORCE_NOT_ALLOWED', message: RULE_TEXTS.FORCE_NOT_ALLOWED });
    expect(r.error.message).toMatch(/15 seconds/);
    expect(r.state).toBe(at);
  });

  it('flips new tops after 15 s, even while others can play', () => {
    const at = advance(covered, 18_000).state;
    const { state, events } = accepted(apply(at, force, 18_000));
    expect(events).toEqual([{ type: 'deadlockResolved', mode: 'forced', cardsFlipped: 2, recycled: 0 }]);
    expect(tops(state)).toBe('B1Wi Y5Pe');
    expect(playerOf(state, 'p1').stuckSince).toBeNull();
  });

  it('is refused to a player who can play', () => {
    const at = advance(covered, 60_000).state;
    expect(refused(apply(at, { type: 'forceDeadlockResolution', playerId: 'p2' }, 60_000)).error.code).toBe(
      'FORCE_NOT_ALLOWED',
    );
  });

  it('never counts towards the deadlock end when others could still play', () => {
    const bare = scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'R1Pe' }, { hand: 'B2Wi' }] });
    const { state, events } = accepted(apply(bare, force, 15_000));
    expect(events).toEqual([{ type: 'deadlockUnresolvable', reason: UNRESOLVABLE_REASON, consecutiveDeadlocks: 0 }]);
    expect(state.deadlock.consecutiveUnresolvable).toBe(0);
    expect(state.status).toBe('active');
  });
});

describe('deadlock details', () => {
  it('recycles the piles first when the stock cannot cover every pile, so each pile still gets a card', () => {
    const s = scenario({ piles: ['Y5Pe B5Bo', 'B1Wi Y2Pe G4So'], stock: 'O1Pk', players: STUCK });
    const { state, events } = advance(s, 4000);
    expect(events[0]).toEqual({ type: 'deadlockResolved', mode: 'automatic', cardsFlipped: 2, recycled: 3 });
    expect(state.piles.map((p) => faces(p[0]!))).toEqual(['B5Bo', 'G4So']);
    expect(state.piles.map((p) => p.length)).toEqual([2, 2]);
    expect(state.stock).toHaveLength(2);
    expect(allCardIds(state).sort()).toEqual(allCardIds(s).sort());
  });

  it('shuffles the recycled cards: the flipped tops depend on the PRNG', () => {
    const s = scenario({ piles: ['Y5Pe O5Pe B5Bo', 'B1Wi Y2Pe Pu1Pc G4So'], players: STUCK });
    const seen = new Set<string>();
    for (let n = 0; n < 30; n += 1) {
      const reseeded = { ...s, rng: seedRng(n.toString(16).padStart(32, '9')) };
      seen.add(tops(advance(reseeded, 4000).state));
    }
    expect(seen.size).toBeGreaterThan(5);
  });

  for (const [speed, delay] of [
    ['slow', 6000],
    ['blitz', 2000],
  ] as const) {
    it(`${speed}: retries an unresolvable deadlock after ${delay / 1000} s`, () => {
      const s = scenario({ piles: ['B5Bo', 'G4So'], players: STUCK, speed });
      const first = advance(s, delay);
      expect(first.events).toEqual([
        { type: 'deadlockUnresolvable', reason: UNRESOLVABLE_REASON, consecutiveDeadlocks: 1 },
      ]);
      expect(first.state.deadlock.resolveAt).toBe(2 * delay);
      const { state } = advance(s, 10 * delay);
      expect(state.result).toMatchObject({ reason: 'deadlock', endedAt: 3 * delay });
    });
  }

  it("counts a frozen player's playable card: no global deadlock while someone holds one", () => {
    const s = scenario({ piles: ['B5Bo', 'G4So'], players: [{ hand: 'B1Pe', deck: 'R2Pc' }, { hand: 'R1Pe Pu2Pc' }] });
    const { state } = accepted(
      apply(s, { type: 'usePowerUp', playerId: 'p2', powerUpType: 'FREEZE', targetPlayerId: 'p1' }, 100),
    );
    expect(playerOf(state, 'p1').frozenUntil).toBe(8100);
    expect(state.deadlock.resolveAt).toBeNull();
    expect(playerOf(state, 'p2').stuckSince).toBe(0);
  });

  it('makes a player who forced a resolution and is still stuck wait another 15 s', () => {
    // p1's Blue 1 Pepe is covered at 3 s; the flipped Yellow 4 Bonk and Green 5 Ponke do not help it.
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      stock: 'O1Pk G5Pk Y4Bo',
      players: [{ hand: 'B1Pe' }, { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' }],
    });
    const force = { type: 'forceDeadlockResolution', playerId: 'p1' } as const;
    const covered = accepted(apply(s, { type: 'playCard', playerId: 'p2', cardId: 'R5Wi', pileIndex: 0 }, 3000));
    const forced = accepted(apply(advance(covered.state, 18_000).state, force, 18_000)).state;
    expect(tops(forced)).toBe('Y4Bo G5Pk');
    expect(playerOf(forced, 'p1').stuckSince).toBe(18_000);
    const soon = advance(forced, 32_999).state;
    expect(refused(apply(soon, force, 32_999)).error.code).toBe('FORCE_NOT_ALLOWED');
    const later = advance(forced, 33_000).state;
    expect(accepted(apply(later, force, 33_000)).events).toEqual([
      { type: 'deadlockResolved', mode: 'forced', cardsFlipped: 2, recycled: 3 },
    ]);
  });
});
