/**
 * The lobby's create-game payload (the create/join view, the create-game payload and the bot
 * lobby settings): the options and defaults the lobby offers,
 * the payload built from them, the quick bot game, and that whatever the form can hold passes the
 * protocol's own schemas, so the lobby never sends data the server would refuse.
 * The expected numbers are written out here, not read from the code.
 */
import { CARDS_PER_PLAYER_OPTIONS } from '@memeslam/engine';
import {
  LOBBY_BOT_DIFFICULTIES,
  LOBBY_GAME_SPEEDS,
  LOBBY_MAX_PLAYERS_OPTIONS,
  createBotGameSchema,
  createGameSettingsSchema,
} from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import {
  BOT_COUNTS,
  type BotSettingsForm,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_GAME_SETTINGS,
  type GameSettingsForm,
  createGamePayload,
  quickBotGamePayload,
  seatsFor,
} from '../src/lobby/settings.ts';
import { difficultyLabel } from '../src/lobby/labels.ts';

// The expected values.
const SPEC_MAX_PLAYERS = [2, 3, 4] as const;
const SPEC_CARDS = [20, 30, 40] as const;
const SPEC_SPEEDS = ['slow', 'normal', 'fast'] as const;
const SPEC_BOTS = [1, 2, 3] as const;
const SPEC_DIFFICULTIES = ['easy', 'normal', 'hard', 'expert'] as const;
const SPEC_PERSONALITY_COUNT = 3;
const HOST = 'user-1';

describe('lobby options and defaults', () => {
  it('max players 2, 3 or 4 (default 4)', () => {
    expect([...LOBBY_MAX_PLAYERS_OPTIONS]).toEqual(SPEC_MAX_PLAYERS);
    expect(DEFAULT_GAME_SETTINGS.maxPlayers).toBe(4);
  });

  it('cards per player 20, 30 or 40 (default 30)', () => {
    expect([...CARDS_PER_PLAYER_OPTIONS]).toEqual(SPEC_CARDS);
    expect(DEFAULT_GAME_SETTINGS.cardsPerPlayer).toBe(30);
  });

  it('game speed slow, normal or fast (default normal); no blitz in the lobby', () => {
    expect([...LOBBY_GAME_SPEEDS]).toEqual(SPEC_SPEEDS);
    expect(DEFAULT_GAME_SETTINGS.gameSpeed).toBe('normal');
  });

  it('Allow Spectators defaults to true', () => {
    expect(DEFAULT_GAME_SETTINGS.allowSpectators).toBe(true);
  });

  it('bots 1 to 3; difficulty easy, normal, hard or expert', () => {
    expect(BOT_COUNTS).toEqual(SPEC_BOTS);
    expect([...LOBBY_BOT_DIFFICULTIES]).toEqual(SPEC_DIFFICULTIES);
    expect(SPEC_BOTS).toContain(DEFAULT_BOT_SETTINGS.numberOfBots);
    expect(SPEC_DIFFICULTIES).toContain(DEFAULT_BOT_SETTINGS.difficulty);
  });

  it('bots start off, with three personality names', () => {
    expect(DEFAULT_BOT_SETTINGS.enabled).toBe(false);
    expect(DEFAULT_BOT_SETTINGS.botPersonalities).toHaveLength(SPEC_PERSONALITY_COUNT);
    for (const name of DEFAULT_BOT_SETTINGS.botPersonalities) expect(name.trim()).not.toBe('');
  });
});

describe('create-game payload', () => {
  it('without bots: the payload fields, free mode, the host, and no bot fields', () => {
    const payload = createGamePayload(DEFAULT_GAME_SETTINGS, DEFAULT_BOT_SETTINGS, HOST);
    expect(payload).toEqual({
      mode: 'free',
      host: HOST,
      maxPlayers: 4,
      cardsPerPlayer: 30,
      gameSpeed: 'normal',
      allowSpectators: true,
      autoStart: false,
      withBots: false,
    });
  });

  it('carries the chosen game settings', () => {
    const game: GameSettingsForm = { maxPlayers: 3, cardsPerPlayer: 40, gameSpeed: 'fast', allowSpectators: false };
    expect(createGamePayload(game, DEFAULT_BOT_SETTINGS, HOST)).toMatchObject(game);
  });

  it('with bots: count and difficulty flat and in botSettings', () => {
    const bots: BotSettingsForm = {
      ...DEFAULT_BOT_SETTINGS,
      enabled: true,
      numberOfBots: 2,
      difficulty: 'expert',
      mixedDifficulties: true,
      autoReady: false,
    };
    const payload = createGamePayload(DEFAULT_GAME_SETTINGS, bots, HOST);
    expect(payload).toMatchObject({
      withBots: true,
      numberOfBots: 2,
      botDifficulty: 'expert',
      maxPlayers: 4,
      botSettings: {
        enabled: true,
        numberOfBots: 2,
        difficulty: 'expert',
        mixedDifficulties: true,
        autoReady: false,
        botPersonalities: bots.botPersonalities.slice(0, 2),
      },
    });
  });

  it('seats always leave one for a person: with bots, max players is at least bots + 1', () => {
    const game = { ...DEFAULT_GAME_SETTINGS, maxPlayers: 2 };
    const bots = { ...DEFAULT_BOT_SETTINGS, enabled: true, numberOfBots: 3 };
    expect(seatsFor(game, bots)).toBe(4);
    expect(createGamePayload(game, bots, HOST).maxPlayers).toBe(4);
    // Bots off: the chosen seats, whatever the (hidden) bot count.
    expect(seatsFor(game, { ...bots, enabled: false })).toBe(2);
  });

  it('personality names: only the seated bots, trimmed, blanks dropped', () => {
    const bots: BotSettingsForm = {
      ...DEFAULT_BOT_SETTINGS,
      enabled: true,
      numberOfBots: 2,
      botPersonalities: ['  Satoshi ', '   ', 'Moonboy'],
    };
    expect(createGamePayload(DEFAULT_GAME_SETTINGS, bots, HOST).botSettings?.botPersonalities).toEqual(['Satoshi']);
  });
});

