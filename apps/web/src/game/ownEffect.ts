/**
 * What the player's own power-up did, told briefly on the board (opponents get a toast instead):
 * which piles it changed and which cards it moved, from the powerUpUsed event's effect data.
 */
import { formatCard } from '@memeslam/engine';
import type { DeepReadonly, PowerUpEffectData } from '@memeslam/protocol';

export interface OwnEffect {
  readonly text: string;
  /** The piles it changed (their indexes), marked on the board. */
  readonly piles: readonly number[];
}

/** The note for one effect; `names` turns a player id into a name, `pileCount` is the board's piles. */
export function ownEffect(
  data: DeepReadonly<PowerUpEffectData>,
  pileCount: number,
  names: (userId: string) => string,
): OwnEffect {
  switch (data.powerUpType) {
    case 'BOMB':
      return { text: `Bomb: your ${formatCard(data.card)} onto pile ${data.pileIndex + 1}`, piles: [data.pileIndex] };
    case 'SNIPER':
      return { text: `Sniper: your ${formatCard(data.card)} onto pile ${data.pileIndex + 1}`, piles: [data.pileIndex] };
    case 'WHIRLWIND':
      return {
        text: `Whirlwind: ${data.cardsShuffled} cards shuffled into new piles`,
        piles: Array.from({ length: pileCount }, (_, i) => i),
      };
    case 'REVERSAL': {
      const added = data.affectedPlayers.filter((p) => p.cardsAdded > 0);
      const who = added.map((p) => `${names(p.userId)} +${p.cardsAdded}`).join(', ');
      return {
        text: added.length ? `Reversal: cards sent back (${who})` : 'Reversal: no cards to send back',
        piles: [],
      };
    }
    case 'FREEZE':
      return { text: `Freeze: ${names(data.targetPlayer)} frozen for ${data.duration / 1000} s`, piles: [] };
  }
}
