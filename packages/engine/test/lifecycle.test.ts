import { describe, expect, it } from 'vitest';
import {
  DISCONNECT_GRACE_MS,
  EARLY_LEAVE_MIN_CARDS,
  EARLY_LEAVE_MS,
  type GameState,
  advance,
  apply,
  nextDeadline,
  viewFor,
} from '../src/index.ts';
import { accepted, playerOf, refused, scenario } from './scenario.ts';

const leave = (playerId: string) => ({ type: 'leave', playerId }) as const;
const disconnect = (playerId: string) => ({ type: 'disconnect', playerId }) as const;
const reconnect = (playerId: string) => ({ type: 'reconnect', playerId }) as const;

describe('leaving forfeits', () => {
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [{ hand: 'B1Pe' }, { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' }, { hand: 'Y5Pk G1So', deck: 'O1Bo O2Bo' }],
  });

  it('takes the player out of the game, ranked last even with the fewest cards', () => {
    const { state, events } = accepted(apply(s, leave('p1'), 1000));
    expect(events).toEqual([{ type: 'playerLeft', playerId: 'p1', reason: 'left' }]);
    expect(state.status).toBe('active');
    expect(playerOf(state, 'p1').left).toEqual({ at: 1000, wentAt: 1000, reason: 'left' });
    expect(viewFor(state, null).players[0]).toMatchObject({ hasLeft: true, isConnected: false });
    const capped = advance(state, state.endsAt).state;
    expect(capped.result?.ranking.map((r) => [r.playerId, r.forfeited])).toEqual([
      ['p2', false],
      ['p3', false],
      ['p1', true],
    ]);
  });

  it('refuses every command of a player who left', () => {
    const gone = accepted(apply(s, leave('p1'), 1000)).state;
    for (const command of [
      { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 },
      { type: 'usePowerUp', playerId: 'p1', powerUpType: 'WHIRLWIND' },
      { type: 'checkDeadlock', playerId: 'p1' },
      leave('p1'),
      reconnect('p1'),
    ]) {
      const r = refused(apply(gone, command, 2000));
      expect(r.error).toEqual({ code: 'PLAYER_LEFT', message: 'You have left this game' });
      expect(r.state).toBe(gone);
    }
  });

  it('lets the last remaining player win by forfeit; the latest to leave ranks above earlier leavers', () => {
    // p2 contested the game (60 s of play, 5 cards) before leaving: a forfeit win (docs/fair-play.md).
    const contested = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B1Pe' },
        { hand: 'R5Wi G4Pk', deck: 'Pu3Pc', cardsPlayed: EARLY_LEAVE_MIN_CARDS },
        { hand: 'Y5Pk G1So', deck: 'O1Bo O2Bo' },
      ],
    });
    const one = accepted(apply(contested, leave('p1'), 1000)).state;
    const { state, events } = accepted(apply(one, leave('p2'), EARLY_LEAVE_MS));
    expect(events.map((e) => e.type)).toEqual(['playerLeft', 'gameEnded']);
    expect(state.status).toBe('finished');
    expect(state.result).toMatchObject({ winnerId: 'p3', reason: 'forfeit', endedAt: EARLY_LEAVE_MS });
    expect(state.result?.ranking.map((r) => r.playerId)).toEqual(['p3', 'p2', 'p1']);
    expect(nextDeadline(state)).toBeNull();
  });
});

