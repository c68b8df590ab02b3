/**
 * The bot dialog's settings and their one rule: max players must be greater than the
 * number of bots. Options at or below the bot count are disabled, and a selection that became
 * invalid moves up to the smallest valid seat count.
 */
import { MAX_PLAYERS, MIN_PLAYERS } from '@memeslam/engine';
import {
  BOT_DIALOG_DEFAULTS,
  type DASHBOARD_GAME_SPEEDS,
  DASHBOARD_BOT_DIFFICULTIES,
  MATCH_ME,
  MATCH_ME_TEXTS,
  MAX_BOTS,
  MIN_BOTS,
} from '@memeslam/protocol';

export interface BotDialogSettings {
  readonly numberOfBots: number;
  readonly botDifficulty: BotDialogDifficulty;
  readonly maxPlayers: number;
  readonly gameSpeed: (typeof DASHBOARD_GAME_SPEEDS)[number];
  readonly autoStart: boolean;
  readonly cardsPerPlayer: typeof BOT_DIALOG_DEFAULTS.cardsPerPlayer;
}

/** The dialog's difficulty choices: the dashboard's levels, then "Match me". */
export const BOT_DIALOG_DIFFICULTIES = [...DASHBOARD_BOT_DIFFICULTIES, MATCH_ME] as const;
export type BotDialogDifficulty = (typeof BOT_DIALOG_DIFFICULTIES)[number];

export function difficultyOptionLabel(difficulty: BotDialogDifficulty): string {
  return difficulty === MATCH_ME ? MATCH_ME_TEXTS.label : difficulty.charAt(0).toUpperCase() + difficulty.slice(1);
}

/** The one-line explanation under the difficulty, for "Match me" only. */
export function difficultyHint(difficulty: BotDialogDifficulty): string | undefined {
  return difficulty === MATCH_ME ? MATCH_ME_TEXTS.hint : undefined;
}

export const initialBotDialogSettings: BotDialogSettings = { ...BOT_DIALOG_DEFAULTS };

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
export const BOT_COUNT_OPTIONS = range(MIN_BOTS, MAX_BOTS);
export const MAX_PLAYERS_OPTIONS = range(MIN_PLAYERS, MAX_PLAYERS);

export function maxPlayersAllowed(maxPlayers: number, numberOfBots: number): boolean {
  return maxPlayers > numberOfBots;
}

export function withBots(settings: BotDialogSettings, numberOfBots: number): BotDialogSettings {
  const maxPlayers = maxPlayersAllowed(settings.maxPlayers, numberOfBots) ? settings.maxPlayers : numberOfBots + 1;
  return { ...settings, numberOfBots, maxPlayers };
}
