/**
 * The hero's rotating sample cards: a small discard pile where a new card, drawn by the game's own
 * card art, lands every few seconds on the one before it, with a line saying why it may. Rotation
 * can be paused (WCAG 2.2.2) and starts paused for people who ask for reduced motion.
 */
import { formatCard } from '@memeslam/engine';
import { useEffect, useState } from 'react';
import { CardFace } from '../cards/Card.tsx';
import { LandingIcon } from './icons.tsx';
import { heroCard, heroMatch } from './heroCards.ts';

/** How long each card stays on top. */
export const HERO_ROTATE_MS = 2800;

/** The three cards shown, from the bottom of the pile: tilt in degrees and sideways shift in % of a card. */
const SLOTS = [
  { rotate: -16, shift: -42, lift: 6 },
  { rotate: -4, shift: -12, lift: 0 },
  { rotate: 9, shift: 22, lift: -4 },
] as const;

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function HeroCards() {
  /** Index of the top card in the sequence. */
  const [top, setTop] = useState(SLOTS.length - 1);
  const [paused, setPaused] = useState(reducedMotion);

  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setTop((n) => n + 1), HERO_ROTATE_MS);
    return () => clearInterval(timer);
  }, [paused]);

  const shown = SLOTS.map((slot, i) => ({ slot, n: top - (SLOTS.length - 1) + i }));
  const card = heroCard(top);
  const under = heroCard(top - 1);

  return (
    <div className="flex flex-col items-center">
      <div role="group" aria-label="Sample cards" className="relative h-56 w-full max-w-sm md:h-80">
        {/* A soft glow under the pile. */}
        <div
          aria-hidden="true"
          className="absolute top-1/2 left-1/2 size-56 -translate-x-1/2 -translate-y-1/2 rounded-full bg-brand/25 blur-3xl md:size-72"
        />
        {shown.map(({ slot, n }) => (
          <div
            key={n}
            data-hero-card={n}
            className="absolute top-1/2 left-1/2 transition-all duration-500 ease-out motion-reduce:transition-none starting:scale-125 starting:opacity-0"
            style={{
              transform: `translate(-50%, -50%) translate(${slot.shift}%, ${slot.lift}%) rotate(${slot.rotate}deg)`,
            }}
          >
            <CardFace card={heroCard(n)} size="xxl" className="h-auto w-28 drop-shadow-2xl md:w-44" />
          </div>
        ))}
      </div>
      <p className="mt-2 min-h-12 max-w-xs text-center text-sm text-muted md:mt-4">
        <span className="font-semibold text-white">{formatCard(card)}</span> goes on{' '}
        <span className="font-semibold text-white">{formatCard(under)}</span>: same {heroMatch(top)}.
      </p>
      <button
        type="button"
        onClick={() => setPaused((p) => !p)}
        className="mt-1 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs text-muted hover:text-white"
      >
        <LandingIcon name={paused ? 'play' : 'pause'} className="size-3.5" />
        {paused ? 'Play cards' : 'Pause cards'}
      </button>
    </div>
  );
}
