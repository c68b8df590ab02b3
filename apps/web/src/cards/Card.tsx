/**
 * Card art drawn in code, so no card ever waits on an image. Each face shows
 * its number in two corners, its color's own mark in the other two (so color is never the only cue)
 * and its logo on a white disc; from size lg up the logo's name is written under it. Pure and
 * presentational: about 20 SVG nodes a card, no state.
 */
import { type Card, formatCard } from '@memeslam/engine';
import type { ReactElement } from 'react';
import { logoGlyph } from './logos.tsx';
import { CARD_WIDTH, type CardSize, type ColorStyle, type MarkShape, cardHeight, colorStyle } from './palette.ts';

export type { CardSize } from './palette.ts';

const FONT = 'system-ui, "Segoe UI", Roboto, sans-serif';
const GOLD = '#f59e0b';
/** The drawing box: every size scales the same 100 × 140 drawing. */
const VIEW_BOX = '0 0 100 140';

interface FaceProps {
  readonly card: Card;
  readonly size?: CardSize;
  /** Drawn at this width in px (5:7) instead of the size's own; the size still sets the layout. */
  readonly width?: number;
  readonly selected?: boolean;
  readonly dimmed?: boolean;
  readonly className?: string;
}

function dimensions(size: CardSize, width?: number): { width: number; height: number } {
  return width === undefined
    ? { width: CARD_WIDTH[size], height: cardHeight(size) }
    : { width, height: Math.round((width * 7) / 5) };
}

/** A color's corner mark, centred on (x, y), about 16 units across times `scale`. */
function Mark({ shape, x, y, scale, fill }: { shape: MarkShape; x: number; y: number; scale: number; fill: string }) {
  const transform = `translate(${x} ${y}) scale(${scale})`;
  switch (shape) {
    case 'circle':
      return <circle transform={transform} r={7.5} fill={fill} />;
    case 'square':
      return <rect transform={transform} x={-7} y={-7} width={14} height={14} fill={fill} />;
    case 'triangle':
      return <polygon transform={transform} points="0,-8.5 8.5,7 -8.5,7" fill={fill} />;
    case 'star':
      return (
        <polygon
          transform={transform}
          points="0,-9 2.6,-3 9,-3 4,1.5 5.8,8.5 0,4.6 -5.8,8.5 -4,1.5 -9,-3 -2.6,-3"
          fill={fill}
        />
      );
    case 'diamond':
      return <polygon transform={transform} points="0,-9 7.5,0 0,9 -7.5,0" fill={fill} />;
    case 'cross':
      return (
        <path transform={transform} d="M-2.8,-8 H2.8 V-2.8 H8 V2.8 H2.8 V8 H-2.8 V2.8 H-8 V-2.8 H-2.8 Z" fill={fill} />
      );
  }
}

/**
 * Where things go in the 100 × 140 drawing. Small cards drop the mirrored corners and grow the
 * number, mark and logo instead, so a 32 px card still reads; large ones add the logo's name.
 */
interface Layout {
  readonly numberSize: number;
  readonly numberY: number;
  readonly markScale: number;
  readonly mirrored: boolean;
  readonly disc: { readonly y: number; readonly r: number; readonly glyphScale: number };
  readonly named: boolean;
}

const COMPACT: Layout = {
  numberSize: 50,
  numberY: 46,
  markScale: 1.6,
  mirrored: false,
  disc: { y: 94, r: 38, glyphScale: 1.55 },
  named: false,
};
const REGULAR: Layout = {
  numberSize: 34,
  numberY: 33,
  markScale: 1,
  mirrored: true,
  disc: { y: 72, r: 33, glyphScale: 1.35 },
  named: false,
};
const NAMED: Layout = {
  numberSize: 34,
  numberY: 33,
  markScale: 1,
  mirrored: true,
  disc: { y: 62, r: 27, glyphScale: 1.1 },
  named: true,
};

function layoutFor(size: CardSize): Layout {
  if (size === 'xs' || size === 'sm') return COMPACT;
  return size === 'md' ? REGULAR : NAMED;
}

function Frame({ style, selected }: { style: ColorStyle; selected: boolean }): ReactElement {
  return (
    <>
      <rect x={2} y={2} width={96} height={136} rx={10} fill={style.base} stroke={style.dark} strokeWidth={3} />
      {selected && <rect x={1.5} y={1.5} width={97} height={137} rx={10.5} fill="none" stroke={GOLD} strokeWidth={5} />}
    </>
  );
}

