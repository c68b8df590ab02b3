/**
 * /how-to-play (labelled Docs): four tabs — basics, cards, power-ups, winning — with previous/next
 * and dot navigation; the last Next becomes "Play Now" (to /lobby). The cards tab has an
 * interactive matching demo, drawn with the game's own card art, that judges a pick by the engine's
 * own rule.
 */
import * as Tabs from '@radix-ui/react-tabs';
import {
  type Card,
  CARD_COLORS,
  CARD_LOGOS,
  CARD_NUMBERS,
  FREEZE_DURATION_MS,
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  REVERSAL_CARDS,
  TIME_CAP_MS,
  matches,
} from '@memeslam/engine';
import { HOW_TO_PLAY_TEXTS } from '@memeslam/protocol/game-texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { CardFace } from '../cards/Card.tsx';

const TABS = [
  { id: 'basics', label: 'Basics' },
  { id: 'cards', label: 'Cards' },
  { id: 'powerups', label: 'Power-ups' },
  { id: 'winning', label: 'Winning' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const card = (number: Card['number'], color: Card['color'], logo: Card['logo']): Card => ({
  id: `${number}-${color}-${logo}-demo`,
  number,
  color,
  logo,
});
const DEMO_TOP = card(3, 'Blue', 'Pepe');
const DEMO_HAND = [
  card(3, 'Red', 'Bonk'),
  card(5, 'Green', 'Wif'),
  card(1, 'Blue', 'Solana'),
  card(4, 'Orange', 'Pepe'),
];

function MatchingDemo() {
  const [selected, setSelected] = useState<Card | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <section aria-labelledby="demo-title" className="mt-6 rounded-lg border border-edge bg-panel p-4">
      <h3 id="demo-title" className="font-semibold">
        Try it: pick a card, then the pile
      </h3>
      <div className="mt-3 flex flex-wrap items-end gap-6">
        <div>
          <p className="mb-1 text-xs text-muted">Your hand</p>
          <div className="flex gap-2">
            {DEMO_HAND.map((c) => (
              <button
                key={c.id}
                type="button"
                aria-pressed={selected?.id === c.id}
                onClick={() => {
                  setSelected((s) => (s?.id === c.id ? null : c));
                  setMessage(null);
                }}
              >
                <CardFace card={c} size="md" selected={selected?.id === c.id} />
              </button>
            ))}
          </div>
        </div>
        <div>
          <p className="mb-1 text-xs text-muted">Discard pile</p>
          <button
            type="button"
            onClick={() => {
              if (!selected) setMessage(HOW_TO_PLAY_TEXTS.selectCardFirst);
              else
                setMessage(
                  matches(selected, DEMO_TOP) ? HOW_TO_PLAY_TEXTS.correctMatch : HOW_TO_PLAY_TEXTS.notValidMatch,
                );
            }}
          >
            <span className="sr-only">Discard pile, top card</span>
            <CardFace card={DEMO_TOP} size="md" />
          </button>
        </div>
      </div>
      <p role="status" aria-live="polite" className="mt-3 min-h-6 font-semibold">
        {message}
      </p>
    </section>
  );
}

export function HowToPlay() {
  const [tab, setTab] = useState<TabId>('basics');
  const index = TABS.findIndex((t) => t.id === tab);
  const last = index === TABS.length - 1;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-4xl font-bold">How to Play</h1>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as TabId)} className="mt-6">
        <Tabs.List aria-label="Guide" className="flex gap-1 border-b border-edge">
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.id}
              value={t.id}
              className="px-4 py-2 text-sm text-muted data-[state=active]:border-b-2 data-[state=active]:border-gold data-[state=active]:text-white"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="basics" className="space-y-3 py-6">
          <p>
            MemeSlam is played by {MIN_PLAYERS} to {MAX_PLAYERS} players at the same time: there are no turns.
          </p>
          <p>
            Everyone starts with their cards split into a visible hand of {HAND_SIZE} and a hidden deck. Play a hand
            card onto any discard pile whose top card matches it; your hand refills from your deck.
          </p>
        </Tabs.Content>
        <Tabs.Content value="cards" className="space-y-3 py-6">
          <p>
            Every card has a number ({CARD_NUMBERS.join(', ')}), a color ({CARD_COLORS.join(', ')}) and a crypto-meme
            logo ({CARD_LOGOS.join(', ')}).
          </p>
          <p>A card matches a pile when it shares the number, OR the color, OR the logo of the pile's top card.</p>
          <MatchingDemo />
        </Tabs.Content>
        <Tabs.Content value="powerups" className="py-6">
          <ul className="space-y-2">
            <li>
              <strong>Bomb</strong>: plays the top card of your deck directly.
            </li>
            <li>
              <strong>Reversal</strong>: adds {REVERSAL_CARDS} cards to each opponent's deck.
            </li>
            <li>
              <strong>Freeze</strong>: stops one opponent for {FREEZE_DURATION_MS / 1000} seconds.
            </li>
            <li>
              <strong>Whirlwind</strong>: shuffles all discard piles, giving new top cards.
            </li>
            <li>
              <strong>Sniper</strong>: plays any card, ignoring the matching rule.
            </li>
          </ul>
          <p className="mt-3 text-muted">Each power-up can be used once per game.</p>
        </Tabs.Content>
        <Tabs.Content value="winning" className="space-y-3 py-6">
          <p>The first player to play every card from hand and deck wins.</p>
          <p>
            If nobody can play, the game resolves the deadlock by flipping new cards onto the piles. After{' '}
            {TIME_CAP_MS / 60_000} minutes the player with the fewest cards left wins.
          </p>
        </Tabs.Content>
      </Tabs.Root>
      <nav aria-label="Guide pages" className="flex items-center justify-between">
        <button
          type="button"
          disabled={index === 0}
          onClick={() => setTab(TABS[index - 1]?.id ?? 'basics')}
          className="rounded-lg border border-edge px-4 py-2 disabled:opacity-40"
        >
          Previous
        </button>
        <div className="flex gap-2">
          {TABS.map((t, k) => (
            <button
              key={t.id}
              type="button"
              aria-label={`Go to ${t.label}`}
              aria-current={k === index ? 'step' : undefined}
              onClick={() => setTab(t.id)}
              className={`h-3 w-3 rounded-full ${k === index ? 'bg-gold' : 'bg-edge'}`}
            />
          ))}
        </div>
        {last ? (
          <Link to="/lobby" className="rounded-lg bg-brand px-4 py-2 font-semibold text-white">
            {HOW_TO_PLAY_TEXTS.playNow}
          </Link>
        ) : (
          <button
            type="button"
            onClick={() => setTab(TABS[index + 1]?.id ?? 'winning')}
            className="rounded-lg bg-brand px-4 py-2 font-semibold text-white"
          >
            Next
          </button>
        )}
      </nav>
    </main>
  );
}