describe('the payload passes the protocol schema for every setting the form can hold', () => {
  const games: GameSettingsForm[] = SPEC_MAX_PLAYERS.flatMap((maxPlayers) =>
    SPEC_CARDS.flatMap((cardsPerPlayer) =>
      SPEC_SPEEDS.flatMap((gameSpeed) =>
        [true, false].map((allowSpectators) => ({ maxPlayers, cardsPerPlayer, gameSpeed, allowSpectators })),
      ),
    ),
  );
  const botForms: BotSettingsForm[] = [
    DEFAULT_BOT_SETTINGS,
    ...SPEC_BOTS.flatMap((numberOfBots) =>
      SPEC_DIFFICULTIES.flatMap((difficulty) =>
        [true, false].map((mixedDifficulties) => ({
          ...DEFAULT_BOT_SETTINGS,
          enabled: true,
          numberOfBots,
          difficulty,
          mixedDifficulties,
        })),
      ),
    ),
    // Names the user blanked or padded.
    { ...DEFAULT_BOT_SETTINGS, enabled: true, numberOfBots: 3, botPersonalities: ['', ' ', '  x  '] },
  ];

  it(`${games.length} game forms × ${botForms.length} bot forms`, () => {
    for (const game of games) {
      for (const bots of botForms) {
        const parsed = createGameSettingsSchema.safeParse(createGamePayload(game, bots, HOST));
        expect(parsed.error?.issues ?? [], JSON.stringify({ game, bots })).toEqual([]);
        const setup = parsed.data!;
        expect(setup).toMatchObject({
          mode: 'free',
          cardsPerPlayer: game.cardsPerPlayer,
          gameSpeed: game.gameSpeed,
          allowSpectators: game.allowSpectators,
        });
        if (bots.enabled) {
          expect(setup.bots).toMatchObject({
            numberOfBots: bots.numberOfBots,
            difficulty: bots.difficulty,
            mixedDifficulties: bots.mixedDifficulties,
          });
          expect(setup.maxPlayers).toBe(Math.max(game.maxPlayers, bots.numberOfBots + 1));
          expect(setup.maxPlayers).toBeGreaterThan(bots.numberOfBots);
          expect(setup.maxPlayers).toBeLessThanOrEqual(4);
        } else {
          expect(setup.bots).toBeNull();
          expect(setup.maxPlayers).toBe(game.maxPlayers);
        }
      }
    }
  });
});

describe('quick bot game: 1 bot, max players 2, auto-start', () => {
  it.each(SPEC_DIFFICULTIES)('%s', (difficulty) => {
    const game: GameSettingsForm = { ...DEFAULT_GAME_SETTINGS, gameSpeed: 'fast', cardsPerPlayer: 20 };
    const payload = quickBotGamePayload(difficulty, game);
    expect(payload).toEqual({
      numberOfBots: 1,
      maxPlayers: 2,
      autoStart: true,
      botDifficulty: difficulty,
      gameSpeed: 'fast',
      cardsPerPlayer: 20,
    });
    const parsed = createBotGameSchema.safeParse(payload);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({ maxPlayers: 2, autoStart: true, bots: { numberOfBots: 1, difficulty } });
  });
});

describe('"Match me" in the lobby', () => {
  it('is a bot difficulty of the lobby settings, labelled, sent as "match" and accepted', () => {
    expect(difficultyLabel('match')).toBe('Match me');
    expect(difficultyLabel('hard')).toBe('Hard');
    const bots: BotSettingsForm = { ...DEFAULT_BOT_SETTINGS, enabled: true, numberOfBots: 1, difficulty: 'match' };
    const parsed = createGameSettingsSchema.safeParse(createGamePayload(DEFAULT_GAME_SETTINGS, bots, HOST));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.bots).toMatchObject({ numberOfBots: 1, difficulty: 'match' });
    // The pace is the server's to set, from the host's own record: never part of what the client sends.
    expect(parsed.data?.bots?.matchPaceMs).toBeUndefined();
  });

  it('is a quick bot game: one bot, two seats, auto-start', () => {
    const payload = quickBotGamePayload('match', DEFAULT_GAME_SETTINGS);
    expect(payload).toMatchObject({ numberOfBots: 1, maxPlayers: 2, autoStart: true, botDifficulty: 'match' });
    expect(createBotGameSchema.safeParse(payload).data?.bots).toMatchObject({ difficulty: 'match' });
  });
});
