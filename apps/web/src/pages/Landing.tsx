import { CARD_COLORS, CARD_LOGOS, CARD_NUMBERS, MAX_PLAYERS, MIN_PLAYERS, UNIQUE_CARD_COUNT } from '@memeslam/engine';
import { Link } from 'react-router';
import { useSession } from '../auth/session.ts';

const STEPS = [
  'Every player gets 30 cards: 3 in hand, the rest in a hidden deck.',
  'Play a hand card on any discard pile whose top card shares its number, color or logo. No turns: everyone plays at once.',
  'Empty your hand and deck first to win. Five one-use power-ups help: Bomb, Reversal, Freeze, Whirlwind and Sniper.',
];

/** The public front page. */
export function Landing() {
  const { user, isAuthenticated } = useSession();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <header>
        <h1 className="bg-gradient-to-r from-brand to-gold bg-clip-text text-5xl font-extrabold text-transparent">
          MemeSlam
        </h1>
        <p className="mt-2 text-xl text-violet-300">The real-time crypto-meme card game. Match fast, slam first.</p>
        <div className="mt-6 flex flex-wrap gap-3">
          {isAuthenticated && user ? (
            <>
              <p className="w-full text-lg">Welcome, {user.username}!</p>
              <Link to="/dashboard" className="rounded-lg bg-brand px-5 py-3 font-semibold text-white">
                Go to Dashboard
              </Link>
            </>
          ) : (
            <>
              <Link to="/register" className="rounded-lg bg-brand px-5 py-3 font-semibold text-white">
                Start Playing Free
              </Link>
              <Link to="/login" className="rounded-lg border border-edge px-5 py-3">
                Sign In
              </Link>
            </>
          )}
        </div>
      </header>
      <section aria-label="Game facts" className="my-8 grid grid-cols-3 gap-4 text-center">
        <div className="rounded-xl bg-panel p-4">
          <strong className="block text-3xl">{UNIQUE_CARD_COUNT}</strong> unique cards
        </div>
        <div className="rounded-xl bg-panel p-4">
          <strong className="block text-3xl">{CARD_LOGOS.length}</strong> crypto memes
        </div>
        <div className="rounded-xl bg-panel p-4">
          <strong className="block text-3xl">
            {MIN_PLAYERS}-{MAX_PLAYERS}
          </strong>{' '}
          players
        </div>
      </section>
      <section aria-labelledby="how-to-play">
        <h2 id="how-to-play" className="text-2xl font-bold">
          How to play
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-6">
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="mt-4 text-muted">
          Numbers {CARD_NUMBERS[0]} to {CARD_NUMBERS[CARD_NUMBERS.length - 1]}; colors {CARD_COLORS.join(', ')}; logos{' '}
          {CARD_LOGOS.join(', ')}.
        </p>
      </section>
    </main>
  );
}
