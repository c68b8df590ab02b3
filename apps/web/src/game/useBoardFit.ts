/**
 * Measures the space the centre column leaves the piles' box and the hand, and picks the card
 * sizes that fit it (boardFit.ts), again whenever the column changes size.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { CARD_WIDTH, type CardSize } from '../cards/palette.ts';
import { type BoardSizes, fitCardSizes } from './boardFit.ts';
import type { Viewport } from './layout.ts';

/** The board's paddings and gaps in px, as GameScreen's classes set them (p-3/gap-3 on phones, p-4/gap-6/gap-5 wider). */
export const BOARD_METRICS: Record<Viewport, { boardPadding: number; pileGap: number; handGap: number }> = {
  mobile: { boardPadding: 12, pileGap: 12, handGap: 12 },
  tablet: { boardPadding: 16, pileGap: 24, handGap: 20 },
  desktop: { boardPadding: 16, pileGap: 24, handGap: 20 },
};

const guess = (size: CardSize): BoardSizes => ({
  pile: size,
  hand: size,
  pileWidth: CARD_WIDTH[size],
  handWidth: CARD_WIDTH[size],
});
const FIRST_GUESS: Record<Viewport, BoardSizes> = { mobile: guess('md'), tablet: guess('lg'), desktop: guess('xl') };

export function useBoardFit(piles: number, hand: boolean, viewport: Viewport) {
  const boardRef = useRef<HTMLDivElement>(null);
  const handRef = useRef<HTMLDivElement>(null);
  const [sizes, setSizes] = useState<BoardSizes>(FIRST_GUESS[viewport]);

  useLayoutEffect(() => {
    const board = boardRef.current;
    const column = board?.parentElement;
    if (!board || !column) return;
    const measure = () => {
      const handHeight = handRef.current?.offsetHeight ?? 0;
      // Everything in the column but the board and the hand (other rows and the gaps between them).
      const rest = column.scrollHeight - board.offsetHeight - handHeight;
      const next = fitCardSizes({
        width: column.clientWidth,
        height: column.clientHeight - rest,
        piles: Math.max(1, piles),
        hand,
        ...BOARD_METRICS[viewport],
      });
      setSizes((now) =>
        now.pileWidth === next.pileWidth &&
        now.handWidth === next.handWidth &&
        now.pile === next.pile &&
        now.hand === next.hand
          ? now
          : next,
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(column);
    observer.observe(board);
    return () => observer.disconnect();
  }, [piles, hand, viewport]);

  return { sizes, boardRef, handRef };
}
