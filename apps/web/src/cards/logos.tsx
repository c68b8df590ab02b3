/**
 * Our own simple geometric glyphs for the six meme logos, each drawn in a 40 × 40 box centred on
 * (0, 0) with `currentColor` as its main paint. No copied artwork; a handful of nodes each so a card
 * stays light. The silhouettes differ (burst, wide eyes, bars, pointed ears, round ears, hat) so a
 * logo reads even at the smallest size.
 */
import type { CardLogo } from '@memeslam/engine';
import type { ReactElement } from 'react';

const WHITE = '#ffffff';

/** Bonk: an impact burst with a bat across it. */
function Bonk(): ReactElement {
  return (
    <g>
      <polygon
        points="0,-19 5,-9 16,-13 11,-3 19,3 8,6 9,18 0,10 -9,18 -8,6 -19,3 -11,-3 -16,-13 -5,-9"
        fill="currentColor"
      />
      <rect x={-4} y={-17} width={8} height={30} rx={4} fill={WHITE} transform="rotate(40)" />
      <rect x={-2} y={-15} width={4} height={26} rx={2} fill="currentColor" transform="rotate(40)" />
    </g>
  );
}

/** Pepe: a wide frog head with two big eyes on top and a long smile. */
function Pepe(): ReactElement {
  return (
    <g>
      <ellipse cx={0} cy={5} rx={19} ry={12} fill="currentColor" />
      <circle cx={-9} cy={-8} r={8} fill="currentColor" />
      <circle cx={9} cy={-8} r={8} fill="currentColor" />
      <circle cx={-9} cy={-8} r={4.5} fill={WHITE} />
      <circle cx={9} cy={-8} r={4.5} fill={WHITE} />
      <path d="M-12 8 Q0 14 12 8" fill="none" stroke={WHITE} strokeWidth={2.5} strokeLinecap="round" />
    </g>
  );
}

/** Solana: three slanted bars. */
function Solana(): ReactElement {
  return (
    <path d="M-12,-16 H18 L12,-9 H-18 Z M-18,-3.5 H12 L18,3.5 H-12 Z M-12,9 H18 L12,16 H-18 Z" fill="currentColor" />
  );
}

/** Popcat: a cat head with pointed ears and a wide-open mouth. */
function Popcat(): ReactElement {
  return (
    <g>
      <path d="M-17,-2 L-15,-19 L-4,-11 Z M17,-2 L15,-19 L4,-11 Z" fill="currentColor" />
      <circle cx={0} cy={3} r={16} fill="currentColor" />
      <circle cx={-6} cy={-2} r={2.5} fill={WHITE} />
      <circle cx={6} cy={-2} r={2.5} fill={WHITE} />
      <ellipse cx={0} cy={9} rx={5} ry={6} fill={WHITE} />
    </g>
  );
}

/** Ponke: a monkey head with round side ears and a pale face. */
function Ponke(): ReactElement {
  return (
    <g>
      <circle cx={-15} cy={0} r={7} fill="currentColor" />
      <circle cx={15} cy={0} r={7} fill="currentColor" />
      <circle cx={0} cy={0} r={15} fill="currentColor" />
      <ellipse cx={0} cy={4} rx={10} ry={8} fill={WHITE} />
      <circle cx={-4} cy={-4} r={2} fill="currentColor" />
      <circle cx={4} cy={-4} r={2} fill="currentColor" />
    </g>
  );
}

/** Wif: a dog's head under a knitted hat with a pom-pom. */
function Wif(): ReactElement {
  return (
    <g>
      <ellipse cx={0} cy={7} rx={15} ry={12} fill="currentColor" />
      <path d="M-16,-1 A16 14 0 0 1 16,-1 Z" fill={WHITE} stroke="currentColor" strokeWidth={3} />
      <circle cx={0} cy={-16} r={4} fill="currentColor" />
      <circle cx={-5} cy={8} r={2} fill={WHITE} />
      <circle cx={5} cy={8} r={2} fill={WHITE} />
    </g>
  );
}

export const LOGO_GLYPHS: Record<CardLogo, () => ReactElement> = { Bonk, Pepe, Solana, Popcat, Ponke, Wif };

export function logoGlyph(logo: string): (() => ReactElement) | undefined {
  return Object.hasOwn(LOGO_GLYPHS, logo) ? LOGO_GLYPHS[logo as CardLogo] : undefined;
}
