/**
 * The dashboard's bot game settings (the bot game dialog and its create-bot-game payload), Quick Start, and
 * the bot-game performance record. The expected numbers are written out here, not read from the code.
 */
import {
  DASHBOARD_BOT_DIFFICULTIES,
  DASHBOARD_GAME_SPEEDS,
  createBotGameSchema,
  quickStartSettings,
} from '@memeslam/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOT_COUNT_OPTIONS,
  BOT_DIALOG_DIFFICULTIES,
  MAX_PLAYERS_OPTIONS,
  difficultyHint,
  difficultyOptionLabel,
  initialBotDialogSettings,
  maxPlayersAllowed,
  withBots,
} from '../src/dashboard/botDialogSettings.ts';
import {
  type BotRecord,
  EMPTY_BOT_RECORD,
  loadBotRecord,
  mergeBotGames,
  saveBotRecord,
  showsBotPerformance,
  winRateVsBots,
} from '../src/dashboard/botRecord.ts';

// The expected values.
const SPEC_BOTS = [1, 2, 3, 4, 5];
const SPEC_DEFAULT_BOTS = 2;
const SPEC_MAX_PLAYERS = [2, 3, 4, 5, 6];
const SPEC_DEFAULT_MAX_PLAYERS = 4;
const SPEC_DIFFICULTIES = ['easy', 'normal', 'hard'];
const SPEC_SPEEDS = ['slow', 'normal', 'fast', 'blitz'];
const SPEC_QUICK_START = { easy: 1, normal: 2, hard: 3 } as const;
const SPEC_BOT_GAME_CARDS = 30;

describe('bot game dialog options and defaults', () => {
  it('offers 1 to 5 bots and 2 to 6 max players', () => {
    expect(BOT_COUNT_OPTIONS).toEqual(SPEC_BOTS);
    expect(MAX_PLAYERS_OPTIONS).toEqual(SPEC_MAX_PLAYERS);
  });

  it('offers difficulties easy, normal, hard and speeds slow, normal, fast, blitz', () => {
    expect([...DASHBOARD_BOT_DIFFICULTIES]).toEqual(SPEC_DIFFICULTIES);
    expect([...DASHBOARD_GAME_SPEEDS]).toEqual(SPEC_SPEEDS);
  });

  it('opens with 2 bots, 4 max players, speed normal, auto-start on, 30 cards', () => {
    expect(initialBotDialogSettings).toMatchObject({
      numberOfBots: SPEC_DEFAULT_BOTS,
      maxPlayers: SPEC_DEFAULT_MAX_PLAYERS,
      gameSpeed: 'normal',
      autoStart: true,
      cardsPerPlayer: SPEC_BOT_GAME_CARDS,
    });
    expect(SPEC_DIFFICULTIES).toContain(initialBotDialogSettings.botDifficulty);
    expect(maxPlayersAllowed(initialBotDialogSettings.maxPlayers, initialBotDialogSettings.numberOfBots)).toBe(true);
  });
});

describe('max players must be greater than the number of bots', () => {
  it.each(SPEC_BOTS)('with %i bots, exactly the options above the bot count are enabled', (bots) => {
    const enabled = SPEC_MAX_PLAYERS.filter((n) => maxPlayersAllowed(n, bots));
    expect(enabled).toEqual(SPEC_MAX_PLAYERS.filter((n) => n > bots));
    expect(enabled.length).toBeGreaterThan(0);
  });

  it('a selection made invalid by more bots moves up to bots + 1', () => {
    const start = initialBotDialogSettings; // 2 bots, 4 seats
    expect(withBots(start, 4).maxPlayers).toBe(5);
    expect(withBots(start, 5).maxPlayers).toBe(6);
    expect(withBots({ ...start, numberOfBots: 1, maxPlayers: 2 }, 2).maxPlayers).toBe(3);
    // Equal to the bot count is invalid too ("not greater than").
    expect(withBots({ ...start, maxPlayers: 3 }, 3).maxPlayers).toBe(4);
  });

  it('a selection that stays valid is kept', () => {
    const start = initialBotDialogSettings;
    expect(withBots(start, 1).maxPlayers).toBe(4);
    expect(withBots(start, 3).maxPlayers).toBe(4);
    expect(withBots({ ...start, maxPlayers: 6 }, 5).maxPlayers).toBe(6);
  });

  it('changing the bot count touches nothing else', () => {
    const start = {
      ...initialBotDialogSettings,
      botDifficulty: 'hard' as const,
      gameSpeed: 'blitz' as const,
      autoStart: false,
    };
    expect(withBots(start, 5)).toEqual({ ...start, numberOfBots: 5, maxPlayers: 6 });
  });

  it('every reachable setting is a valid create-bot-game payload', () => {
    for (const from of SPEC_MAX_PLAYERS) {
      for (const bots of SPEC_BOTS) {
        for (const speed of SPEC_SPEEDS) {
          const settings = withBots(
            {
              ...initialBotDialogSettings,
              maxPlayers: from,
              gameSpeed: speed as (typeof DASHBOARD_GAME_SPEEDS)[number],
            },
            bots,
          );
          expect(settings.maxPlayers).toBeGreaterThan(bots);
          expect(SPEC_MAX_PLAYERS).toContain(settings.maxPlayers);
          expect(createBotGameSchema.safeParse(settings).success).toBe(true);
        }
      }
    }
  });
});