describe('abort: every opponent walked away early (docs/fair-play.md)', () => {
  const two = (cardsPlayed: number) =>
    scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B1Pe', cardsPlayed: 7 },
        { hand: 'R5Wi G4Pk', deck: 'Pu3Pc', cardsPlayed },
      ],
    });

  it('numbers: 60 s of play and 5 cards', () => {
    expect(EARLY_LEAVE_MS).toBe(60_000);
    expect(EARLY_LEAVE_MIN_CARDS).toBe(5);
  });

  it('aborts a game the opponent leaves in its first 60 s, whatever they played: no winner, no points', () => {
    const { state, events } = accepted(apply(two(12), leave('p2'), 31_000));
    expect(events.map((e) => e.type)).toEqual(['playerLeft', 'gameEnded']);
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted', endedAt: 31_000 });
    expect(state.result?.ranking.map((r) => r.points)).toEqual([0, 0]);
    expect(viewFor(state, null).winner).toBeNull();
    expect(accepted(apply(two(12), leave('p2'), EARLY_LEAVE_MS - 1)).state.result?.reason).toBe('aborted');
  });

  it('aborts a game the opponent leaves before playing 5 cards, however late', () => {
    const late = accepted(apply(two(EARLY_LEAVE_MIN_CARDS - 1), leave('p2'), 10 * 60_000)).state;
    expect(late.result).toMatchObject({ winnerId: null, reason: 'aborted' });
  });

  it('gives the forfeit win once the opponent stayed 60 s and played 5 cards', () => {
    const { state } = accepted(apply(two(EARLY_LEAVE_MIN_CARDS), leave('p2'), EARLY_LEAVE_MS));
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'forfeit' });
    expect(state.result?.ranking[0]?.points).toBeGreaterThan(0);
  });

  it('counts time from the start of play, not from the deal: a leave in the countdown is early', () => {
    const later = scenario({
      now: 5000,
      piles: ['B5Bo', 'G4So'],
      players: [{ hand: 'B1Pe' }, { hand: 'R5Wi', cardsPlayed: 9 }],
    });
    expect(accepted(apply(later, leave('p2'), 5000 + EARLY_LEAVE_MS - 1)).state.result?.reason).toBe('aborted');
    expect(accepted(apply(later, leave('p2'), 5000 + EARLY_LEAVE_MS)).state.result?.reason).toBe('forfeit');
  });

  it('aborts when every leaver of a bigger game walked away early', () => {
    const three = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [{ hand: 'B1Pe' }, { hand: 'R5Wi', cardsPlayed: 2 }, { hand: 'Y5Pk', cardsPlayed: 9 }],
    });
    const one = accepted(apply(three, leave('p2'), 90_000)).state;
    expect(one.status).toBe('active');
    expect(accepted(apply(one, leave('p3'), 95_000)).state.result?.reason).toBe('forfeit');
    const early = accepted(apply(three, leave('p3'), 20_000)).state;
    expect(accepted(apply(early, leave('p2'), 95_000)).state.result?.reason).toBe('aborted');
  });

  it('aborts when a disconnected opponent forfeits before playing 5 cards', () => {
    const off = accepted(apply(two(1), disconnect('p2'), 30_000)).state;
    expect(advance(off, 30_000 + DISCONNECT_GRACE_MS).state.result).toMatchObject({
      reason: 'aborted',
      winnerId: null,
    });
  });

  // p2 plays 5 real cards in the first 5 s (Blue on Blue 5 Bonk), then goes.
  const fiveCardsIn = (): GameState => {
    let state: GameState = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'G1Pc R3Pk', deck: 'Y2Wi' },
        { hand: 'B1Bo B2Bo B3Bo', deck: 'B4Bo B1Pe B2Pe Y3Wi' },
      ],
    });
    for (const [n, cardId] of ['B1Bo', 'B2Bo', 'B3Bo', 'B4Bo', 'B1Pe'].entries()) {
      state = accepted(apply(state, { type: 'playCard', playerId: 'p2', cardId, pileIndex: 0 }, 1000 + n * 800)).state;
    }
    expect(playerOf(state, 'p2').cardsPlayed).toBe(EARLY_LEAVE_MIN_CARDS);
    return state;
  };

  it('judges a disconnect that ran out its grace by when the player went: 5 cards, gone at 5 s → aborted', () => {
    const off = accepted(apply(fiveCardsIn(), disconnect('p2'), 5000)).state;
    expect(advance(off, 5000 + DISCONNECT_GRACE_MS - 1).state.status).toBe('active');
    const { state, events } = advance(off, 5000 + DISCONNECT_GRACE_MS);
    expect(events.map((e) => e.type)).toEqual(['playerLeft', 'gameEnded']);
    // Taken out when the grace ran out (65 s), but judged by the disconnect at 5 s: as the button at 5 s.
    expect(playerOf(state, 'p2').left).toEqual({ at: 65_000, wentAt: 5000, reason: 'disconnected' });
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted', endedAt: 65_000 });
    expect(state.result?.ranking.map((r) => r.points)).toEqual([0, 0]);
    expect(accepted(apply(fiveCardsIn(), leave('p2'), 5000)).state.result?.reason).toBe('aborted');
  });

  it('gives the forfeit win when the disconnected player had played 5 cards and 70 s before going', () => {
    const off = accepted(apply(fiveCardsIn(), disconnect('p2'), 70_000)).state;
    const { state } = advance(off, 70_000 + DISCONNECT_GRACE_MS);
    expect(playerOf(state, 'p2').left).toEqual({ at: 130_000, wentAt: 70_000, reason: 'disconnected' });
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'forfeit', endedAt: 130_000 });
    expect(state.result?.ranking[0]?.points).toBeGreaterThan(0);
  });

  it('judges one who disconnected and then pressed Leave by the disconnect: 5 cards, gone at 5 s, Leave at 64 s → aborted', () => {
    const off = accepted(apply(fiveCardsIn(), disconnect('p2'), 5000)).state;
    const { state } = accepted(apply(off, leave('p2'), 64_000));
    expect(playerOf(state, 'p2').left).toEqual({ at: 64_000, wentAt: 5000, reason: 'left' });
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted' });
  });

  it('judges a reconnected player by their last disconnect, not the first', () => {
    const away = accepted(apply(fiveCardsIn(), disconnect('p2'), 5000)).state;
    const back = accepted(apply(away, reconnect('p2'), 30_000)).state;
    const off = accepted(apply(back, disconnect('p2'), 61_000)).state;
    const { state } = advance(off, 61_000 + DISCONNECT_GRACE_MS);
    expect(playerOf(state, 'p2').left).toEqual({ at: 121_000, wentAt: 61_000, reason: 'disconnected' });
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'forfeit' });
  });

  it('leaves wins, caps and deadlocks alone: only walk-aways are judged', () => {
    const { state } = accepted(apply(two(0), { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 }, 1000));
    expect(state.result).toMatchObject({ winnerId: 'p1', reason: 'win' });
  });
});

