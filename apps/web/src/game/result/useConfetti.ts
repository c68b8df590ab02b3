/**
 * The winner's confetti: 200 particles, and a second burst 2 s later in bot games.
 * Nothing for players who ask for reduced motion; timers and particles go with the screen.
 */
import { CONFETTI } from '@memeslam/protocol/constants';
import confetti from 'canvas-confetti';
import { useEffect } from 'react';

function burst(): void {
  void confetti({ particleCount: CONFETTI.particles, spread: 100, origin: { y: 0.6 }, disableForReducedMotion: true });
}

export function useConfetti(active: boolean, secondBurst: boolean): void {
  useEffect(() => {
    if (!active) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    burst();
    const timer = secondBurst ? window.setTimeout(burst, CONFETTI.secondBurstMs) : undefined;
    return () => {
      window.clearTimeout(timer);
      confetti.reset();
    };
  }, [active, secondBurst]);
}
