/** The landing hero's rotating cards: every card may legally go on the one before it. */
import { CARD_COLORS, CARD_LOGOS, CARD_NUMBERS, matches } from '@memeslam/engine';
import { describe, expect, it } from 'vitest';
import { HERO_PERIOD, heroCard, heroMatch } from '../src/landing/heroCards.ts';

describe('heroCard', () => {
  it('matches the card before by exactly the attribute it names, and no other', () => {
    for (let n = 1; n < 3 * HERO_PERIOD; n += 1) {
      const [under, card] = [heroCard(n - 1), heroCard(n)];
      expect(matches(card, under)).toBe(true);
      const same = {
        number: card.number === under.number,
        color: card.color === under.color,
        logo: card.logo === under.logo,
      };
      expect(same).toEqual({ number: false, color: false, logo: false, [heroMatch(n)]: true });
    }
  });

  it('takes turns matching by number, color and logo', () => {
    expect([1, 2, 3, 4].map(heroMatch)).toEqual(['number', 'color', 'logo', 'number']);
  });

  it('shows real faces of the set, varied, and repeats after its period', () => {
    const faces = new Set<string>();
    for (let n = 0; n < HERO_PERIOD; n += 1) {
      const card = heroCard(n);
      expect(CARD_NUMBERS).toContain(card.number);
      expect(CARD_COLORS).toContain(card.color);
      expect(CARD_LOGOS).toContain(card.logo);
      faces.add(`${card.number}-${card.color}-${card.logo}`);
    }
    expect(faces.size).toBe(HERO_PERIOD);
    const again = heroCard(HERO_PERIOD + 7);
    const first = heroCard(7);
    expect([again.number, again.color, again.logo]).toEqual([first.number, first.color, first.logo]);
  });

  it('gives each card of the sequence its own id', () => {
    expect(heroCard(3).id).not.toBe(heroCard(3 + HERO_PERIOD).id);
  });
});
