import { describe, expect, it } from 'vitest';
import {
  COUNTED_GAMES_PER_OPPONENT,
  OPPONENT_MIN_ACCOUNT_AGE_MS,
  PRIZE_SPLIT_PERCENTAGES,
  TOURNAMENT_TEXTS,
  UNCOUNTED_REASONS,
  fairPlayRulesText,
  clampWinnersCount,
  createTournamentSchema,
  formatTimeRemaining,
  tournamentRulesText,
  parseWith,
  prizeDistributionFor,
  prizeDistributionMatches,
  prizeSplitPercentages,
  tournamentLeaderboardEntrySchema,
  tournamentSchema,
} from '../src/index.ts';
import { ISO } from './fixtures.ts';

/** The admin form's payload as a client sends it: flat fields and the nested copies. */
const FORM = {
  name: 'Summer Slam',
  description: 'Two weeks of memes',
  startDate: '2025-07-01T10:00:00.000Z',
  endDate: '2025-07-15T10:00:00.000Z',
  currency: 'SLAM',
  totalAmount: 1000,
  winnersCount: 3,
  prizeDistribution: [
    { position: 1, amount: 500 },
    { position: 2, amount: 300 },
    { position: 3, amount: 200 },
  ],
  maxParticipants: null,
  minGamesRequired: 5,
  scoringMethod: 'totalPoints',
  allowBots: false,
  requireVerifiedSolana: false,
  isFeatured: true,
  prizePool: {
    totalAmount: 1000,
    currency: 'SLAM',
    distribution: [
      { position: 1, amount: 500 },
      { position: 2, amount: 300 },
      { position: 3, amount: 200 },
    ],
    winnersCount: 3,
  },
  settings: {
    maxParticipants: null,
    minGamesRequired: 5,
    scoringMethod: 'totalPoints',
    allowBots: false,
    requireVerifiedSolana: false,
  },
};

const { prizePool: _pool, settings: _settings, ...FLAT } = FORM;
const { prizeDistribution: _d, totalAmount: _t, currency: _c, winnersCount: _w, ...NAMED } = FLAT;
const {
  maxParticipants: _m,
  minGamesRequired: _g,
  scoringMethod: _s,
  allowBots: _b,
  requireVerifiedSolana: _r,
  ...BARE
} = NAMED;
const NESTED = { ...BARE, prizePool: FORM.prizePool, settings: FORM.settings };

const messages = (input: unknown) => {
  const result = parseWith(createTournamentSchema, input);
  return result.success ? [] : result.errors.map((e) => e.message);
};

