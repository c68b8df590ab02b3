/**
 * Entering the tournament where players look (the Tournament tab's banner and the dashboard): the
 * Join button, or why there is none (signed out, guest, full, verified wallet or e-mail required, ended), and
 * once joined the Joined badge with the player's own standing.
 */
import { TOURNAMENT_TEXTS, type Tournament } from '@memeslam/protocol';
import { Link } from 'react-router';
import { useSession } from '../auth/session.ts';
import { entryState } from './entry.ts';
import { MyStanding } from './MyStanding.tsx';
import { useJoinTournament, useTournamentStanding } from './queries.ts';
import { Icon } from '../components/Icon.tsx';

const joinClass =
  'rounded-lg bg-gold px-4 py-2 font-semibold text-ink hover:brightness-110 disabled:cursor-not-allowed disabled:bg-edge disabled:text-muted disabled:hover:brightness-100';

function Notice({ children }: { children: React.ReactNode }) {
  return <p className="text-sm font-semibold">{children}</p>;
}

/** `from`: the page to come back to after signing in. */
export function TournamentEntry({ tournament, ended, from }: { tournament: Tournament; ended: boolean; from: string }) {
  const { user } = useSession();
  const state = entryState(tournament, user, ended);
  const join = useJoinTournament();
  const standing = useTournamentStanding(tournament, user !== null);

  let body: React.ReactNode;
  switch (state) {
    case 'joined':
      body = (
        <div className="flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="inline-flex items-center gap-1 rounded-full border border-green-500/50 bg-green-500/15 px-2 py-0.5 text-xs font-semibold text-green-300">
              <Icon name="check" className="size-3.5" />
              <span>{TOURNAMENT_TEXTS.joined}</span>
            </span>
            {ended && <span className="text-sm text-muted">{TOURNAMENT_TEXTS.hasEnded}</span>}
          </div>
          {standing.data ? (
            <MyStanding standing={standing.data} currency={tournament.prizePool.currency} />
          ) : (
            standing.isPending && (
              <p role="status" className="text-sm text-muted">
                Loading your standing…
              </p>
            )
          )}
        </div>
      );
      break;
    case 'ended':
      body = <Notice>{TOURNAMENT_TEXTS.hasEnded}</Notice>;
      break;
    case 'signedOut':
      body = (
        <Link to={`/login?from=${encodeURIComponent(from)}`} className={joinClass}>
          {TOURNAMENT_TEXTS.signInToJoin}
        </Link>
      );
      break;
    case 'guest':
      // A guest can become an account (keeping its games) and come back here.
      body = (
        <Link to={`/register?from=${encodeURIComponent(from)}`} className={joinClass}>
          {TOURNAMENT_TEXTS.guestsCannotJoin}
        </Link>
      );
      break;
    case 'full':
      body = (
        <>
          <Notice>{TOURNAMENT_TEXTS.full}</Notice>
          <button type="button" className={joinClass} disabled>
            {TOURNAMENT_TEXTS.join}
          </button>
        </>
      );
      break;
    case 'walletRequired':
      body = (
        <div className="space-y-1">
          <Notice>{TOURNAMENT_TEXTS.verifiedWalletRequired}</Notice>
          <Link to="/profile#wallet" className="text-sm text-gold underline underline-offset-2">
            {TOURNAMENT_TEXTS.linkWallet}
          </Link>
        </div>
      );
      break;
    case 'emailRequired':
      // docs/fair-play.md: people-only tournaments need a verified e-mail (the server refuses the join too).
      body = (
        <div className="space-y-1">
          <Notice>{TOURNAMENT_TEXTS.verifiedEmailRequired}</Notice>
          <Link to="/resend-verification" className="text-sm text-gold underline underline-offset-2">
            {TOURNAMENT_TEXTS.verifyEmailLink}
          </Link>
        </div>
      );
      break;
    case 'open':
      body = (
        <button
          type="button"
          className={joinClass}
          disabled={join.isPending}
          aria-busy={join.isPending}
          onClick={() => join.mutate(tournament.id)}
        >
          {join.isPending ? TOURNAMENT_TEXTS.joining : TOURNAMENT_TEXTS.join}
        </button>
      );
      break;
  }
  return (
    <div
      role="group"
      aria-label="Your entry"
      data-entry-state={state}
      className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-edge pt-4"
    >
      {body}
    </div>
  );
}
