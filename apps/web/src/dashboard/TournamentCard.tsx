/**
 * The current tournament on the dashboard: its banner with the entry control (Join, or why not, and
 * the player's own standing once joined) and a link to the standings. Nothing when there is none.
 */
import { TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { Link } from 'react-router';
import { useCurrentTournament } from '../tournament/queries.ts';
import { TournamentBanner } from '../tournament/TournamentBanner.tsx';

export function TournamentCard() {
  const current = useCurrentTournament();
  const tournament = current.data ?? null;
  if (!tournament) return null;
  return (
    <TournamentBanner tournament={tournament} from="/dashboard" collapsible>
      <p className="mt-3 text-right">
        <Link to="/leaderboard?tab=tournament" className="text-sm text-gold underline underline-offset-2">
          {TOURNAMENT_TEXTS.viewStandings}
        </Link>
      </p>
    </TournamentBanner>
  );
}
