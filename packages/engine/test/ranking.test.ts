import { describe, expect, it } from 'vitest';
import {
  type BotDifficulty,
  DIFFICULTY_POINTS_FACTOR,
  advance,
  apply,
  pointsFor,
  rankPlayers,
  strongestBot,
  strongestDifficulty,
} from '../src/index.ts';
import { type PlayerSpec, accepted, scenario } from './scenario.ts';

/** Ranks the given players at the 15-minute cap. */
function rankAtCap(players: PlayerSpec[], leavers: string[] = []) {
  let s = scenario({ piles: ['B5Bo', 'G4So'], players });
  leavers.forEach((id, n) => {
    s = accepted(apply(s, { type: 'leave', playerId: id }, 1000 + n)).state;
  });
  const { state } = advance(s, s.endsAt);
  if (!state.result) throw new Error('the game did not end');
  return state.result;
}

describe('final ranking', () => {
  const table: [rule: string, players: PlayerSpec[], order: string[], leavers?: string[]][] = [
    [
      'cardsLeft ascending',
      [
        { hand: 'R1Bo R2Bo R3Bo', deck: 'R4Bo R5Bo' },
        { hand: 'G1Bo G2Bo G3Bo' },
        { hand: 'Y1Bo Y2Bo Y3Bo', deck: 'Y4Bo' },
      ],
      ['p2', 'p3', 'p1'],
    ],
    [
      'equal cardsLeft: more cards played first',
      [
        { hand: 'R1Bo R2Bo R3Bo', cardsPlayed: 2 },
        { hand: 'G1Bo G2Bo G3Bo', cardsPlayed: 7 },
        { hand: 'Y1Bo Y2Bo Y3Bo', cardsPlayed: 5 },
      ],
      ['p2', 'p3', 'p1'],
    ],
    [
      'equal cardsLeft and cards played: join order',
      [
        { hand: 'R1Bo R2Bo', cardsPlayed: 3 },
        { hand: 'G1Bo G2Bo', cardsPlayed: 3 },
        { hand: 'Y1Bo Y2Bo', cardsPlayed: 3 },
      ],
      ['p1', 'p2', 'p3'],
    ],
    [
      'cardsLeft before cards played',
      [
        { hand: 'R1Bo R2Bo', deck: 'R3Bo', cardsPlayed: 20 },
        { hand: 'G1Bo G2Bo', cardsPlayed: 1 },
      ],
      ['p2', 'p1'],
    ],
    [
      'forfeited players last, whatever their cards',
      [{ hand: 'R1Bo' }, { hand: 'G1Bo G2Bo G3Bo', deck: 'G4Bo' }, { hand: 'Y1Bo Y2Bo' }, { hand: 'O1Bo O2Bo O3Bo' }],
      ['p3', 'p4', 'p2', 'p1'],
      ['p1'],
    ],
  ];
  for (const [rule, players, order, leavers] of table) {
    it(rule, () => {
      const result = rankAtCap(players, leavers);
      expect(result.ranking.map((r) => r.playerId)).toEqual(order);
      expect(result.ranking.map((r) => r.place)).toEqual(order.map((_, n) => n + 1));
      expect(result.winnerId).toBe(order[0]);
      expect(result.reason).toBe('timeCap');
    });
  }

  it('puts the winner of a race first even when others played more', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'G1Bo G2Bo', deck: 'G3Bo', cardsPlayed: 30 },
        { hand: 'B1Pe', cardsPlayed: 1 },
      ],
    });
    const { state } = accepted(apply(s, { type: 'playCard', playerId: 'p2', cardId: 'B1Pe', pileIndex: 0 }, 10));
    expect(state.result?.ranking.map((r) => [r.playerId, r.cardsLeft, r.cardsPlayed])).toEqual([
      ['p2', 0, 2],
      ['p1', 3, 30],
    ]);
  });
});