/** The face of a card; an unknown color or logo falls back to the text tile. */
export function CardFace({
  card,
  size = 'md',
  width: drawnWidth,
  selected = false,
  dimmed = false,
  className,
}: FaceProps): ReactElement {
  const style = colorStyle(card.color);
  const Glyph = logoGlyph(card.logo);
  if (!style || !Glyph) return <CardTextTile card={card} size={size} width={drawnWidth} />;
  const { width, height } = dimensions(size, drawnWidth);
  const layout = layoutFor(size);
  const { disc } = layout;
  const numberText = {
    fontFamily: FONT,
    fontWeight: 800,
    fontSize: layout.numberSize,
    fill: style.ink,
    stroke: style.dark,
    strokeWidth: style.ink === '#ffffff' ? 2 : 0,
    paintOrder: 'stroke',
  } as const;
  const markX = 100 - 10 - 8 * layout.markScale;
  const markY = 10 + 9 * layout.markScale;
  return (
    <svg
      role="img"
      aria-label={formatCard(card)}
      width={width}
      height={height}
      viewBox={VIEW_BOX}
      className={className}
      data-card={card.id}
      style={{ opacity: dimmed ? 0.4 : 1, display: 'block', flex: 'none' }}
    >
      <Frame style={style} selected={selected} />
      <text x={9} y={layout.numberY} {...numberText}>
        {card.number}
      </text>
      <Mark shape={style.mark} x={markX} y={markY} scale={layout.markScale} fill={style.ink} />
      {layout.mirrored && (
        <>
          <text x={9} y={layout.numberY} {...numberText} transform="rotate(180 50 70)">
            {card.number}
          </text>
          <Mark shape={style.mark} x={100 - markX} y={140 - markY} scale={layout.markScale} fill={style.ink} />
        </>
      )}
      <circle cx={50} cy={disc.y} r={disc.r} fill="#ffffff" stroke={style.dark} strokeWidth={2} />
      <g transform={`translate(50 ${disc.y}) scale(${disc.glyphScale})`} color={style.dark}>
        <Glyph />
      </g>
      {layout.named && (
        <text
          x={50}
          y={103}
          textAnchor="middle"
          fontFamily={FONT}
          fontWeight={700}
          fontSize={12}
          fill={style.ink}
          letterSpacing={0.5}
        >
          {card.logo.toUpperCase()}
        </text>
      )}
    </svg>
  );
}

/** A face-down card. */
export function CardBack({ size = 'md' }: { readonly size?: CardSize }): ReactElement {
  const { width, height } = dimensions(size);
  return (
    <svg
      role="img"
      aria-label="Card back"
      width={width}
      height={height}
      viewBox={VIEW_BOX}
      style={{ display: 'block', flex: 'none' }}
    >
      <rect x={2} y={2} width={96} height={136} rx={10} fill="#2e1065" stroke="#a855f7" strokeWidth={3} />
      <rect
        x={10}
        y={10}
        width={80}
        height={120}
        rx={6}
        fill="none"
        stroke="#7c3aed"
        strokeWidth={2}
        strokeDasharray="6 4"
      />
      <polygon points="50,34 78,70 50,106 22,70" fill="#a855f7" />
      <polygon points="50,50 66,70 50,90 34,70" fill="#f59e0b" />
    </svg>
  );
}

/** An empty slot: a hand slot with no card, or a pile with none (a dashed outline). */
export function EmptyCardSlot({
  size = 'md',
  width: drawnWidth,
}: {
  readonly size?: CardSize;
  readonly width?: number;
}): ReactElement {
  const { width, height } = dimensions(size, drawnWidth);
  return (
    <svg
      role="img"
      aria-label="Empty card slot"
      width={width}
      height={height}
      viewBox={VIEW_BOX}
      style={{ display: 'block', flex: 'none' }}
    >
      <rect
        x={3}
        y={3}
        width={94}
        height={134}
        rx={10}
        fill="none"
        stroke="#3b2f63"
        strokeWidth={3}
        strokeDasharray="8 6"
      />
    </svg>
  );
}

/** The fallback: a tile in the card's color with its number, color and logo as text. */
export function CardTextTile({
  card,
  size = 'md',
  width: drawnWidth,
}: {
  readonly card: Card;
  readonly size?: CardSize;
  readonly width?: number;
}): ReactElement {
  const { width, height } = dimensions(size, drawnWidth);
  const style = colorStyle(card.color);
  const small = size === 'xs' || size === 'sm';
  return (
    <div
      role="img"
      aria-label={formatCard(card)}
      data-card={card.id}
      style={{
        width,
        height,
        flex: 'none',
        boxSizing: 'border-box',
        borderRadius: Math.max(4, width / 10),
        border: `2px solid ${style?.dark ?? '#3b2f63'}`,
        background: style?.base ?? '#1e1638',
        color: style?.ink ?? '#f3f0ff',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        fontFamily: FONT,
        lineHeight: 1.1,
        textAlign: 'center',
      }}
    >
      <span style={{ fontWeight: 800, fontSize: width * 0.4 }}>{card.number}</span>
      <span style={{ fontSize: Math.max(8, width * (small ? 0.2 : 0.15)), fontWeight: 600 }}>
        {small ? card.color.slice(0, 3) : card.color}
      </span>
      <span style={{ fontSize: Math.max(8, width * (small ? 0.2 : 0.15)) }}>
        {small ? card.logo.slice(0, 4) : card.logo}
      </span>
    </div>
  );
}
