import { describe, expect, it } from 'vitest';
import { cardSet } from '@memeslam/engine';
import {
  DASHBOARD_TEXTS,
  LOBBY_TEXTS,
  ROOM_CODE_ALPHABET,
  ROOM_CODE_LENGTH,
  VALIDATION_TEXTS,
  cardSchema,
  createBotGameSchema,
  createGameRequestSchema,
  createGameSettingsSchema,
  joinGameSchema,
  pileIndexSchema,
  quickStartSettings,
  roomCodeSchema,
} from '../src/index.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('cards and piles', () => {
  it('accepts every engine card and rejects a face the game does not have', () => {
    for (const card of cardSet(0)) expect(cardSchema.safeParse(card).success).toBe(true);
    expect(cardSchema.safeParse({ id: 'x', number: 6, color: 'Red', logo: 'Pepe' }).success).toBe(false);
    expect(cardSchema.safeParse({ id: 'x', number: 3, color: 'Pink', logo: 'Pepe' }).success).toBe(false);
    expect(cardSchema.safeParse({ id: 'x', number: '3', color: 'Red', logo: 'Pepe' }).success).toBe(false);
  });

  it('allows pile indexes 0–3 only (4 piles at most)', () => {
    expect(pileIndexSchema.safeParse(3).success).toBe(true);
    expect(messages(pileIndexSchema.safeParse(4))).toEqual(['Invalid discard pile']);
    expect(pileIndexSchema.safeParse(-1).success).toBe(false);
    expect(pileIndexSchema.safeParse(1.5).success).toBe(false);
  });
});

