/** The result screen's numbers: outcome, game summary, final ranking, Human vs AI. */
import { describe, expect, it } from 'vitest';
import {
  type PlayerResult,
  endLine,
  finalRanking,
  gameSummary,
  humanVsAi,
  ordinal,
  outcomeOf,
} from '../src/game/result/summary.ts';
import type { GameEnded } from '../src/game/state.ts';

function result(
  playerId: string,
  cardsLeft: number,
  cardsPlayed: number,
  over: Partial<PlayerResult> = {},
): PlayerResult {
  return {
    playerId,
    username: playerId,
    isBot: false,
    botDifficulty: null,
    place: 1,
    cardsLeft,
    cardsPlayed,
    powerUpsUsed: 0,
    forfeited: false,
    points: 2 * cardsPlayed,
    ...over,
  };
}

const bot = { isBot: true, botDifficulty: 'hard' as const };
const results = [
  result('bot-1', 4, 26, { ...bot, place: 2 }),
  result('me', 0, 30, { place: 1 }),
  result('bot-2', 9, 21, { ...bot, place: 3 }),
];

function ended(over: Partial<GameEnded> = {}): GameEnded {
  return {
    gameId: 'g1',
    winner: { userId: 'me', username: 'me', isBot: false, botDifficulty: null },
    duration: 125,
    durationMs: 125_400,
    results,
    seed: '0'.repeat(32),
    reason: 'win',
    ...over,
  } as GameEnded;
}

const counters = { cardsPlayed: 30, humanMoves: 31, botMoves: 49 };

describe('outcomeOf', () => {
  it.each([
    ['me', false, 'victory'],
    ['bot-1', true, 'aiVictory'],
    ['other', false, 'gameOver'],
  ] as const)('winner %s (bot %s) → %s', (userId, isBot, outcome) => {
    const winner = { userId, username: userId, isBot, botDifficulty: null };
    expect(outcomeOf({ winner }, 'me')).toBe(outcome);
  });

  it('has no winner in an aborted game', () => {
    const game = ended({ winner: null, reason: 'aborted' });
    expect(outcomeOf(game, 'me')).toBe('noWinner');
    expect(endLine(game, 'noWinner')).toBe('The game was ended before anyone won.');
  });
});

describe('gameSummary', () => {
  it('gives time as m:ss, cards per second with 2 decimals and the place', () => {
    expect(gameSummary(ended(), 'me')).toMatchObject({
      time: '2:05',
      cardsPlayed: 30,
      cardsPerSecond: '0.24',
      place: '1st of 3',
    });
  });

  it('places by cards left for a spectator as a dash', () => {
    expect(gameSummary(ended(), 'bot-2').place).toBe('3rd of 3');
    expect(gameSummary(ended(), null).place).toBe('—');
  });

  it("counts everyone's cards for a spectator, whose own counters are empty", () => {
    expect(gameSummary(ended(), null)).toMatchObject({ cardsPlayed: 77, cardsPerSecond: '0.61', place: '—' });
  });

  it('rounds the time down from the exact duration, as the replay does, whatever the rounded seconds say', () => {
    // 61.6 s: the server's whole seconds round it to 62; the result and the replay both read 1:01.
    expect(gameSummary(ended({ duration: 62, durationMs: 61_600 }), 'me').time).toBe('1:01');
    expect(gameSummary(ended({ duration: 60, durationMs: 59_999 }), 'me').time).toBe('0:59');
  });

  it('does not divide by zero', () => {
    expect(gameSummary(ended({ durationMs: 0 }), 'me').cardsPerSecond).toBe('0.00');
  });
});

describe('finalRanking', () => {
  it('sorts by cards left ascending, place settling ties', () => {
    const tied = [result('b', 5, 3, { place: 3 }), result('a', 5, 4, { place: 2 }), result('c', 1, 9, { place: 1 })];
    expect(finalRanking(tied).map((r) => r.playerId)).toEqual(['c', 'a', 'b']);
    expect(finalRanking(results).map((r) => r.playerId)).toEqual(['me', 'bot-1', 'bot-2']);
  });

  it("keeps the server's places: who left comes after everyone still in, even with fewer cards left", () => {
    const left = [
      result('stayed', 6, 20, { place: 2 }),
      result('left', 2, 25, { place: 3, forfeited: true }),
      result('won', 0, 30, { place: 1 }),
    ];
    expect(finalRanking(left).map((r) => r.playerId)).toEqual(['won', 'stayed', 'left']);
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
    ]);
  });
});

describe('humanVsAi', () => {
  it('counts sides, moves per second, score and the move split from the counters', () => {
    expect(humanVsAi(results, counters, 125_400)).toEqual({
      humans: 1,
      bots: 2,
      movesPerSecond: '0.64',
      score: '30:47',
      humanShare: 39,
      botShare: 61,
    });
  });

  it('falls back to the results when the counters missed moves (a rejoin)', () => {
    const split = humanVsAi(results, { cardsPlayed: 2, humanMoves: 2, botMoves: 3 }, 10_000);
    expect(split).toMatchObject({ humanShare: 39, botShare: 61, movesPerSecond: '7.70' });
  });

  it('is all zeros before any move', () => {
    const none = [result('me', 20, 0), result('b', 20, 0, bot)];
    expect(humanVsAi(none, { cardsPlayed: 0, humanMoves: 0, botMoves: 0 }, 0)).toMatchObject({
      humanShare: 0,
      botShare: 0,
      movesPerSecond: '0.00',
      score: '0:0',
    });
  });
});
