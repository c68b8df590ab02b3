/**
 * The centre of the game screen: the numbered discard piles (click one to play the selected card;
 * each shows up to its 3 top cards) and the hand of up to 3 cards with placeholders for empty slots.
 */
import { type Card, HAND_SIZE, formatCard } from '@memeslam/engine';
import { CardFace, EmptyCardSlot, type CardSize } from '../cards/Card.tsx';
import { longPileLabel } from './boardFit.ts';
import { PILE_KEYS, cardKeyLabel } from './keys.ts';
import { playablePiles } from './rules.ts';

export function Piles({
  piles,
  pileSizes,
  selected,
  sniper,
  size,
  width,
  disabled,
  onPile,
  changed = [],
}: {
  piles: readonly (readonly Card[])[];
  pileSizes: readonly number[];
  selected: Card | null;
  sniper: boolean;
  size: CardSize;
  /** The cards' drawn width in px (boardFit.ts). */
  width: number;
  disabled: boolean;
  onPile(index: number): void;
  /** Piles the player's own power-up just changed: marked for a moment (ownEffect.ts). */
  changed?: readonly number[];
}) {
  const targets = selected ? (sniper ? piles.map((_, i) => i) : playablePiles(selected, piles)) : [];
  return (
    <ol className="flex items-end justify-center gap-3 md:gap-6" aria-label="Discard piles">
      {piles.map((pile, index) => {
        const top = pile.at(-1);
        const target = targets.includes(index);
        const label = `Pile ${index + 1}${top ? `: ${formatCard(top)} on top` : ': empty'}${
          pileSizes[index] !== undefined ? `, ${pileSizes[index]} cards` : ''
        }`;
        return (
          <li key={index} className="flex flex-col items-center gap-1">
            <button
              type="button"
              data-pile={index}
              data-top={top?.id}
              data-cards={pile.map((c) => c.id).join(' ')}
              data-target={target || undefined}
              data-changed={changed.includes(index) || undefined}
              aria-keyshortcuts={PILE_KEYS[index]?.label}
              disabled={disabled}
              onClick={() => onPile(index)}
              className={`relative rounded-xl p-1 transition ${
                target
                  ? 'ring-4 ring-green-400/80 motion-safe:animate-pulse'
                  : changed.includes(index)
                    ? 'ring-4 ring-gold/80'
                    : 'ring-2 ring-transparent hover:ring-brand'
              } disabled:cursor-default`}
            >
              {/* The name is the text, not the drawn cards: what is seen and what is read agree. */}
              <span className="sr-only">{label}</span>
              <span className="relative block" aria-hidden="true">
                {pile.map((card, i) => {
                  const depth = pile.length - 1 - i;
                  return (
                    <span
                      key={card.id}
                      className={i === pile.length - 1 ? 'relative block' : 'absolute inset-0 block'}
                      style={depth > 0 ? { transform: `rotate(${depth * (index % 2 ? 4 : -4)}deg)` } : undefined}
                    >
                      <CardFace card={card} size={size} width={width} />
                    </span>
                  );
                })}
                {!top && <EmptyCardSlot size={size} width={width} />}
              </span>
            </button>
            <span className="h-4 whitespace-nowrap text-xs leading-4 text-muted">
              <kbd className="rounded border border-edge px-1 font-mono pointer-coarse:hidden">
                {PILE_KEYS[index]?.label}
              </kbd>
              {/* The pile's number, from 1 on the left; the key beside it (not on touch screens). */}
              {longPileLabel(size) ? ` Pile ${index + 1}` : ` ${index + 1}`}
              {pileSizes[index] !== undefined && ` · ${pileSizes[index]}`}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function Hand({
  hand,
  selectedId,
  piles,
  size,
  width,
  disabled,
  onSelect,
}: {
  hand: readonly Card[];
  selectedId: string | null;
  piles: readonly (readonly Card[])[];
  size: CardSize;
  /** The cards' drawn width in px (boardFit.ts). */
  width: number;
  disabled: boolean;
  onSelect(cardId: string): void;
}) {
  return (
    // pt-3 keeps the selected card's lift (HAND_LIFT in boardFit.ts) inside the row.
    <ol className="flex justify-center gap-3 pt-3 md:gap-5" aria-label="Your hand">
      {Array.from({ length: HAND_SIZE }, (_, slot) => {
        const card = hand[slot];
        if (!card) {
          return (
            <li key={`empty-${slot}`} aria-label="Empty hand slot">
              <EmptyCardSlot size={size} width={width} />
            </li>
          );
        }
        const isSelected = card.id === selectedId;
        const playable = playablePiles(card, piles).length > 0;
        return (
          <li key={card.id} className="group relative">
            {/* Named by its card's image, then the rest in words; the key hint sits outside the button. */}
            <button
              type="button"
              aria-pressed={isSelected}
              aria-keyshortcuts={cardKeyLabel(slot)}
              data-hand-card={card.id}
              data-playable={playable || undefined}
              disabled={disabled}
              onClick={() => onSelect(card.id)}
              className={`relative block rounded-xl transition-transform motion-reduce:transition-none ${
                isSelected ? '-translate-y-3 ring-4 ring-gold' : 'group-hover:-translate-y-1'
              } disabled:cursor-not-allowed`}
            >
              <CardFace card={card} size={size} width={width} selected={isSelected} dimmed={!playable && !isSelected} />
              <span className="sr-only">{`${playable ? ', playable' : ''} (key ${cardKeyLabel(slot)})`}</span>
            </button>
            <kbd
              aria-hidden="true"
              className={`pointer-events-none absolute -top-2 -left-2 rounded-full pointer-coarse:hidden border border-edge bg-ink px-1.5 font-mono text-xs transition-transform motion-reduce:transition-none ${
                isSelected ? '-translate-y-3' : 'group-hover:-translate-y-1'
              }`}
            >
              {cardKeyLabel(slot)}
            </kbd>
          </li>
        );
      })}
    </ol>
  );
}