describe('room codes', () => {
  it('uses the unambiguous alphabet and 6 characters', () => {
    expect(ROOM_CODE_ALPHABET).toBe('ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
    expect(ROOM_CODE_LENGTH).toBe(6);
  });

  it('normalises to uppercase and trims what was pasted', () => {
    expect(roomCodeSchema.parse('abc234')).toBe('ABC234');
    expect(roomCodeSchema.parse('  xyz789 ')).toBe('XYZ789');
    expect(joinGameSchema.parse({ roomCode: 'hjk234' })).toEqual({ roomCode: 'HJK234' });
  });

  it('asks for a code when empty and calls anything else invalid', () => {
    expect(messages(roomCodeSchema.safeParse(''))).toEqual([LOBBY_TEXTS.enterRoomCode]);
    expect(messages(joinGameSchema.safeParse({}))).toEqual(['Please enter a room code']);
    for (const bad of ['ABC23', 'ABC2345', 'ABCD10', 'ABCDEO', 'ABC-23']) {
      expect(messages(roomCodeSchema.safeParse(bad))).toEqual([DASHBOARD_TEXTS.invalidRoomCode]);
    }
    expect(DASHBOARD_TEXTS.invalidRoomCode).toBe('Invalid room code');
  });

  it('refuses unknown fields on join', () => {
    expect(messages(joinGameSchema.safeParse({ roomCode: 'ABC234', spectate: true }))).toEqual([
      'Unknown field: spectate',
    ]);
  });
});

describe('createGame settings', () => {
  it('fills the lobby defaults for a plain game', () => {
    expect(createGameSettingsSchema.parse({})).toEqual({
      mode: 'free',
      maxPlayers: 4,
      cardsPerPlayer: 30,
      gameSpeed: 'normal',
      allowSpectators: true,
      autoStart: false,
      bots: null,
    });
  });

  it("reads the lobby's nested bot settings, flat fields winning", () => {
    const setup = createGameSettingsSchema.parse({
      maxPlayers: 4,
      cardsPerPlayer: 40,
      gameSpeed: 'fast',
      allowSpectators: false,
      mode: 'free',
      botDifficulty: 'expert',
      botSettings: {
        enabled: true,
        numberOfBots: 3,
        difficulty: 'easy',
        mixedDifficulties: true,
        autoReady: true,
        botPersonalities: ['Bonk Bot', 'Wif Bot', 'Ponke Bot'],
      },
    });
    expect(setup.bots).toEqual({
      numberOfBots: 3,
      difficulty: 'expert',
      mixedDifficulties: true,
      personalities: ['Bonk Bot', 'Wif Bot', 'Ponke Bot'],
    });
    expect(setup.cardsPerPlayer).toBe(40);
  });

  it('refuses bot names with direction overrides, isolates or zero-width characters', () => {
    for (const name of ['Evil\u202Egnp', 'a\u200Bb', '\u2067Bot\u2069', 'x\uFEFFy', 'Bot\u0007']) {
      const result = createGameSettingsSchema.safeParse({ botSettings: { enabled: true, botPersonalities: [name] } });
      expect(messages(result)).toEqual([VALIDATION_TEXTS.nameHiddenCharacters]);
    }
    expect(createGameSettingsSchema.safeParse({ botSettings: { botPersonalities: ['Zoë 🐸'] } }).success).toBe(true);
  });

  it('makes room for the bots when max players is not given', () => {
    expect(createGameSettingsSchema.parse({ withBots: true, numberOfBots: 5 }).maxPlayers).toBe(6);
    expect(createGameSettingsSchema.parse({ withBots: false, numberOfBots: 2 }).bots).toBeNull();
  });

  it('refuses wagered games with the dashboard text', () => {
    expect(messages(createGameSettingsSchema.safeParse({ mode: 'wagered' }))).toEqual(['Wagered games coming soon!']);
  });

  it('enforces the lobby limits', () => {
    const bad = [
      { maxPlayers: 1 },
      { maxPlayers: 7 },
      { maxPlayers: 3.5 },
      { cardsPerPlayer: 25 },
      { gameSpeed: 'turbo' },
      { numberOfBots: 0 },
      { numberOfBots: 6 },
      { botDifficulty: 'insane' },
      { mode: 'ranked' },
      { allowSpectators: 'yes' },
      { maxPlayers: 3, numberOfBots: 3 },
      { hostName: 'alice' },
    ];
    for (const settings of bad)
      expect(createGameSettingsSchema.safeParse(settings).success, JSON.stringify(settings)).toBe(false);
    expect(messages(createGameSettingsSchema.safeParse({ maxPlayers: 3, numberOfBots: 3 }))).toEqual([
      LOBBY_TEXTS.maxPlayersAboveBots,
    ]);
  });

  it('wraps the settings for POST /game/create', () => {
    expect(createGameRequestSchema.parse({ settings: { maxPlayers: 2 } }).settings.maxPlayers).toBe(2);
    expect(createGameRequestSchema.safeParse({ maxPlayers: 2 }).success).toBe(false);
  });
});

describe('create-bot-game settings', () => {
  it('defaults to the client state: 1 normal bot, 2 seats, normal speed, auto start, 30 cards', () => {
    expect(createBotGameSchema.parse({})).toEqual({
      mode: 'free',
      maxPlayers: 2,
      cardsPerPlayer: 30,
      gameSpeed: 'normal',
      allowSpectators: true,
      autoStart: true,
      bots: { numberOfBots: 1, difficulty: 'normal', mixedDifficulties: false, personalities: [] },
    });
  });

  it("accepts the dashboard dialog's full range", () => {
    const setup = createBotGameSchema.parse({
      numberOfBots: 5,
      botDifficulty: 'hard',
      maxPlayers: 6,
      gameSpeed: 'blitz',
      autoStart: false,
      cardsPerPlayer: 20,
    });
    expect(setup).toMatchObject({ maxPlayers: 6, gameSpeed: 'blitz', autoStart: false, cardsPerPlayer: 20 });
    expect(setup.bots?.numberOfBots).toBe(5);
  });

  it('needs more seats than bots and 1–5 bots', () => {
    expect(messages(createBotGameSchema.safeParse({ numberOfBots: 2, maxPlayers: 2 }))).toEqual([
      'Max players must be greater than the number of bots',
    ]);
    expect(createBotGameSchema.safeParse({ numberOfBots: 6, maxPlayers: 6 }).success).toBe(false);
    expect(createBotGameSchema.safeParse({ numberOfBots: '2' }).success).toBe(false);
    expect(createBotGameSchema.safeParse({ numberOfBots: 2, withBots: true }).success).toBe(false);
  });

  it('quick start: easy 1 bot, normal 2, hard 3, max players bots + 1', () => {
    for (const [difficulty, bots] of [
      ['easy', 1],
      ['normal', 2],
      ['hard', 3],
    ] as const) {
      const settings = quickStartSettings(difficulty);
      expect(settings).toMatchObject({ numberOfBots: bots, maxPlayers: bots + 1, botDifficulty: difficulty });
      expect(createBotGameSchema.safeParse(settings).success).toBe(true);
    }
  });
});
