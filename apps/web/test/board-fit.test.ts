/**
 * The game screen's card sizes: the largest that let the piles (one row) and the hand fit the space,
 * then grown a pixel at a time toward the next size while they still fit.
 */
import { describe, expect, it } from 'vitest';
import { CARD_WIDTH, cardHeight } from '../src/cards/palette.ts';
import { type BoardSpace, fitCardSizes } from '../src/game/boardFit.ts';

const phone = { boardPadding: 12, pileGap: 12, handGap: 12 };
const wide = { boardPadding: 16, pileGap: 24, handGap: 20 };

function space(over: Partial<BoardSpace>): BoardSpace {
  return { width: 600, height: 500, piles: 3, hand: true, ...wide, ...over };
}

describe('fitCardSizes', () => {
  it('gives a 390 px phone the largest hand whose three cards fit its width, grown to fill the height', () => {
    // 366 px of column: three 120 px cards and their gaps do not fit, three 88 px cards do; the
    // 340 px of height then take piles of 97 and a hand of 98 px (136 and 137 px tall).
    const sizes = fitCardSizes(space({ ...phone, width: 366, height: 340 }));
    expect(sizes).toEqual({ pile: 'lg', hand: 'lg', pileWidth: 97, handWidth: 98 });
    expect([CARD_WIDTH.lg, cardHeight('lg')]).toEqual([88, 123]);
    // With the width to spare, the hand stops at the width three cards and their gaps leave: 114 px.
    expect(fitCardSizes(space({ ...phone, width: 366, height: 600 }))).toMatchObject({ hand: 'lg', handWidth: 114 });
  });

  it('grows no further than the next size up', () => {
    expect(fitCardSizes(space({ width: 2000, height: 2000 }))).toMatchObject({ pileWidth: 160, handWidth: 160 });
    expect(fitCardSizes(space({ width: 420, height: 500 }))).toMatchObject({ hand: 'lg', handWidth: 120 });
  });

  it('takes smaller cards when the height is short', () => {
    expect(fitCardSizes(space({ ...phone, width: 366, height: 250 }))).toMatchObject({ pile: 'md', hand: 'md' });
  });

  it('keeps the hand large and shrinks only the piles when their row is too wide (6 players, 4 piles)', () => {
    expect(fitCardSizes(space({ ...phone, width: 366, height: 340, piles: 4 }))).toMatchObject({
      pile: 'md',
      hand: 'lg',
    });
  });

  it('keeps piles and hand one size with three piles: a narrow desktop column (1024 px) gets lg for both', () => {
    expect(fitCardSizes(space({ width: 432, height: 500 }))).toMatchObject({ pile: 'lg', hand: 'lg' });
  });

  it('gives a desktop centre column at 1280 × 720 the xl cards', () => {
    expect(fitCardSizes(space({ width: 640, height: 430 }))).toMatchObject({ pile: 'xl', hand: 'xl' });
  });

  it('goes up to xxl on a large screen, and a spectator (no hand) gets bigger piles', () => {
    expect(fitCardSizes(space({ width: 900, height: 600 }))).toMatchObject({ pile: 'xxl', hand: 'xxl' });
    expect(fitCardSizes(space({ width: 640, height: 300, hand: false })).pile).toBe('xxl');
  });

  it('falls back to the smallest when nothing fits', () => {
    expect(fitCardSizes(space({ width: 100, height: 50 }))).toEqual({
      pile: 'sm',
      hand: 'sm',
      pileWidth: 48,
      handWidth: 48,
    });
  });

  it('always fits what it picks, grown', () => {
    for (let width = 200; width <= 1000; width += 37) {
      for (let height = 150; height <= 900; height += 41) {
        for (const piles of [2, 3, 4]) {
          const s = space({ width, height, piles });
          const { pile, hand, pileWidth, handWidth } = fitCardSizes(s);
          if (pile === 'sm' && hand === 'sm' && pileWidth === 48) continue;
          expect(pileWidth).toBeGreaterThanOrEqual(CARD_WIDTH[pile]);
          expect(handWidth).toBeGreaterThanOrEqual(CARD_WIDTH[hand]);
          const rowWidth =
            piles * Math.max(pileWidth + 8, CARD_WIDTH[pile] >= 88 ? 84 : 0) +
            (piles - 1) * s.pileGap +
            2 * s.boardPadding;
          expect(rowWidth).toBeLessThanOrEqual(width);
          expect(3 * handWidth + 2 * s.handGap).toBeLessThanOrEqual(width);
          const tall = (w: number) => Math.round((w * 7) / 5);
          expect(tall(pileWidth) + 8 + 20 + 2 * s.boardPadding + tall(handWidth) + 12).toBeLessThanOrEqual(height);
        }
      }
    }
  });
});
