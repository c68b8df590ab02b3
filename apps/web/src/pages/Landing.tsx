import { CARD_COLORS, CARD_LOGOS, CARD_NUMBERS, MAX_PLAYERS, MIN_PLAYERS, UNIQUE_CARD_COUNT } from '@memeslam/engine';

const STEPS = [
  'Every player gets 30 cards: 3 in hand, the rest in a hidden deck.',
  'Play a hand card on any discard pile whose top card shares its number, color or logo. No turns: everyone plays at once.',
  'Empty your hand and deck first to win. Five one-use power-ups help: Bomb, Reversal, Freeze, Whirlwind and Sniper.',
];

/** The public front page. */
export function Landing() {
  return (
    <main className="landing">
      <header>
        <h1>MemeSlam</h1>
        <p className="tagline">The real-time crypto-meme card game. Match fast, slam first.</p>
      </header>
      <section aria-label="Game facts" className="facts">
        <div>
          <strong>{UNIQUE_CARD_COUNT}</strong> unique cards
        </div>
        <div>
          <strong>{CARD_LOGOS.length}</strong> crypto memes
        </div>
        <div>
          <strong>
            {MIN_PLAYERS}-{MAX_PLAYERS}
          </strong>{' '}
          players
        </div>
      </section>
      <section aria-labelledby="how-to-play">
        <h2 id="how-to-play">How to play</h2>
        <ol>
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="deck-facts">
          Numbers {CARD_NUMBERS[0]} to {CARD_NUMBERS[CARD_NUMBERS.length - 1]}; colors {CARD_COLORS.join(', ')}; logos{' '}
          {CARD_LOGOS.join(', ')}.
        </p>
      </section>
    </main>
  );
}
