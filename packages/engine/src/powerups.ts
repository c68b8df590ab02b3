import type { Card } from './cards.ts';
import { type PowerUpSituation, cardsToSendBack, powerUpProblem, powerUpTargetProblem } from './checks.ts';
import { FREEZE_DURATION_MS, POWER_UP_TYPES, type PowerUpType, REVERSAL_CARDS } from './constants.ts';
import type { Draft } from './draft.ts';
import { type RuleError, ruleError } from './errors.ts';
import { inGame, isFrozen, placeCard, playSituation, refillHand } from './rules.ts';
import type { PowerUpEffect, PowerUpTarget } from './types.ts';

/** What the power-up checks (checks.ts) read of player i. */
export function powerUpSituation(d: Draft, i: number): PowerUpSituation {
  const used = d.peek(i).powerUpsUsed;
  return {
    ...playSituation(d, i),
    powerUpsAvailable: POWER_UP_TYPES.filter((t) => !used.includes(t)),
    opponents: opponentsOf(d, i).map((k) => ({ id: d.peek(k).id, frozen: isFrozen(d.peek(k), d.clock) })),
    cardsToSendBack: cardsToSendBack(
      Array.from({ length: d.pileCount }, (_, k) => d.pileView(k).length),
      d.stockView.length,
    ),
  };
}

/** Why player i cannot use this power-up with this target data, with its text; null when they may. */
export function powerUpRefusal(d: Draft, i: number, type: PowerUpType, target: PowerUpTarget): RuleError | null {
  const s = powerUpSituation(d, i);
  const problem = powerUpProblem(s, type) ?? powerUpTargetProblem(s, type, target);
  return problem ? ruleError(problem) : null;
}

export function opponentsOf(d: Draft, i: number): number[] {
  const opponents: number[] = [];
  for (let k = 0; k < d.playerCount; k += 1) if (k !== i && inGame(d.peek(k))) opponents.push(k);
  return opponents;
}

/** Uses a power-up that powerUpRefusal accepted. */
export function executePowerUp(d: Draft, i: number, type: PowerUpType, target: PowerUpTarget): void {
  const p = d.cards(i);
  p.powerUpsUsed = [...p.powerUpsUsed, type];
  const effect = EFFECTS[type](d, i, target);
  // The power-up event comes before any gameEnded a winning BOMB or SNIPER produced.
  const endIndex = d.events.findIndex((e) => e.type === 'gameEnded');
  const event = { type: 'powerUpUsed', playerId: p.id, effect } as const;
  if (endIndex >= 0) d.events.splice(endIndex, 0, event);
  else d.emit(event);
  if (type !== 'BOMB' && type !== 'SNIPER') d.emit({ type: 'handChanged', playerId: p.id });
}

const EFFECTS: Record<PowerUpType, (d: Draft, i: number, target: PowerUpTarget) => PowerUpEffect> = {
  BOMB(d, i, target) {
    const p = d.peek(i);
    const pileIndex = target.pileIndex ?? d.random.int(d.pileCount);
    const source =
      p.deck.length > 0
        ? { from: 'deck' as const, index: 0 }
        : { from: 'hand' as const, index: d.random.int(p.hand.length) };
    const card = placeCard(d, i, source, pileIndex);
    return { powerUpType: 'BOMB', card, pileIndex };
  },

  SNIPER(d, i, target) {
    const handIndex = d.peek(i).hand.findIndex((c) => c.id === target.cardId);
    const pileIndex = target.pileIndex as number;
    const card = placeCard(d, i, { from: 'hand', index: handIndex }, pileIndex);
    return { powerUpType: 'SNIPER', card, pileIndex };
  },

  FREEZE(d, i, target) {
    const t = d.indexOf(target.targetPlayerId as string);
    const victim = d.player(t);
    const by = d.peek(i).id;
    victim.frozenUntil = d.clock + FREEZE_DURATION_MS;
    victim.frozenBy = by;
    victim.lastFrozenAt = d.clock;
    // A lapsed freeze of the same player that advance() has not thawed yet is replaced, not doubled.
    d.effects = d.effectList().filter((e) => e.targetPlayerId !== victim.id);
    d.effects.push({
      type: 'freeze',
      targetPlayerId: victim.id,
      startTime: d.clock,
      duration: FREEZE_DURATION_MS,
    });
    d.emit({
      type: 'playerFrozen',
      playerId: victim.id,
      frozenBy: by,
      duration: FREEZE_DURATION_MS,
      until: victim.frozenUntil,
    });
    return { powerUpType: 'FREEZE', targetPlayer: victim.id, duration: FREEZE_DURATION_MS };
  },

  REVERSAL(d, i) {
    const affectedPlayers: { userId: string; cardsAdded: number }[] = [];
    let pileCursor = 0;
    // Cards come from under the pile tops (never a top), round-robin over the piles, then from the stock.
    const takeCard = (): Card | undefined => {
      for (let tries = 0; tries < d.pileCount; tries += 1) {
        const pileIndex = (pileCursor + tries) % d.pileCount;
        if (d.pileView(pileIndex).length > 1) {
          pileCursor = pileIndex + 1;
          return d.pile(pileIndex).shift();
        }
      }
      return d.stockView.length > 0 ? d.stock().pop() : undefined;
    };
    for (const k of opponentsOf(d, i)) {
      const opponent = d.cards(k);
      let cardsAdded = 0;
      for (let n = 0; n < REVERSAL_CARDS; n += 1) {
        const card = takeCard();
        if (!card) break;
        opponent.deck.push(card);
        cardsAdded += 1;
      }
      refillHand(opponent);
      affectedPlayers.push({ userId: opponent.id, cardsAdded });
      if (cardsAdded > 0) d.emit({ type: 'handChanged', playerId: opponent.id });
    }
    const cardsReversed = affectedPlayers.reduce((sum, a) => sum + a.cardsAdded, 0);
    return { powerUpType: 'REVERSAL', cardsReversed, affectedPlayers };
  },

  WHIRLWIND(d) {
    const all: Card[] = [];
    for (let k = 0; k < d.pileCount; k += 1) all.push(...d.pile(k).splice(0));
    d.random.shuffle(all);
    all.forEach((card, n) => d.pile(n % d.pileCount).push(card));
    return { powerUpType: 'WHIRLWIND', cardsShuffled: all.length };
  },
};
