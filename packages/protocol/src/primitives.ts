/**
 * The small building blocks every other schema uses. The value lists come from the engine, so a
 * card color or a power-up added there is accepted on the wire without a second edit here.
 */
import * as z from 'zod';
import {
  BOT_DIFFICULTIES,
  CARD_COLORS,
  CARD_LOGOS,
  CARD_NUMBERS,
  CARDS_PER_PLAYER_OPTIONS,
  GAME_SPEEDS,
  MAX_PLAYERS,
  POWER_UP_TYPES,
  pileCountFor,
  type Card,
  type EndReason,
} from '@memeslam/engine';
import { CURRENCIES, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from './constants.ts';
import { DASHBOARD_TEXTS } from './texts.ts';
import { LOBBY_TEXTS } from './game-texts.ts';

export const cardNumberSchema = z.literal(CARD_NUMBERS);
export const cardColorSchema = z.enum(CARD_COLORS);
export const cardLogoSchema = z.enum(CARD_LOGOS);

// A wire card is exactly an engine card, so the server can send the engine's cards as they are.
export const cardSchema = z.object({
  id: z.string().min(1),
  number: cardNumberSchema,
  color: cardColorSchema,
  logo: cardLogoSchema,
}) satisfies z.ZodType<Card>;

export const powerUpTypeSchema = z.enum(POWER_UP_TYPES, { error: 'Unknown power-up' });
export const gameSpeedSchema = z.enum(GAME_SPEEDS);
export const botDifficultySchema = z.enum(BOT_DIFFICULTIES);
/** A bot difficulty as a player chooses it: a level, or "Match me" (a bot paced from the player's own play). */
export const BOT_CHOICES = [...BOT_DIFFICULTIES, 'match'] as const;
export type BotChoice = (typeof BOT_CHOICES)[number];
export const botChoiceSchema = z.enum(BOT_CHOICES);
export const cardsPerPlayerSchema = z.literal(CARDS_PER_PLAYER_OPTIONS, {
  error: `Cards per player must be one of ${CARDS_PER_PLAYER_OPTIONS.join(', ')}`,
});

/** The most piles a game can have (6 players); a pile index beyond it can never be right. */
export const MAX_PILES = pileCountFor(MAX_PLAYERS);
export const pileIndexSchema = z
  .number({ error: 'Invalid discard pile' })
  .int('Invalid discard pile')
  .min(0, 'Invalid discard pile')
  .max(MAX_PILES - 1, 'Invalid discard pile');

/** Lifecycle of a game room. The client's own `idle` never goes on the wire. */
export const GAME_STATUSES = ['waiting', 'starting', 'active', 'finished'] as const;
export const gameStatusSchema = z.enum(GAME_STATUSES);
export type GameStatus = z.infer<typeof gameStatusSchema>;

/** Why a game ended. A record over the engine's EndReason fails to compile if the two ever drift. */
const endReasons: Record<EndReason, true> = { win: true, timeCap: true, deadlock: true, forfeit: true, aborted: true };
export const END_REASONS = Object.keys(endReasons) as [EndReason, ...EndReason[]];
export const endReasonSchema = z.enum(END_REASONS);

/** Free games are playable; wagered ones are shown as coming soon and refused. */
export const LOBBY_MODES = ['free', 'wagered'] as const;
export const lobbyModeSchema = z.enum(LOBBY_MODES);
/** The dashboard's game-list filter adds `bot`. */
export const GAME_LIST_MODES = ['free', 'bot', 'wagered'] as const;
export const gameListModeSchema = z.enum(GAME_LIST_MODES);

/** SLAM (the native token, default) or SOL. */
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

const ROOM_CODE_PATTERN = new RegExp(`^[${ROOM_CODE_ALPHABET}]{${ROOM_CODE_LENGTH}}$`);

/**
 * A room code as a person types it: surrounding spaces dropped and uppercased before the check,
 * because the lobby input uppercases and a shared code is often pasted in lower case.
 */
export const roomCodeSchema = z
  .string({ error: LOBBY_TEXTS.enterRoomCode })
  .trim()
  .toUpperCase()
  .min(1, { error: LOBBY_TEXTS.enterRoomCode, abort: true })
  .regex(ROOM_CODE_PATTERN, DASHBOARD_TEXTS.invalidRoomCode);

/** Ids are opaque server-made strings; the bound only stops absurd payloads. */
export const idSchema = z.string().min(1).max(64);

/** Every game broadcast carries the game's event sequence number; a gap means "resync". */
export const seqSchema = z.number().int().nonnegative();

/** Timestamps travel as ISO-8601 strings (what JSON.stringify makes of a Date). */
export const isoDateSchema = z.iso.datetime({ offset: true });

/** A count, a size or a number of seconds: never negative, never fractional. */
export const countSchema = z.number().int().nonnegative();

/** Whole percent, as win rates are shown. */
export const percentSchema = z.number().int().min(0).max(100);