describe('Quick Start: easy 1 bot, normal 2, hard 3; max players = bots + 1', () => {
  it.each(Object.entries(SPEC_QUICK_START))('%s → %i bots', (difficulty, bots) => {
    const settings = quickStartSettings(difficulty as keyof typeof SPEC_QUICK_START);
    expect(settings.numberOfBots).toBe(bots);
    expect(settings.maxPlayers).toBe(bots + 1);
    expect(settings.botDifficulty).toBe(difficulty);
    expect(settings.cardsPerPlayer).toBe(SPEC_BOT_GAME_CARDS);
    expect(settings.autoStart).toBe(true);
    const parsed = createBotGameSchema.safeParse(settings);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.bots).toMatchObject({ numberOfBots: bots, difficulty });
    expect(parsed.data?.maxPlayers).toBe(bots + 1);
  });
});

// ── Your Bot Game Performance ────────────────────────────────────────────────

type Recent = Parameters<typeof mergeBotGames>[1][number];
const botGame = (gameId: string, outcome: 'human' | 'bot' | 'other' | 'none'): Recent => ({
  gameId,
  isBotGame: true,
  won: outcome === 'human',
  gameState: {
    winner: outcome === 'none' ? null : { isBot: outcome === 'bot' },
  },
});
const humanGame = (gameId: string, won: boolean): Recent => ({
  gameId,
  isBotGame: false,
  won,
  gameState: { winner: { isBot: false } },
});

describe('bot-game performance record: each finished bot game counted once', () => {
  it('counts only bot games, into total, human wins and bot wins', () => {
    const record = mergeBotGames(EMPTY_BOT_RECORD, [
      botGame('b1', 'human'),
      botGame('b2', 'bot'),
      botGame('b3', 'bot'),
      humanGame('h1', true),
      humanGame('h2', false),
    ]);
    expect(record).toMatchObject({ totalBotGames: 3, humanWins: 1, botWins: 2 });
    expect(record.counted).toEqual(['b1', 'b2', 'b3']);
  });

  it('a bot game won by another person is counted, but as neither a human nor a bot win for the user', () => {
    const record = mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'other')]);
    expect(record).toMatchObject({ totalBotGames: 1, humanWins: 0, botWins: 0 });
  });

  it('a bot game with no winner counts towards the total only', () => {
    const record = mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'none')]);
    expect(record).toMatchObject({ totalBotGames: 1, humanWins: 0, botWins: 0 });
  });

  it('seeing the same games again counts nothing (same record back)', () => {
    const recent = [botGame('b1', 'human'), botGame('b2', 'bot')];
    const once = mergeBotGames(EMPTY_BOT_RECORD, recent);
    expect(mergeBotGames(once, recent)).toBe(once);
    expect(mergeBotGames(once, [...recent].reverse())).toBe(once);
  });

  it('a game listed twice in one answer is still counted once', () => {
    const record = mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'human'), botGame('b1', 'human')]);
    expect(record).toMatchObject({ totalBotGames: 1, humanWins: 1 });
  });

  it('a sliding window of recent games adds only the new ones', () => {
    let record = mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'human'), botGame('b2', 'bot')]);
    record = mergeBotGames(record, [botGame('b2', 'bot'), botGame('b3', 'human')]);
    expect(record).toMatchObject({ totalBotGames: 3, humanWins: 2, botWins: 1, counted: ['b1', 'b2', 'b3'] });
  });

  it('the record outlives the server window: counts keep growing, ids stay bounded', () => {
    let record: BotRecord = EMPTY_BOT_RECORD;
    for (let i = 0; i < 300; i += 1) record = mergeBotGames(record, [botGame(`g${i}`, i % 2 ? 'bot' : 'human')]);
    expect(record).toMatchObject({ totalBotGames: 300, humanWins: 150, botWins: 150 });
    expect(record.counted.length).toBeLessThan(300);
    expect(record.counted.at(-1)).toBe('g299');
    // The latest 20 (the server's recent window) are never counted again.
    const lastTwenty = Array.from({ length: 20 }, (_, k) => botGame(`g${280 + k}`, 'human'));
    expect(mergeBotGames(record, lastTwenty)).toBe(record);
  });

  it('win rate vs bots is rounded to a whole percent of decided games', () => {
    expect(winRateVsBots({ humanWins: 1, botWins: 2 })).toBe(33);
    expect(winRateVsBots({ humanWins: 2, botWins: 1 })).toBe(67);
    expect(winRateVsBots({ humanWins: 1, botWins: 0 })).toBe(100);
    expect(winRateVsBots({ humanWins: 0, botWins: 0 })).toBe(0);
  });

  it('the performance panel shows only when either win count is above 0', () => {
    expect(showsBotPerformance({ humanWins: 0, botWins: 0 })).toBe(false);
    expect(showsBotPerformance({ humanWins: 1, botWins: 0 })).toBe(true);
    expect(showsBotPerformance({ humanWins: 0, botWins: 1 })).toBe(true);
    // Bot games with no decided winner alone do not show it.
    expect(showsBotPerformance(mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'none')]))).toBe(false);
  });
});