describe('abort: no human left', () => {
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [
      { hand: 'B1Pe', deck: 'R1Pe', cardsPlayed: 4 },
      { hand: 'R5Wi', bot: 'hard', botAt: 3000, cardsPlayed: 6 },
      { hand: 'Y5Pk', bot: 'expert', botAt: 2000 },
    ],
  });

  it('finishes the game with no winner and no points, and stops the bots', () => {
    const { state, events } = accepted(apply(s, leave('p1'), 1000));
    expect(events.map((e) => e.type)).toEqual(['playerLeft', 'gameEnded']);
    expect(state.status).toBe('finished');
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted' });
    expect(state.result?.ranking.map((r) => r.points)).toEqual([0, 0, 0]);
    expect(state.players.map((p) => p.nextBotActionAt)).toEqual([null, null, null]);
    expect(nextDeadline(state)).toBeNull();
    expect(advance(state, 100_000).state).toBe(state);
    expect(viewFor(state, null).winner).toBeNull();
  });

  it('aborts when the last human leaves even if only one bot remains', () => {
    const two = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [{ hand: 'B1Pe' }, { hand: 'R5Wi' }, { hand: 'Y5Pk', bot: 'easy' }],
    });
    const first = accepted(apply(two, leave('p1'), 1000)).state;
    expect(first.status).toBe('active');
    expect(accepted(apply(first, leave('p2'), 2000)).state.result).toMatchObject({ winnerId: null, reason: 'aborted' });
  });

  it('aborts when the only human forfeits by disconnecting', () => {
    const idle = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [{ hand: 'B1Pe' }, { hand: 'R5Wi', bot: 'hard' }, { hand: 'Y5Pk', bot: 'expert' }],
    });
    const off = accepted(apply(idle, disconnect('p1'), 500)).state;
    const { state } = advance(off, 500 + DISCONNECT_GRACE_MS);
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted', endedAt: 60_500 });
  });
});

