/**
 * Creating and joining games. Clients describe a new game in three shapes (the lobby's
 * createGame data with its nested bot settings, the dashboard's bot dialog, and the HTTP create
 * call); each schema here accepts its shape and turns it into one `GameSetup`, so the server has a
 * single, already-checked description to build a room from.
 */
import * as z from 'zod';
import { MAX_PLAYERS, MIN_PLAYERS, type GameSpeed } from '@memeslam/engine';
import {
  BOT_GAME_DEFAULTS,
  HIDDEN_NAME_CHARACTERS,
  LOBBY_DEFAULTS,
  MAX_BOTS,
  MIN_BOTS,
  USERNAME_MAX_LENGTH,
} from './constants.ts';
import { LOBBY_TEXTS } from './game-texts.ts';
import {
  botChoiceSchema,
  cardsPerPlayerSchema,
  gameSpeedSchema,
  idSchema,
  lobbyModeSchema,
  roomCodeSchema,
} from './primitives.ts';
import type { BotChoice } from './primitives.ts';
import { DASHBOARD_TEXTS, VALIDATION_TEXTS } from './texts.ts';
import { strictBody } from './validation.ts';

export const maxPlayersSchema = z
  .number({ error: LOBBY_TEXTS.maxPlayersRange })
  .int(LOBBY_TEXTS.maxPlayersRange)
  .min(MIN_PLAYERS, LOBBY_TEXTS.maxPlayersRange)
  .max(MAX_PLAYERS, LOBBY_TEXTS.maxPlayersRange);

export const botCountSchema = z
  .number({ error: LOBBY_TEXTS.botCountRange })
  .int(LOBBY_TEXTS.botCountRange)
  .min(MIN_BOTS, LOBBY_TEXTS.botCountRange)
  .max(MAX_BOTS, LOBBY_TEXTS.botCountRange);

/** What the server builds a room from, whichever shape the client sent. */
export interface GameSetup {
  readonly mode: 'free';
  readonly maxPlayers: number;
  readonly cardsPerPlayer: 20 | 30 | 40;
  readonly gameSpeed: GameSpeed;
  readonly allowSpectators: boolean;
  /** The host is marked ready and the game starts itself 1 s after everyone is ready. */
  readonly autoStart: boolean;
  /** null for a game of people only. */
  readonly bots: {
    readonly numberOfBots: number;
    readonly difficulty: BotChoice;
    /**
     * "Match me" only, set by the server from the host's recorded median time per play when the room
     * is created (never taken from a client): the bots' pace.
     */
    readonly matchPaceMs?: number | undefined;
    /** The server varies the bots' difficulties around `difficulty`. */
    readonly mixedDifficulties: boolean;
    /** Names for the bots, in seat order; the server makes up the rest. */
    readonly personalities: readonly string[];
  } | null;
}

/** The lobby's bot panel: enabled, count, difficulty, mixed difficulties, auto-ready, three names. */
export const botLobbySettingsSchema = strictBody({
  enabled: z.boolean().optional(),
  numberOfBots: botCountSchema.optional(),
  difficulty: botChoiceSchema.optional(),
  mixedDifficulties: z.boolean().optional(),
  /** Accepted if a client sends it; bots are always ready. */
  autoReady: z.boolean().optional(),
  botPersonalities: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(USERNAME_MAX_LENGTH)
        .refine((name) => !HIDDEN_NAME_CHARACTERS.test(name), VALIDATION_TEXTS.nameHiddenCharacters),
    )
    .max(MAX_BOTS)
    .optional(),
});

/** The seats must leave room for at least one person besides the bots. */
function checkSeats(ctx: z.core.$RefinementCtx, maxPlayers: number, numberOfBots: number): boolean {
  if (maxPlayers > numberOfBots) return true;
  ctx.addIssue({ code: 'custom', path: ['maxPlayers'], message: LOBBY_TEXTS.maxPlayersAboveBots, input: maxPlayers });
  return false;
}

/**
 * The Create-game payload: cardsPerPlayer, gameSpeed, allowSpectators, autoStart,
 * withBots, numberOfBots, botDifficulty, host, maxPlayers, mode, botSettings. Flat bot fields win
 * over the nested botSettings; wagered mode is refused with the dashboard's text.
 */
