/** The closing call to action, and the footer's ways to the public pages and the community. */
import { Link } from 'react-router';
import { useSession } from '../auth/session.ts';
import { CommunityLink } from './ShareButtons.tsx';
import { CONTAINER, PRIMARY_BUTTON, SECONDARY_BUTTON } from './styles.ts';

export function FinalCta() {
  const { isAuthenticated } = useSession();
  return (
    <section aria-labelledby="cta-title" className={`${CONTAINER} py-16 md:py-24`}>
      <div className="relative overflow-hidden rounded-3xl border border-brand/50 bg-[radial-gradient(ellipse_80%_80%_at_50%_0%,rgb(168_85_247/0.22),transparent),linear-gradient(var(--color-panel),var(--color-panel))] px-6 py-12 text-center md:px-12 md:py-16">
        <h2 id="cta-title" className="text-3xl font-extrabold md:text-5xl">
          Ready to slam?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-muted">
          Free to play, right in your browser. Your first game is a minute away.
        </p>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
          {isAuthenticated ? (
            <Link to="/dashboard" className={PRIMARY_BUTTON}>
              Go to Dashboard
            </Link>
          ) : (
            <>
              <Link to="/register" className={PRIMARY_BUTTON}>
                Start Playing Free
              </Link>
              <Link to="/login" className={SECONDARY_BUTTON}>
                Sign In
              </Link>
            </>
          )}
          <CommunityLink className={SECONDARY_BUTTON} />
        </div>
      </div>
    </section>
  );
}

const FOOTER_LINK = 'rounded px-1 text-muted hover:text-white';

export function LandingFooter() {
  return (
    <footer className="border-t border-edge">
      <div className={`${CONTAINER} flex flex-col items-center justify-between gap-4 py-8 text-sm md:flex-row`}>
        <p className="font-bold text-gold">MemeSlam</p>
        <nav aria-label="Explore">
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2">
            <li>
              <Link to="/leaderboard" className={FOOTER_LINK}>
                Leaderboard
              </Link>
            </li>
            <li>
              <Link to="/tokenomics" className={FOOTER_LINK}>
                Tokenomics
              </Link>
            </li>
            <li>
              <Link to="/how-to-play" className={FOOTER_LINK}>
                How to Play
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
