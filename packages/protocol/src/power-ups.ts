/**
 * Power-ups on the wire: the usePowerUp request, whose targets a client may send at the
 * top level or inside targetData, and the effect data the server reports back.
 */
import * as z from 'zod';
import { RULE_TEXTS, type PowerUpEffect } from '@memeslam/engine';
import { GAME_TEXTS } from './game-texts.ts';
import { cardSchema, countSchema, idSchema, pileIndexSchema, powerUpTypeSchema } from './primitives.ts';
import { strictBody } from './validation.ts';

/** A hand card's id; missing reads as the engine's "select the card first". */
export const cardIdSchema = z
  .string({ error: RULE_TEXTS.CARD_REQUIRED })
  .min(1, RULE_TEXTS.CARD_REQUIRED)
  .max(64, RULE_TEXTS.CARD_NOT_IN_HAND);

const targetFields = {
  /** FREEZE: the opponent to freeze. */
  targetPlayerId: idSchema.optional(),
  /** SNIPER: the hand card to fire. */
  cardId: cardIdSchema.optional(),
  /** SNIPER: the pile to fire at; BOMB: the pile to hit (a random one when absent). */
  pileIndex: pileIndexSchema.optional(),
};

/** A usePowerUp request once its targets are gathered; spreads straight into the engine's command. */
export type PowerUpRequest =
  | { readonly powerUpType: 'BOMB'; readonly pileIndex?: number }
  | { readonly powerUpType: 'REVERSAL' }
  | { readonly powerUpType: 'WHIRLWIND' }
  | { readonly powerUpType: 'FREEZE'; readonly targetPlayerId: string }
  | { readonly powerUpType: 'SNIPER'; readonly cardId: string; readonly pileIndex: number };

/**
 * usePowerUp {powerUpType, targetData?}, with FREEZE's targetPlayerId and SNIPER's cardId and
 * pileIndex accepted at the top level, inside targetData, or both when they agree. Missing targets
 * are refused here with the engine's own texts, so the player reads the same words either way.
 */
export const usePowerUpSchema = strictBody({
  powerUpType: powerUpTypeSchema,
  targetData: strictBody(targetFields).optional(),
  ...targetFields,
}).transform((input, ctx): PowerUpRequest => {
  let failed = false;
  function target<K extends keyof typeof targetFields>(key: K) {
    const top = input[key];
    const nested = input.targetData?.[key];
    if (top !== undefined && nested !== undefined && top !== nested) {
      failed = true;
      ctx.addIssue({ code: 'custom', path: [key], message: GAME_TEXTS.conflictingTargets, input });
    }
    return top ?? nested;
  }
  function needed<V>(value: V | undefined, path: string, message: string): V {
    if (value === undefined) {
      failed = true;
      ctx.addIssue({ code: 'custom', path: [path], message, input });
    }
    return value as V;
  }
  const targetPlayerId = target('targetPlayerId');
  const cardId = target('cardId');
  const pileIndex = target('pileIndex');
  let request: PowerUpRequest;
  switch (input.powerUpType) {
    case 'FREEZE':
      request = {
        powerUpType: 'FREEZE',
        targetPlayerId: needed(targetPlayerId, 'targetPlayerId', RULE_TEXTS.TARGET_REQUIRED),
      };
      break;
    case 'SNIPER':
      request = {
        powerUpType: 'SNIPER',
        cardId: needed(cardId, 'cardId', RULE_TEXTS.CARD_REQUIRED),
        pileIndex: needed(pileIndex, 'pileIndex', RULE_TEXTS.INVALID_PILE),
      };
      break;
    case 'BOMB':
      request = pileIndex === undefined ? { powerUpType: 'BOMB' } : { powerUpType: 'BOMB', pileIndex };
      break;
    default:
      request = { powerUpType: input.powerUpType };
  }
  return failed ? z.NEVER : request;
});
export type UsePowerUpRequest = z.input<typeof usePowerUpSchema>;

/** What a power-up did, by type: the engine's PowerUpEffect exactly. */
export const powerUpEffectSchema = z.discriminatedUnion('powerUpType', [
  z.object({ powerUpType: z.literal('BOMB'), card: cardSchema, pileIndex: pileIndexSchema }),
  z.object({
    powerUpType: z.literal('REVERSAL'),
    cardsReversed: countSchema,
    affectedPlayers: z.array(z.object({ userId: idSchema, cardsAdded: countSchema })),
  }),
  z.object({ powerUpType: z.literal('FREEZE'), targetPlayer: idSchema, duration: countSchema }),
  z.object({ powerUpType: z.literal('WHIRLWIND'), cardsShuffled: countSchema }),
  z.object({ powerUpType: z.literal('SNIPER'), card: cardSchema, pileIndex: pileIndexSchema }),
]) satisfies z.ZodType<PowerUpEffect>;
export type PowerUpEffectData = z.infer<typeof powerUpEffectSchema>;
