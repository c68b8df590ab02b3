/** A small pill for the game list's badges (the difficulty badge is components/DifficultyBadge). */
import type { ReactNode } from 'react';

export type BadgeTone = 'green' | 'yellow' | 'red' | 'purple' | 'gold' | 'brand' | 'muted' | 'blue';

// Whole class names, so Tailwind finds them in the source.
const TONES: Record<BadgeTone, string> = {
  green: 'border-green-500/50 bg-green-500/15 text-green-300',
  yellow: 'border-yellow-400/50 bg-yellow-400/15 text-yellow-200',
  red: 'border-red-500/50 bg-red-500/15 text-red-300',
  purple: 'border-purple-400/50 bg-purple-400/15 text-purple-200',
  gold: 'border-gold/60 bg-gold/15 text-gold',
  brand: 'border-brand/60 bg-brand/20 text-purple-100',
  muted: 'border-edge bg-ink/60 text-muted',
  blue: 'border-sky-400/50 bg-sky-400/15 text-sky-200',
};

export function Badge({ tone, children, label }: { tone: BadgeTone; children: ReactNode; label?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[tone]}`}
      {...(label ? { 'aria-label': label } : {})}
    >
      {children}
    </span>
  );
}