describe('bot record persistence (per account, in browser storage)', () => {
  let store: Map<string, string>;
  beforeEach(() => {
    store = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('round-trips per user, and users do not share a record', () => {
    const record = mergeBotGames(EMPTY_BOT_RECORD, [botGame('b1', 'human'), botGame('b2', 'bot')]);
    saveBotRecord('u1', record);
    expect(loadBotRecord('u1')).toEqual(record);
    expect(loadBotRecord('u2')).toEqual(EMPTY_BOT_RECORD);
  });

  it('a reload does not count the same games again', () => {
    const recent = [botGame('b1', 'human'), botGame('b2', 'bot')];
    saveBotRecord('u1', mergeBotGames(loadBotRecord('u1'), recent));
    const again = mergeBotGames(loadBotRecord('u1'), recent);
    expect(again).toMatchObject({ totalBotGames: 2, humanWins: 1, botWins: 1 });
  });

  it('unreadable or invalid stored data gives an empty record', () => {
    const key = [...(saveBotRecord('u1', EMPTY_BOT_RECORD), store.keys())][0]!;
    for (const bad of [
      'not json',
      'null',
      '{}',
      '{"totalBotGames":-1,"humanWins":0,"botWins":0}',
      '{"totalBotGames":1.5,"humanWins":0,"botWins":0}',
    ]) {
      store.set(key, bad);
      expect(loadBotRecord('u1')).toEqual(EMPTY_BOT_RECORD);
    }
  });

  it('keeps only string ids of a stored record', () => {
    const key = [...(saveBotRecord('u1', EMPTY_BOT_RECORD), store.keys())][0]!;
    store.set(key, JSON.stringify({ totalBotGames: 2, humanWins: 1, botWins: 1, counted: ['a', 3, null, 'b'] }));
    expect(loadBotRecord('u1')).toEqual({ totalBotGames: 2, humanWins: 1, botWins: 1, counted: ['a', 'b'] });
  });

  it('storage that throws is survived', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    });
    expect(() => saveBotRecord('u1', EMPTY_BOT_RECORD)).not.toThrow();
    expect(loadBotRecord('u1')).toEqual(EMPTY_BOT_RECORD);
  });
});

describe('"Match me" in the bot dialog and Quick Start', () => {
  it('offers three difficulties in the dialog, with its one-line explanation', () => {
    expect(BOT_DIALOG_DIFFICULTIES).toEqual([...SPEC_DIFFICULTIES, 'match']);
    expect(BOT_DIALOG_DIFFICULTIES.map(difficultyOptionLabel)).toEqual(['Easy', 'Normal', 'Hard', 'Match me']);
    expect(difficultyHint('match')).toBe('A bot paced from your own recent games, for an even match.');
    expect(difficultyHint('hard')).toBeUndefined();
  });

  it("is sent as the dialog's settings and accepted by the server's schema", () => {
    const parsed = createBotGameSchema.safeParse({ ...initialBotDialogSettings, botDifficulty: 'match' });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.bots).toMatchObject({ numberOfBots: SPEC_DEFAULT_BOTS, difficulty: 'match' });
  });

  it('Quick Start "Match me": one bot, two seats', () => {
    const settings = quickStartSettings('match');
    expect(settings).toMatchObject({ numberOfBots: 1, maxPlayers: 2, botDifficulty: 'match', cardsPerPlayer: 30 });
    expect(createBotGameSchema.safeParse(settings).success).toBe(true);
  });
});