describe('tournament creation', () => {
  it('accepts both shapes, alone or together, into one draft', () => {
    const both = createTournamentSchema.parse(FORM);
    expect(createTournamentSchema.parse(FLAT)).toEqual(both);
    expect(createTournamentSchema.parse(NESTED)).toEqual(both);
    expect(both).toEqual({
      name: 'Summer Slam',
      description: 'Two weeks of memes',
      startDate: '2025-07-01T10:00:00.000Z',
      endDate: '2025-07-15T10:00:00.000Z',
      prizePool: { totalAmount: 1000, currency: 'SLAM', winnersCount: 3, distribution: FORM.prizeDistribution },
      settings: FORM.settings,
      isFeatured: true,
    });
  });

  it('gives the form texts exactly', () => {
    expect(messages({})).toEqual([
      'Tournament name is required',
      'Start date is required',
      'End date is required',
      'Prize pool amount is required and must be positive',
    ]);
    expect(messages({ ...FLAT, name: '   ' })).toEqual(['Tournament name is required']);
    expect(messages({ ...FLAT, endDate: FLAT.startDate })).toEqual(['End date must be after start date']);
    expect(messages({ ...FLAT, endDate: '2025-06-30T10:00:00.000Z' })).toEqual(['End date must be after start date']);
    expect(messages({ ...FLAT, totalAmount: 0, prizeDistribution: undefined })).toEqual([
      'Prize pool amount is required and must be positive',
    ]);
    expect(messages({ ...FLAT, totalAmount: -5, prizeDistribution: undefined })).toEqual([
      'Prize pool amount is required and must be positive',
    ]);
    expect(messages({ ...FLAT, totalAmount: 'lots' })).toContain('Prize pool amount is required and must be positive');
  });

  it('checks the prize sum within a tolerance of 1', () => {
    const with3 = (a: number, b: number, c: number) => ({
      ...FLAT,
      prizeDistribution: [
        { position: 1, amount: a },
        { position: 2, amount: b },
        { position: 3, amount: c },
      ],
    });
    expect(messages(with3(500, 300, 201))).toEqual([]);
    expect(messages(with3(500, 300, 199))).toEqual([]);
    expect(messages(with3(500.5, 300.49, 200))).toEqual([]);
    expect(messages(with3(500, 300, 202))).toEqual(['Prize distribution must equal total amount']);
    expect(messages(with3(400, 300, 200))).toEqual([TOURNAMENT_TEXTS.prizeDistributionMismatch]);
    expect(prizeDistributionMatches(100, [{ position: 1, amount: 101 }])).toBe(true);
    expect(prizeDistributionMatches(100, [{ position: 1, amount: 101.01 }])).toBe(false);
  });

  it('clamps the winners count to 1–10 and computes the split when none is sent', () => {
    const draft = (winnersCount: unknown) =>
      createTournamentSchema.parse({ ...FLAT, prizeDistribution: undefined, winnersCount }).prizePool;
    expect(draft(0).winnersCount).toBe(1);
    expect(draft(0).distribution).toEqual([{ position: 1, amount: 1000 }]);
    expect(draft(25).winnersCount).toBe(10);
    expect(draft(25).distribution).toHaveLength(10);
    expect(draft('4').distribution.map((p) => p.amount)).toEqual([400, 250, 200, 150]);
    expect(draft(undefined).winnersCount).toBe(3);
  });

  it('needs a distribution with one amount per winner', () => {
    expect(messages({ ...FLAT, winnersCount: 2 })).toEqual([TOURNAMENT_TEXTS.prizeDistributionLength]);
  });

  it('applies the settings rules: min games ≥ 1, max participants null = unlimited', () => {
    expect(messages({ ...FLAT, minGamesRequired: 0 })).toEqual(['Min games required must be at least 1']);
    expect(createTournamentSchema.parse({ ...FLAT, maxParticipants: '' }).settings.maxParticipants).toBeNull();
    expect(createTournamentSchema.parse({ ...FLAT, maxParticipants: '64' }).settings.maxParticipants).toBe(64);
    expect(messages({ ...FLAT, maxParticipants: 2.5 })).toEqual([TOURNAMENT_TEXTS.maxParticipants]);
    const defaults = createTournamentSchema.parse({ ...BARE, totalAmount: 100 });
    expect(defaults.settings).toEqual({
      maxParticipants: null,
      minGamesRequired: 5,
      scoringMethod: 'totalPoints',
      allowBots: false,
      requireVerifiedSolana: false,
    });
    expect(defaults.prizePool.currency).toBe('SLAM');
  });

  it('accepts only the four scoring methods and the two currencies', () => {
    for (const scoringMethod of ['totalPoints', 'winRate', 'averageTime', 'gamesWon']) {
      expect(messages({ ...FLAT, scoringMethod }), scoringMethod).toEqual([]);
    }
    expect(messages({ ...FLAT, scoringMethod: 'luck' })).not.toEqual([]);
    expect(messages({ ...FLAT, currency: 'SOL', prizePool: undefined })).toEqual([]);
    expect(messages({ ...FLAT, currency: 'BTC' })).not.toEqual([]);
  });

  it('reads a form date without an offset as UTC', () => {
    const draft = createTournamentSchema.parse({ ...FLAT, startDate: '2025-07-01T10:00', endDate: '2025-07-02T10:00' });
    expect(draft.startDate).toBe('2025-07-01T10:00:00.000Z');
    expect(messages({ ...FLAT, startDate: 'next tuesday' })).toEqual([TOURNAMENT_TEXTS.invalidDate]);
  });

  it('is strict and refuses flat and nested fields that disagree', () => {
    expect(messages({ ...FORM, prizes: [] })).toEqual(['Unknown field: prizes']);
    expect(messages({ ...FORM, settings: { ...FORM.settings, bonus: 1 } })).toEqual(['Unknown field: bonus']);
    expect(messages({ ...FORM, totalAmount: 2000 })).toContain(TOURNAMENT_TEXTS.conflictingFields);
  });
});

describe('prize split', () => {
  it('follows the fixed table for 1–6 winners', () => {
    expect(PRIZE_SPLIT_PERCENTAGES).toEqual({
      1: [100],
      2: [60, 40],
      3: [50, 30, 20],
      4: [40, 25, 20, 15],
      5: [35, 25, 20, 12, 8],
      6: [30, 22, 18, 12, 10, 8],
    });
    for (let n = 1; n <= 6; n += 1) {
      expect(prizeSplitPercentages(n).reduce((a, b) => a + b, 0)).toBe(100);
    }
  });

  it('above 6 starts from the 3-winner split, later places half its last share, scaled to 100', () => {
    const seven = prizeSplitPercentages(7);
    expect(seven).toHaveLength(7);
    expect(seven[0]! / seven[1]!).toBeCloseTo(50 / 30);
    expect(seven[3]! / seven[2]!).toBeCloseTo(0.5);
    expect(seven[6]).toBeCloseTo(seven[3]!);
    expect(seven.reduce((a, b) => a + b, 0)).toBeCloseTo(100);
  });

  it('floors amounts and always satisfies the sum rule', () => {
    expect(prizeDistributionFor(1000, 6).map((p) => p.amount)).toEqual([300, 220, 180, 120, 100, 80]);
    for (const total of [1, 7, 99.99, 101, 1234.56, 10_000]) {
      for (let n = 1; n <= 10; n += 1) {
        const distribution = prizeDistributionFor(total, n);
        expect(distribution.every((p) => Number.isInteger(p.amount))).toBe(true);
        expect(prizeDistributionMatches(total, distribution), `${total} / ${n}`).toBe(true);
      }
    }
  });

  it('clamps winners', () => {
    expect([-3, 0, 1, 4.4, 10, 11, Number.NaN].map(clampWinnersCount)).toEqual([1, 1, 1, 4, 10, 10, 3]);
  });
});

