/**
 * Keyboard play. Every key means one thing whatever is selected, so a refused play (its card stays
 * selected for a retry) never turns the next card key into a throw at a pile: the number row's 1–3
 * pick a hand card, the right hand's home row J K L ; picks a pile, B R F W S a power-up, Escape
 * clears. Cards and piles go by the key's place on the keyboard (`KeyboardEvent.code`), so they sit
 * in the same spot on every layout; power-ups by their letter, which names them.
 */
import { HAND_SIZE, type PowerUpType } from '@memeslam/engine';

export const POWER_UP_KEYS: Record<PowerUpType, string> = {
  BOMB: 'b',
  REVERSAL: 'r',
  FREEZE: 'f',
  WHIRLWIND: 'w',
  SNIPER: 's',
};

/** The piles' keys, left to right (a game has at most 4 piles), as shown on the board. */
export const PILE_KEYS = [
  { code: 'KeyJ', label: 'J' },
  { code: 'KeyK', label: 'K' },
  { code: 'KeyL', label: 'L' },
  { code: 'Semicolon', label: ';' },
] as const;

/** The label of hand slot `slot`'s key. */
export const cardKeyLabel = (slot: number): string => String(slot + 1);

export type KeyAction =
  | { readonly kind: 'card'; readonly slot: number }
  | { readonly kind: 'pile'; readonly index: number }
  | { readonly kind: 'powerUp'; readonly type: PowerUpType }
  | { readonly kind: 'clear' };

const CARD_CODE = /^(?:Digit|Numpad)([1-9])$/;

/** What a key press asks for (`key` and `code` of the KeyboardEvent), or null for any other key. */
export function keyAction(key: string, code: string): KeyAction | null {
  if (key === 'Escape') return { kind: 'clear' };
  const digit = CARD_CODE.exec(code)?.[1];
  if (digit !== undefined) {
    const slot = Number(digit) - 1;
    return slot < HAND_SIZE ? { kind: 'card', slot } : null;
  }
  const pile = PILE_KEYS.findIndex((k) => k.code === code);
  if (pile >= 0) return { kind: 'pile', index: pile };
  const letter = key.toLowerCase();
  const type = (Object.keys(POWER_UP_KEYS) as PowerUpType[]).find((t) => POWER_UP_KEYS[t] === letter);
  return type ? { kind: 'powerUp', type } : null;
}

/** The keys line for a board of `piles` piles, e.g. "Keys: 1–3 card · J K L pile · B R F W S power-up · Esc clears". */
export function keysLegend(piles: number): string {
  const pileKeys = PILE_KEYS.slice(0, piles)
    .map((k) => k.label)
    .join(' ');
  const powerUps = Object.values(POWER_UP_KEYS).join(' ').toUpperCase();
  return `Keys: 1–${HAND_SIZE} card · ${pileKeys} pile · ${powerUps} power-up · Esc clears`;
}
