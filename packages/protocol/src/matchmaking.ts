/**
 * "Play now": one click queues a player for a game with people of
 * similar rating; after 20 s empty seats go to bots paced like the people present, and someone still
 * alone is offered a bot game paced to them.
 */
import * as z from 'zod';
import { countSchema, idSchema, roomCodeSchema } from './primitives.ts';
import { strictBody } from './validation.ts';

/** Seats at the table a player asks for; "any" sits at whatever table the others want. */
export const QUEUE_SIZES = [2, 3, 4, 'any'] as const;
export const queueSizeSchema = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal('any')]);
export type QueueSize = z.infer<typeof queueSizeSchema>;

/** joinQueue: the table size wanted (any by default). */
export const joinQueueSchema = strictBody({ size: queueSizeSchema.default('any') });

/** Every second while queued: how many are searching and how long this player has waited. */
export const queueStatusSchema = z.object({
  searching: countSchema,
  waitedMs: countSchema,
  size: queueSizeSchema,
});

/** A table was found: the player is seated in the room `roomCode`, which starts by itself. */
export const matchFoundSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  people: countSchema,
  bots: countSchema,
});

/** Alone for 20 s: a bot game paced to this player is offered (they may keep waiting). */
export const botGameOfferedSchema = z.object({ waitedMs: countSchema, botPaceMs: countSchema });

export const MATCHMAKING_TEXTS = {
  playNow: 'Play now',
  joinFailed: 'Could not start searching',
  searching: 'Searching for players…',
  cancel: 'Cancel',
  tableSize: 'Players',
  anySize: 'Any',
  searchingCount: (n: number) => `${n} ${n === 1 ? 'player' : 'players'} searching`,
  botOfferTitle: 'Nobody else right now',
  botOffer: 'Play a bot paced like you, or keep waiting for people?',
  playBot: 'Play a bot',
  keepWaiting: 'Keep waiting',
  cooldown: 'You left your last game right after it began: Play now takes you again in a moment',
} as const;

/** The cooldown's refusal with the time left: a player who leaves games at once waits before the next. */
export function queueCooldownText(msLeft: number): string {
  return `You left your last game right after it began: Play now takes you again in ${Math.ceil(msLeft / 1000)} s`;
}