export const createGameSettingsSchema = strictBody({
  maxPlayers: maxPlayersSchema.optional(),
  cardsPerPlayer: cardsPerPlayerSchema.optional(),
  gameSpeed: gameSpeedSchema.optional(),
  allowSpectators: z.boolean().optional(),
  autoStart: z.boolean().optional(),
  withBots: z.boolean().optional(),
  numberOfBots: botCountSchema.optional(),
  botDifficulty: botChoiceSchema.optional(),
  /** Accepted if a client sends it, and ignored: the host is whoever sends the request. */
  host: idSchema.optional(),
  mode: lobbyModeSchema.optional(),
  botSettings: botLobbySettingsSchema.optional(),
}).transform((input, ctx): GameSetup => {
  if (input.mode === 'wagered') {
    ctx.addIssue({ code: 'custom', path: ['mode'], message: DASHBOARD_TEXTS.wageredComingSoon, input: input.mode });
    return z.NEVER;
  }
  const nested = input.botSettings;
  const wantsBots = input.withBots ?? nested?.enabled ?? input.numberOfBots !== undefined;
  const numberOfBots = wantsBots ? (input.numberOfBots ?? nested?.numberOfBots ?? BOT_GAME_DEFAULTS.numberOfBots) : 0;
  const maxPlayers = input.maxPlayers ?? Math.max(LOBBY_DEFAULTS.maxPlayers, numberOfBots + 1);
  if (!checkSeats(ctx, maxPlayers, numberOfBots)) return z.NEVER;
  return {
    mode: 'free',
    maxPlayers,
    cardsPerPlayer: input.cardsPerPlayer ?? LOBBY_DEFAULTS.cardsPerPlayer,
    gameSpeed: input.gameSpeed ?? LOBBY_DEFAULTS.gameSpeed,
    allowSpectators: input.allowSpectators ?? LOBBY_DEFAULTS.allowSpectators,
    autoStart: input.autoStart ?? LOBBY_DEFAULTS.autoStart,
    bots: wantsBots
      ? {
          numberOfBots,
          difficulty: input.botDifficulty ?? nested?.difficulty ?? BOT_GAME_DEFAULTS.botDifficulty,
          mixedDifficulties: nested?.mixedDifficulties ?? false,
          personalities: nested?.botPersonalities ?? [],
        }
      : null,
  };
});
export type CreateGameSettings = z.input<typeof createGameSettingsSchema>;

/**
 * The bot-game settings payload (socket create-bot-game and POST /game/create-bot-game):
 * numberOfBots, botDifficulty, maxPlayers, gameSpeed, autoStart, cardsPerPlayer. Missing fields
 * take the client state's defaults; max players defaults to one seat more than the bots.
 */
export const createBotGameSchema = strictBody({
  numberOfBots: botCountSchema.optional(),
  botDifficulty: botChoiceSchema.optional(),
  maxPlayers: maxPlayersSchema.optional(),
  gameSpeed: gameSpeedSchema.optional(),
  autoStart: z.boolean().optional(),
  cardsPerPlayer: cardsPerPlayerSchema.optional(),
}).transform((input, ctx): GameSetup => {
  const numberOfBots = input.numberOfBots ?? BOT_GAME_DEFAULTS.numberOfBots;
  const maxPlayers = input.maxPlayers ?? numberOfBots + 1;
  if (!checkSeats(ctx, maxPlayers, numberOfBots)) return z.NEVER;
  return {
    mode: 'free',
    maxPlayers,
    cardsPerPlayer: input.cardsPerPlayer ?? BOT_GAME_DEFAULTS.cardsPerPlayer,
    gameSpeed: input.gameSpeed ?? BOT_GAME_DEFAULTS.gameSpeed,
    allowSpectators: LOBBY_DEFAULTS.allowSpectators,
    autoStart: input.autoStart ?? BOT_GAME_DEFAULTS.autoStart,
    bots: {
      numberOfBots,
      difficulty: input.botDifficulty ?? BOT_GAME_DEFAULTS.botDifficulty,
      mixedDifficulties: false,
      personalities: [],
    },
  };
});
export type CreateBotGameSettings = z.input<typeof createBotGameSchema>;

/** joinGame and POST /game/join. */
export const joinGameSchema = strictBody({ roomCode: roomCodeSchema });
export type JoinGameRequest = z.input<typeof joinGameSchema>;
