/**
 * The landing hero: name, promise, the signed-in welcome or the visitor's ways in (an account, or a
 * game at once as a guest), the
 * community and share buttons, and the rotating sample cards.
 */
import { MARKETING } from '@memeslam/protocol/constants';
import { Suspense, lazy, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../auth/session.ts';
import { HeroCards } from './HeroCards.tsx';
import { CommunityLink, ShareButtons } from './ShareButtons.tsx';
import { CONTAINER, PRIMARY_BUTTON, SECONDARY_BUTTON } from './styles.ts';

export function Hero() {
  const { user, isAuthenticated } = useSession();
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden border-b border-edge bg-[radial-gradient(ellipse_70%_60%_at_75%_35%,rgb(168_85_247/0.22),transparent),radial-gradient(ellipse_50%_40%_at_10%_90%,rgb(245_158_11/0.10),transparent)]"
    >
      <div
        className={`${CONTAINER} grid items-center gap-8 py-12 md:py-16 lg:grid-cols-[1.3fr_1fr] lg:gap-10 lg:py-24`}
      >
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-edge bg-panel/70 px-3 py-1 text-sm text-muted">
            <span className="size-2 rounded-full bg-emerald-400" aria-hidden="true" />
            Free to play in your browser
          </p>
          <h1
            id="hero-title"
            className="mt-5 bg-gradient-to-r from-brand via-fuchsia-400 to-gold bg-clip-text pb-1 text-5xl font-extrabold tracking-tight text-transparent md:text-7xl"
          >
            MemeSlam
          </h1>
          <p className="mt-3 text-2xl font-bold text-balance md:text-3xl">
            The real-time <span className="whitespace-nowrap">crypto-meme</span> card game.
          </p>
          <p className="mx-auto mt-4 max-w-xl text-base text-muted md:text-lg lg:mx-0">
            {MARKETING.minPlayers} to {MARKETING.maxPlayers} players slam cards onto shared piles at the same time, with
            no turns. Match the top card by number, color or logo, fire your power-ups, and empty your deck first. Games
            last {MARKETING.gameMinutes.min} to {MARKETING.gameMinutes.max} minutes.
          </p>
          <div className="mt-8 flex flex-wrap items-center justify-center gap-3 lg:justify-start">
            {isAuthenticated && user ? (
              <>
                <p className="w-full text-lg sm:mr-2 sm:w-auto">
                  Welcome back, <strong className="text-gold">{user.username}</strong>!
                </p>
                <Link to="/dashboard" className={PRIMARY_BUTTON}>
                  Go to Dashboard
                </Link>
              </>
            ) : (
              <>
                <Link to="/register" className={PRIMARY_BUTTON}>
                  Start Playing Free
                </Link>
                <Link to="/login" className={SECONDARY_BUTTON}>
                  Sign In
                </Link>
                <GuestButton />
              </>
            )}
          </div>
          <div className="mt-6 flex flex-wrap justify-center gap-2 lg:justify-start">
            <CommunityLink />
            <ShareButtons />
          </div>
        </div>
        <HeroCards />
      </div>
    </section>
  );
}

/** Loaded only once the server puts a guest in line: its texts stay out of the landing page's first load. */
const BusyLine = lazy(() => import('../components/BusyLine.tsx').then((module) => ({ default: module.BusyLine })));

/**
 * One click to play, no form: a guest account (which can become a real one later, keeping its games).
 * A busy server's 503 with Retry-After is asked again after it, the line shown below the buttons.
 */
function GuestButton() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [inLineSince, setInLineSince] = useState<number | null>(null);
  async function play() {
    setBusy(true);
    // Loaded on the click: the API client and its schemas stay out of the landing page's first load.
    const { playAsGuest } = await import('../auth/guest.ts');
    const signedIn = await playAsGuest(setInLineSince);
    setBusy(false);
    if (signedIn) navigate('/dashboard');
  }
  return (
    <>
      <button type="button" className={SECONDARY_BUTTON} disabled={busy} onClick={() => void play()}>
        Play as guest
      </button>
      {inLineSince !== null && (
        <div className="w-full text-left">
          <Suspense fallback={null}>
            <BusyLine since={inLineSince} />
          </Suspense>
        </div>
      )}
    </>
  );
}