describe('tournament views', () => {
  it('reads a tournament and a live leaderboard entry', () => {
    const tournament = {
      id: 't-1',
      name: 'Summer Slam',
      description: '',
      status: 'active',
      startDate: ISO,
      endDate: ISO,
      timeRemaining: 86_400_000,
      startsIn: 0,
      participantCount: 12,
      prizePool: { totalAmount: 1000, currency: 'SLAM', winnersCount: 3, distribution: FORM.prizeDistribution },
      settings: FORM.settings,
      isFeatured: true,
      isJoined: false,
      createdAt: ISO,
    };
    expect(tournamentSchema.safeParse(tournament).success).toBe(true);
    expect(tournamentSchema.safeParse({ ...tournament, status: 'live' }).success).toBe(false);
    const entry = {
      userId: 'u-alice',
      position: 1,
      username: 'alice',
      tournamentValue: 840,
      improvement: { gamesPlayed: 9, gamesWon: 4 },
      isPrizeWinner: true,
      prizeAmount: 500,
    };
    expect(tournamentLeaderboardEntrySchema.safeParse(entry).success).toBe(true);
    expect(tournamentLeaderboardEntrySchema.safeParse({ ...entry, position: 0 }).success).toBe(false);
  });

  it('formats time remaining as the banner does', () => {
    expect(formatTimeRemaining(0)).toBe('Ended');
    expect(formatTimeRemaining((2 * 24 + 5) * 3_600_000 + 120_000)).toBe('2d 5h');
    expect(formatTimeRemaining(3 * 3_600_000 + 12 * 60_000)).toBe('3h 12m');
    expect(formatTimeRemaining(59 * 60_000 + 59_000)).toBe('59m');
    // The last minute in seconds, never "0m".
    expect(formatTimeRemaining(60_000)).toBe('1m');
    expect(formatTimeRemaining(59_999)).toBe('60s');
    expect(formatTimeRemaining(42_100)).toBe('43s');
    expect(formatTimeRemaining(1)).toBe('1s');
  });
});

describe('tournamentRulesText', () => {
  it('says which games count before any is played: the window, the minimum length, bots, and the games to rank', () => {
    expect(tournamentRulesText({ allowBots: false, minGamesRequired: 5 })).toBe(
      'Counts: games that end between the start and the end and last at least 30 s, people only (bot games do not count). Ranked after 5 counted games.',
    );
    expect(tournamentRulesText({ allowBots: true, minGamesRequired: 1 })).toBe(
      'Counts: games that end between the start and the end and last at least 30 s, bot games included. Ranked after 1 counted game.',
    );
  });
});

describe('fairPlayRulesText (docs/fair-play.md)', () => {
  it('says what does not count before any game is played, with the shared numbers; people-only adds the e-mail', () => {
    expect(fairPlayRulesText({ allowBots: false })).toEqual([
      "Games against guests, accounts under a day old or players on your network don't count.",
      'At most 3 counted games against the same opponent.',
      'A game abandoned in its first 60 s or before 5 cards is aborted: no winner, no points.',
      'People only: joining needs a verified e-mail address.',
    ]);
    expect(fairPlayRulesText({ allowBots: true })).toHaveLength(3);
    expect(COUNTED_GAMES_PER_OPPONENT).toBe(3);
    expect(OPPONENT_MIN_ACCOUNT_AGE_MS).toBe(86_400_000);
  });

  it('has a text for every reason a game does not count', () => {
    for (const reason of UNCOUNTED_REASONS) expect(TOURNAMENT_TEXTS.uncounted[reason].length).toBeGreaterThan(10);
    expect(TOURNAMENT_TEXTS.uncounted.aborted).toContain('first 60 s or before 5 cards');
    expect(TOURNAMENT_TEXTS.uncounted.pairLimit).toContain('only the first 3 count');
  });
});