describe('points', () => {
  const table: [cardsPlayed: number, winner: boolean, opponents: number, bot: BotDifficulty | null, points: number][] =
    [
      [10, false, 3, null, 20],
      [10, true, 3, null, 170],
      [0, true, 1, null, 50],
      [7, true, 1, 'easy', 16], // (14 + 50) × 0.25
      [7, true, 1, 'normal', 32],
      [7, true, 1, 'hard', 48],
      [7, true, 1, 'expert', 64],
      [3, false, 2, 'hard', 4], // 6 × 0.75 = 4.5, floored
      [5, false, 5, 'easy', 2], // 10 × 0.25 = 2.5, floored
    ];
  for (const [cardsPlayed, winner, opponents, bot, points] of table) {
    it(`${cardsPlayed} played, ${winner ? 'winner' : 'not winner'}, ${opponents} opponents, ${bot ?? 'no'} bot: ${points}`, () => {
      expect(pointsFor(cardsPlayed, winner, opponents, bot)).toBe(points);
    });
  }

  it('uses the factors easy 0.25, normal 0.5, hard 0.75, expert 1.0', () => {
    expect(DIFFICULTY_POINTS_FACTOR).toEqual({ easy: 0.25, normal: 0.5, hard: 0.75, expert: 1.0 });
  });

  it('takes the strongest bot of the game', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Bo' },
        { hand: 'G1Bo', bot: 'easy' },
        { hand: 'Y1Bo', bot: 'hard' },
        { hand: 'O1Bo', bot: 'normal' },
      ],
    });
    expect(strongestBot(s.players)).toBe('hard');
    expect(strongestBot(s.players.slice(0, 1))).toBeNull();
  });

  it('takes the strongest of a list of difficulties, people (null) skipped', () => {
    expect(strongestDifficulty(['normal', null, 'expert', 'easy'])).toBe('expert');
    expect(strongestDifficulty(['easy', 'easy'])).toBe('easy');
    expect(strongestDifficulty([null])).toBeNull();
    expect(strongestDifficulty([])).toBeNull();
  });

  it('scores a finished game: 2 per card played, 50 per opponent for the winner, times the bot factor', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B1Pe', cardsPlayed: 3 },
        { hand: 'G1Bo G2Bo', cardsPlayed: 5, bot: 'easy' },
        { hand: 'Y1Bo', deck: 'Y2Bo', cardsPlayed: 9, bot: 'hard' },
      ],
    });
    const { state } = accepted(apply(s, { type: 'playCard', playerId: 'p1', cardId: 'B1Pe', pileIndex: 0 }, 10));
    expect(state.result?.ranking.map((r) => [r.playerId, r.points])).toEqual([
      ['p1', Math.floor((2 * 4 + 50 * 2) * 0.75)],
      ['p3', Math.floor(2 * 9 * 0.75)],
      ['p2', Math.floor(2 * 5 * 0.75)],
    ]);
  });

  it('scores a game without bots at full value', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'G1Bo G2Bo', cardsPlayed: 5 },
        { hand: 'B1Pe', cardsPlayed: 11 },
      ],
    });
    const { state } = accepted(apply(s, { type: 'playCard', playerId: 'p2', cardId: 'B1Pe', pileIndex: 0 }, 10));
    expect(state.result?.ranking.map((r) => r.points)).toEqual([2 * 12 + 50, 2 * 5]);
  });

  it('gives no points for an aborted game', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'G1Bo', cardsPlayed: 5 },
        { hand: 'B1Pe', cardsPlayed: 11, bot: 'expert' },
      ],
    });
    const ranking = rankPlayers(s.players, null, 'aborted');
    expect(ranking.map((r) => r.points)).toEqual([0, 0]);
    expect(rankPlayers(s.players, null, 'timeCap').map((r) => [r.playerId, r.points])).toEqual([
      ['p2', 22],
      ['p1', 10],
    ]);
  });
});

describe('points after a forfeit', () => {
  it('gives the player left in the game the winner’s 50 per opponent, and the leaver 2 per card played', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'G1Bo G2Bo', cardsPlayed: 4 },
        { hand: 'B1Pe', cardsPlayed: 9 },
      ],
    });
    // p2 contested the game (60 s of play, 9 cards) before leaving (docs/fair-play.md).
    const { state } = accepted(apply(s, { type: 'leave', playerId: 'p2' }, 60_000));
    expect(state.result?.reason).toBe('forfeit');
    expect(state.result?.ranking.map((r) => [r.playerId, r.points, r.forfeited])).toEqual([
      ['p1', 2 * 4 + 50, false],
      ['p2', 2 * 9, true],
    ]);
  });
});
