/**
 * The client's deadlock watch (docs/game-rules.md, Deadlock): each second it asks whether any hand
 * card matches any pile top. Stuck for 5 s shows the auto-resolving notice counting to 10 s; at
 * 10 s it asks the server (checkDeadlock); at 15 s "Force Resolution Now" appears; at 20 s, still
 * stuck, it forces resolution. Any card played restarts the clock. deadlockResolved opens the
 * "Resolving Deadlock" modal, which closes itself after 3 s.
 */
import {
  DEADLOCK_CHECK_INTERVAL_MS,
  DEADLOCK_MODAL_AUTO_CLOSE_MS,
  REPEATED_DEADLOCK_WARNING_AT,
  REPEATED_DEADLOCK_WARNING_MS,
} from '@memeslam/protocol/constants';
import { DEADLOCK_TEXTS, gameDeadlockedText } from '@memeslam/protocol/game-texts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ackError, commands, onServerEvent } from './live.ts';
import { deadlockLadder, hasPlayableCard } from './rules.ts';
import { playSound } from './sounds.ts';
import { displayed } from './displayed.ts';
import type { LiveGame } from './state.ts';

export interface DeadlockWatch {
  /** Seconds stuck, or 0 while a card can be played. */
  readonly stuckSeconds: number;
  /** Seconds until the server is asked (the notice counts down to 10 s). */
  readonly secondsToCheck: number;
  readonly showNotice: boolean;
  readonly canForce: boolean;
  readonly resolving: boolean;
  readonly modalOpen: boolean;
  force(): void;
  closeModal(): void;
}

export function useDeadlock(state: LiveGame, enabled: boolean): DeadlockWatch {
  const [stuckSince, setStuckSince] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [resolving, setResolving] = useState(false);
  const [modalOpen, setModalOpen] = useState(false);
  const checked = useRef(false);
  const forced = useRef(false);

  const shown = displayed(state);
  const stuck =
    enabled && state.status === 'active' && shown.hand.length > 0 && !hasPlayableCard(shown.hand, shown.piles);
  const lastPlay = state.lastCardPlayedAt;

  // The clock starts when the hand became stuck and restarts on every card played.
  useEffect(() => {
    setStuckSince(stuck ? Date.now() : null);
    checked.current = false;
    forced.current = false;
  }, [stuck, lastPlay]);

  useEffect(() => {
    if (stuckSince === null) return;
    const timer = setInterval(() => setNow(Date.now()), DEADLOCK_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [stuckSince]);

  const elapsed = stuckSince === null ? 0 : Math.max(0, now - stuckSince);
  const ladder = deadlockLadder(elapsed, resolving);

  const force = useCallback(() => {
    forced.current = true;
    setResolving(true);
    void commands.forceDeadlockResolution().then((ack) => {
      if (!ack.success) {
        setResolving(false);
        toast.error(ackError(ack, DEADLOCK_TEXTS.failedToResolve));
      }
    });
  }, []);

  useEffect(() => {
    if (stuckSince === null) return;
    if (ladder.check && !checked.current) {
      checked.current = true;
      setResolving(true);
      void commands.checkDeadlock().then((ack) => {
        if (!ack.success) toast.error(DEADLOCK_TEXTS.failedToResolve);
        else if (!ack.data?.result.deadlockDetected) setResolving(false);
      });
    }
    if (ladder.autoForce && !forced.current) force();
  }, [ladder.check, ladder.autoForce, stuckSince, force]);

  useEffect(
    () =>
      onServerEvent(({ event, payload }) => {
        if (event === 'deadlockResolved') {
          const p = payload;
          setResolving(false);
          setModalOpen(true);
          playSound('deadlock');
          const text = p.forced
            ? DEADLOCK_TEXTS.resolved.forced
            : p.manual
              ? DEADLOCK_TEXTS.resolved.manual
              : DEADLOCK_TEXTS.resolved.automatic;
          toast.info(text);
        }
        if (event === 'deadlockUnresolvable') {
          const p = payload;
          setResolving(false);
          toast.error(gameDeadlockedText(p.reason || DEADLOCK_TEXTS.defaultReason));
          if (p.consecutiveDeadlocks >= REPEATED_DEADLOCK_WARNING_AT) {
            toast.warning(DEADLOCK_TEXTS.multipleDeadlocks, { duration: REPEATED_DEADLOCK_WARNING_MS });
          }
        }
      }),
    [],
  );

  useEffect(() => {
    if (!modalOpen) return;
    const timer = setTimeout(() => setModalOpen(false), DEADLOCK_MODAL_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [modalOpen]);

  return {
    stuckSeconds: Math.floor(elapsed / 1000),
    secondsToCheck: ladder.secondsToCheck,
    showNotice: ladder.notice,
    canForce: ladder.canForce,
    resolving,
    modalOpen,
    force,
    closeModal: () => setModalOpen(false),
  };
}
