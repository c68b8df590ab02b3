/** The card set: 5 numbers × 6 colors × 6 logos = 180 unique cards. */
export const CARD_NUMBERS = [1, 2, 3, 4, 5] as const;
export const CARD_COLORS = ['Red', 'Blue', 'Green', 'Yellow', 'Orange', 'Purple'] as const;
export const CARD_LOGOS = ['Bonk', 'Pepe', 'Solana', 'Popcat', 'Ponke', 'Wif'] as const;

export type CardNumber = (typeof CARD_NUMBERS)[number];
export type CardColor = (typeof CARD_COLORS)[number];
export type CardLogo = (typeof CARD_LOGOS)[number];

export interface Card {
  /** Unique within one game (copies of the same face get different ids). */
  readonly id: string;
  readonly number: CardNumber;
  readonly color: CardColor;
  readonly logo: CardLogo;
}

export const UNIQUE_CARD_COUNT = CARD_NUMBERS.length * CARD_COLORS.length * CARD_LOGOS.length;

const cardSets: (readonly Card[])[] = [];

/** One copy of the 180 faces, ids suffixed with the copy index. Cards are immutable, so sets are shared. */
export function cardSet(copy: number): readonly Card[] {
  const cached = cardSets[copy];
  if (cached) return cached;
  const cards: Card[] = [];
  for (const number of CARD_NUMBERS) {
    for (const color of CARD_COLORS) {
      for (const logo of CARD_LOGOS) {
        cards.push(Object.freeze({ id: `${number}-${color}-${logo}-${copy}`, number, color, logo }));
      }
    }
  }
  cardSets[copy] = cards;
  return cards;
}

/** The card with this id (`{number}-{color}-{logo}-{copy}`), or undefined for anything else. */
export function cardById(id: string): Card | undefined {
  const copy = Number(id.slice(id.lastIndexOf('-') + 1));
  if (!Number.isInteger(copy) || copy < 0 || copy > 16) return undefined;
  return cardSet(copy).find((card) => card.id === id);
}

/** A card may go on a pile when it shares the number, the color or the logo of the pile's top card. */
export function matches(card: Card, top: Card): boolean {
  return card.number === top.number || card.color === top.color || card.logo === top.logo;
}

/** How a card is named in messages, e.g. "Red 3 Pepe". */
export function formatCard(card: Card): string {
  return `${card.color} ${card.number} ${card.logo}`;
}

/**
 * How many of the 180 faces match at least one of the given tops. It is public information (tops are
 * face up), so a bot may use it to judge how playable a board is for hands it cannot see.
 */
export function boardCoverage(tops: readonly Card[]): number {
  const numbers = new Set<CardNumber>();
  const colors = new Set<CardColor>();
  const logos = new Set<CardLogo>();
  for (const top of tops) {
    numbers.add(top.number);
    colors.add(top.color);
    logos.add(top.logo);
  }
  const unmatched =
    (CARD_NUMBERS.length - numbers.size) * (CARD_COLORS.length - colors.size) * (CARD_LOGOS.length - logos.size);
  return UNIQUE_CARD_COUNT - unmatched;
}
