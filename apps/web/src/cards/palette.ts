/**
 * How each card color is drawn. Color is never the only cue (for color-blind players): every color
 * also has its own corner mark, and the number and logo are always on the card.
 */
import type { CardColor } from '@memeslam/engine';
import type { CARD_SIZES } from '@memeslam/protocol/constants';

export type CardSize = (typeof CARD_SIZES)[number];

/** Width in CSS pixels; cards are 5:7. */
export const CARD_WIDTH: Record<CardSize, number> = { xs: 32, sm: 48, md: 64, lg: 88, xl: 120, xxl: 160 };

export function cardHeight(size: CardSize): number {
  return Math.round((CARD_WIDTH[size] * 7) / 5);
}

export type MarkShape = 'circle' | 'square' | 'triangle' | 'star' | 'diamond' | 'cross';

export interface ColorStyle {
  /** The card's face. */
  readonly base: string;
  /** Edge, and the logo on its white disc: dark enough to read on white. */
  readonly dark: string;
  /** Number and mark on the face: white, or ink where white would not read (yellow). */
  readonly ink: string;
  readonly mark: MarkShape;
}

export const COLOR_STYLES: Record<CardColor, ColorStyle> = {
  Red: { base: '#dc2626', dark: '#7f1d1d', ink: '#ffffff', mark: 'circle' },
  Blue: { base: '#2563eb', dark: '#1e3a8a', ink: '#ffffff', mark: 'square' },
  Green: { base: '#15803d', dark: '#14532d', ink: '#ffffff', mark: 'triangle' },
  Yellow: { base: '#facc15', dark: '#854d0e', ink: '#1c1917', mark: 'star' },
  Orange: { base: '#f97316', dark: '#9a3412', ink: '#1c1917', mark: 'diamond' },
  Purple: { base: '#9333ea', dark: '#4c1d95', ink: '#ffffff', mark: 'cross' },
};

export function colorStyle(color: string): ColorStyle | undefined {
  return Object.hasOwn(COLOR_STYLES, color) ? COLOR_STYLES[color as CardColor] : undefined;
}
