/**
 * Whether the countdown overlay must show, with its safeguards: status starting shows
 * it; a start signal that arrives with no countdown shown forces it; and every 2 s, a store that
 * says starting while no countdown shows forces it too. Once shown it stays until the page leaves.
 */
import { EMERGENCY_COUNTDOWN_CHECK_MS } from '@memeslam/protocol';
import { useEffect, useRef, useState } from 'react';
import { liveGame } from '../game/live.ts';
import type { ClientStatus } from '../game/state.ts';

export function useCountdownGate(status: ClientStatus): boolean {
  const [showing, setShowing] = useState(status === 'starting');
  const shown = useRef(showing);
  shown.current = showing;
  const previous = useRef(status);

  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (status === 'starting') setShowing(true);
    // Play began while this page watched the lobby, but the countdown never showed.
    if (status === 'active' && (before === 'waiting' || before === 'starting')) setShowing(true);
  }, [status]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (!shown.current && liveGame.get().status === 'starting') setShowing(true);
    }, EMERGENCY_COUNTDOWN_CHECK_MS);
    return () => clearInterval(timer);
  }, []);

  return showing;
}
