/** The three-step how-to-play, each with a small picture in the game's own card art, and the way to the full guide. */
import { type Card, DEFAULT_CARDS_PER_PLAYER, HAND_SIZE } from '@memeslam/engine';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CardFace, EmptyCardSlot } from '../cards/Card.tsx';
import { LandingIcon } from './icons.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { CONTAINER, SECTION_LINK } from './styles.ts';

const card = (number: Card['number'], color: Card['color'], logo: Card['logo']): Card => ({
  id: `${number}-${color}-${logo}-step`,
  number,
  color,
  logo,
});

const HAND = [card(4, 'Green', 'Wif'), card(3, 'Red', 'Bonk'), card(1, 'Yellow', 'Solana')];
const PILE_TOP = card(3, 'Blue', 'Pepe');

const PICTURES: readonly ReactNode[] = [
  <div key="hand" className="flex items-end gap-1.5">
    {HAND.map((c) => (
      <CardFace key={c.id} card={c} size="sm" />
    ))}
  </div>,
  <div key="match" className="flex items-center gap-2">
    <CardFace card={HAND[1] ?? PILE_TOP} size="sm" />
    <LandingIcon name="arrow" className="size-5 text-gold" />
    <CardFace card={PILE_TOP} size="sm" />
  </div>,
  <div key="win" className="flex items-center gap-1.5">
    <EmptyCardSlot size="sm" />
    <EmptyCardSlot size="sm" />
    <span className="ml-1 rounded-full bg-gold/15 p-2.5 text-gold">
      <LandingIcon name="trophy" className="size-7" />
    </span>
  </div>,
];

const STEPS = [
  {
    title: 'Get your cards',
    text: `Every player gets ${DEFAULT_CARDS_PER_PLAYER} cards: ${HAND_SIZE} in hand, the rest in a hidden deck.`,
  },
  {
    title: 'Match and slam',
    text: 'Play a hand card on any discard pile whose top card shares its number, color or logo. No turns: everyone plays at once.',
  },
  {
    title: 'Empty your deck first',
    text: 'Your hand refills from your deck. Play every card before the others to win, with five one-use power-ups to help.',
  },
] as const;

export function Steps() {
  return (
    <section aria-labelledby="steps-title" className="border-y border-edge bg-panel/40">
      <div className={`${CONTAINER} py-16 md:py-20`}>
        <SectionHeading id="steps-title" eyebrow="How to play" title="Three steps to your first win" />
        <ol className="mt-10 grid gap-4 lg:grid-cols-3">
          {STEPS.map(({ title, text }, i) => (
            <li key={title} className="rounded-2xl border border-edge bg-ink p-6">
              <div className="flex h-20 items-center justify-between gap-3">
                <span
                  aria-hidden="true"
                  className="flex size-10 flex-none items-center justify-center rounded-full bg-gold text-lg font-extrabold text-ink"
                >
                  {i + 1}
                </span>
                <div aria-hidden="true">{PICTURES[i]}</div>
              </div>
              <h3 className="mt-4 text-lg font-bold">{title}</h3>
              <p className="mt-1 text-muted">{text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8">
          <Link to="/how-to-play" className={SECTION_LINK}>
            Read the full guide
            <LandingIcon name="arrow" className="size-4" />
          </Link>
        </p>
      </div>
    </section>
  );
}
