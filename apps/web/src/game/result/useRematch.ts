/**
 * A rematch from the result screen of a game between people: "Rematch" opens a lobby like the game
 * (same settings and bots) and offers it to the game's other people; an offer that comes in shows on
 * their result screen and is taken with one click. An offer lasts while its lobby does and while its
 * player stays on the result screen: leaving it drops the offer.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ackError, commands, onServerEvent } from '../live.ts';
import { REMATCH_TEXTS } from '../texts.ts';

export interface RematchOffer {
  readonly roomCode: string;
  readonly by: { readonly userId: string; readonly username: string };
}

export interface Rematch {
  /** The offer waiting for this player, if any. */
  readonly offer: RematchOffer | null;
  readonly busy: boolean;
  /** Takes the offer if there is one (two people asking at once end up in one lobby), else makes one. */
  start(): Promise<void>;
}

export function useRematch(gameId: string | null): Rematch {
  const navigate = useNavigate();
  const [offer, setOffer] = useState<RematchOffer | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setOffer(null);
    if (!gameId) return;
    return onServerEvent(({ event, payload }) => {
      if (event !== 'rematchOffered') return;
      if (payload.gameId === gameId) setOffer({ roomCode: payload.roomCode, by: payload.by });
    });
  }, [gameId]);

  const start = useCallback(async () => {
    if (!gameId || busy) return;
    setBusy(true);
    const ack = offer ? await commands.join(offer.roomCode) : await commands.offerRematch(gameId);
    setBusy(false);
    if (ack.success && ack.data) {
      navigate(`/lobby/${ack.data.roomCode}`);
      return;
    }
    if (offer) {
      setOffer(null);
      toast.error(REMATCH_TEXTS.over);
    } else {
      toast.error(ackError(ack, REMATCH_TEXTS.failed));
    }
  }, [gameId, busy, offer, navigate]);

  return { offer, busy, start };
}
