/**
 * The lobby's two settings panels as plain data, and the createGame payload built from them (the
 * protocol's createGame payload and bot lobby settings). Pure, so the page only holds state.
 */
import type { CARDS_PER_PLAYER_OPTIONS, GameSpeed } from '@memeslam/engine';
import type { BotChoice } from '@memeslam/protocol';
import {
  BOT_GAME_DEFAULTS,
  BOT_PERSONALITY_COUNT,
  type ClientPayload,
  LOBBY_DEFAULTS,
  LOBBY_MAX_BOTS,
  LOBBY_QUICK_BOT_GAME,
  MIN_BOTS,
} from '@memeslam/protocol';

export type CardsPerPlayer = (typeof CARDS_PER_PLAYER_OPTIONS)[number];

export interface GameSettingsForm {
  readonly maxPlayers: number;
  readonly cardsPerPlayer: CardsPerPlayer;
  readonly gameSpeed: GameSpeed;
  readonly allowSpectators: boolean;
}

export interface BotSettingsForm {
  readonly enabled: boolean;
  readonly numberOfBots: number;
  readonly difficulty: BotChoice;
  readonly mixedDifficulties: boolean;
  readonly autoReady: boolean;
  readonly botPersonalities: readonly string[];
}

/** The lobby's bot counts: 1 to 3. */
export const BOT_COUNTS = Array.from({ length: LOBBY_MAX_BOTS - MIN_BOTS + 1 }, (_, i) => MIN_BOTS + i);

export const DEFAULT_GAME_SETTINGS: GameSettingsForm = {
  maxPlayers: LOBBY_DEFAULTS.maxPlayers,
  cardsPerPlayer: LOBBY_DEFAULTS.cardsPerPlayer,
  gameSpeed: LOBBY_DEFAULTS.gameSpeed,
  allowSpectators: LOBBY_DEFAULTS.allowSpectators,
};

/** ours: three personality names for the bots. */
const DEFAULT_PERSONALITIES = ['Satoshi', 'Vitalik', 'Moonboy'] as const;

export const DEFAULT_BOT_SETTINGS: BotSettingsForm = {
  enabled: false,
  numberOfBots: BOT_GAME_DEFAULTS.numberOfBots,
  difficulty: BOT_GAME_DEFAULTS.botDifficulty,
  mixedDifficulties: false,
  autoReady: true,
  botPersonalities: DEFAULT_PERSONALITIES.slice(0, BOT_PERSONALITY_COUNT),
};

/** The seats must leave one for a person: with bots on, max players is at least bots + 1. */
export function seatsFor(game: GameSettingsForm, bots: BotSettingsForm): number {
  return bots.enabled ? Math.max(game.maxPlayers, bots.numberOfBots + 1) : game.maxPlayers;
}

export function createGamePayload(
  game: GameSettingsForm,
  bots: BotSettingsForm,
  hostId: string,
): ClientPayload<'createGame'> {
  const base = {
    mode: 'free' as const,
    host: hostId,
    maxPlayers: seatsFor(game, bots),
    cardsPerPlayer: game.cardsPerPlayer,
    gameSpeed: game.gameSpeed,
    allowSpectators: game.allowSpectators,
    autoStart: LOBBY_DEFAULTS.autoStart,
    withBots: bots.enabled,
  };
  if (!bots.enabled) return base;
  const names = bots.botPersonalities
    .slice(0, bots.numberOfBots)
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  return {
    ...base,
    numberOfBots: bots.numberOfBots,
    botDifficulty: bots.difficulty,
    botSettings: {
      enabled: true,
      numberOfBots: bots.numberOfBots,
      difficulty: bots.difficulty,
      mixedDifficulties: bots.mixedDifficulties,
      autoReady: bots.autoReady,
      botPersonalities: names,
    },
  };
}

/** A quick bot game: one bot of the chosen difficulty, two seats, auto-start; speed and cards from the form. */
export function quickBotGamePayload(
  botDifficulty: BotChoice,
  game: GameSettingsForm,
): ClientPayload<'create-bot-game'> {
  return {
    ...LOBBY_QUICK_BOT_GAME,
    botDifficulty,
    gameSpeed: game.gameSpeed,
    cardsPerPlayer: game.cardsPerPlayer,
  };
}