describe('disconnect and reconnect', () => {
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [
      { hand: 'B1Pe', deck: 'R2Pe' },
      { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' },
    ],
  });
  const off = accepted(apply(s, disconnect('p1'), 1000));

  it('keeps the seat for 60 s', () => {
    expect(DISCONNECT_GRACE_MS).toBe(60_000);
    expect(off.events).toEqual([{ type: 'playerDisconnected', playerId: 'p1' }]);
    expect(viewFor(off.state, null).players[0]).toMatchObject({ isConnected: false, hasLeft: false });
    expect(nextDeadline(off.state)).toBe(61_000);
    const before = advance(off.state, 60_999);
    expect(before.events).toEqual([]);
    expect(before.state).toBe(off.state);
  });

  it('forfeits after 60 s away: the other player wins (the leaver had played 5 cards and 70 s)', () => {
    const played = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B1Pe', deck: 'R2Pe', cardsPlayed: EARLY_LEAVE_MIN_CARDS },
        { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' },
      ],
    });
    const { state, events } = advance(accepted(apply(played, disconnect('p1'), 70_000)).state, 130_000);
    expect(events.map((e) => e.type)).toEqual(['playerLeft', 'gameEnded']);
    expect(events[0]).toEqual({ type: 'playerLeft', playerId: 'p1', reason: 'disconnected' });
    expect(playerOf(state, 'p1').left).toEqual({ at: 130_000, wentAt: 70_000, reason: 'disconnected' });
    expect(state.result).toMatchObject({ winnerId: 'p2', reason: 'forfeit', endedAt: 130_000 });
  });

  it('keeps the seat when the player is back in time', () => {
    const back = accepted(apply(advance(off.state, 60_999).state, reconnect('p1'), 60_999));
    expect(back.events).toEqual([{ type: 'playerReconnected', playerId: 'p1' }]);
    expect(nextDeadline(back.state)).toBe(back.state.endsAt);
    const later = advance(back.state, 61_000);
    expect(later.events).toEqual([]);
    expect(later.state.status).toBe('active');
    expect(viewFor(later.state, null).players[0]?.isConnected).toBe(true);
    const played = accepted(
      apply(later.state, { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 }, 61_000),
    );
    expect(playerOf(played.state, 'p1').cardsPlayed).toBe(1);
  });

  it('restarts the 60 s on a new disconnect', () => {
    const back = accepted(apply(off.state, reconnect('p1'), 30_000)).state;
    const again = accepted(apply(back, disconnect('p1'), 50_000)).state;
    expect(nextDeadline(again)).toBe(110_000);
    expect(advance(again, 109_999).state.status).toBe('active');
    expect(advance(again, 110_000).state.status).toBe('finished');
  });

  it('treats a repeated disconnect or a reconnect while connected as a no-op', () => {
    const twice = accepted(apply(off.state, disconnect('p1'), 5000));
    expect(twice.state).toBe(off.state);
    expect(twice.events).toEqual([]);
    const connected = accepted(apply(s, reconnect('p2'), 5000));
    expect(connected.state).toBe(s);
    expect(connected.events).toEqual([]);
  });

  it('lets a disconnected player leave at once (2 s into play: an early walk-away, so aborted)', () => {
    const { state } = accepted(apply(off.state, leave('p1'), 2000));
    expect(state.result).toMatchObject({ winnerId: null, reason: 'aborted', endedAt: 2000 });
  });
});

describe('the 15-minute cap', () => {
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [
      { hand: 'B1Pe R1Pe', deck: 'R2Pe R3Pe' },
      { hand: 'R5Wi G4Pk', deck: 'Pu3Pc' },
      { hand: 'Y5Pk G1So', deck: 'O1Bo O2Bo O3Bo' },
    ],
    now: 5000,
  });

  it('ends the game at startedAt + 15 min, the ranking deciding the winner', () => {
    expect(s.endsAt).toBe(5000 + 900_000);
    expect(nextDeadline(s)).toBe(s.endsAt);
    expect(advance(s, s.endsAt - 1).state.status).toBe('active');
    const { state, events } = advance(s, s.endsAt);
    expect(events.map((e) => e.type)).toEqual(['gameEnded']);
    expect(state.result).toMatchObject({ reason: 'timeCap', winnerId: 'p2', endedAt: 905_000, durationMs: 900_000 });
    expect(state.result?.ranking.map((r) => [r.playerId, r.place, r.cardsLeft])).toEqual([
      ['p2', 1, 3],
      ['p1', 2, 4],
      ['p3', 3, 5],
    ]);
    expect(nextDeadline(state)).toBeNull();
  });

  it('refuses a command at the cap even before the state is advanced', () => {
    const r = refused(apply(s, { type: 'playCard', playerId: 'p2', cardId: 'R5Wi', pileIndex: 0 }, s.endsAt));
    expect(r.error.code).toBe('GAME_NOT_ACTIVE');
    expect(r.state).toBe(s);
    const justBefore = apply(s, { type: 'playCard', playerId: 'p2', cardId: 'R5Wi', pileIndex: 0 }, s.endsAt - 1);
    expect(playerOf(accepted(justBefore).state, 'p2').cardsPlayed).toBe(1);
  });

  it('refuses commands after the cap', () => {
    const done = advance(s, s.endsAt).state;
    expect(refused(apply(done, { type: 'checkDeadlock', playerId: 'p1' }, s.endsAt + 1)).error.code).toBe(
      'GAME_NOT_ACTIVE',
    );
  });
});
