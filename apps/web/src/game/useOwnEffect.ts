/** The player's own power-up, told on the board for a moment (ownEffect.ts says what). */
import { useEffect, useState } from 'react';
import { onServerEvent } from './live.ts';
import { type OwnEffect, ownEffect } from './ownEffect.ts';

/** How long the note and the piles' mark stay. */
export const OWN_EFFECT_MS = 3000;

/** The note of this player's latest power-up while it shows (OWN_EFFECT_MS), else null. */
export function useOwnEffect(me: string | null): OwnEffect | null {
  const [shown, setShown] = useState<OwnEffect | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onServerEvent(({ event, payload }) => {
      if (event !== 'powerUpUsed') return;
      const p = payload;
      if (p.playerId !== me) return;
      const names = (id: string) =>
        p.gameState.players.find((player) => player.userId === id)?.username ?? 'an opponent';
      setShown(ownEffect(p.data, p.gameState.discardPiles.length, names));
      clearTimeout(timer);
      timer = setTimeout(() => setShown(null), OWN_EFFECT_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [me]);
  return shown;
}
