/**
 * A participant's own standing: their position (or how many counted games they still need), the
 * games counted so far, and why their last game did not count when it did not.
 */
import { TOURNAMENT_TEXTS, type TournamentStanding, notRankedYetText } from '@memeslam/protocol';
import { latestUncounted } from './entry.ts';

export function MyStanding({ standing, currency }: { standing: TournamentStanding; currency: string }) {
  const uncounted = latestUncounted(standing);
  return (
    <div className="space-y-2">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div>
          <dt className="text-muted">{TOURNAMENT_TEXTS.yourPosition}</dt>
          <dd className="font-semibold">
            {standing.position !== null
              ? `#${standing.position}`
              : notRankedYetText(standing.gamesCounted, standing.minGamesRequired)}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{TOURNAMENT_TEXTS.gamesCounted}</dt>
          <dd className="font-semibold" data-testid="games-counted">
            {standing.gamesCounted}
            <span className="font-normal text-muted"> of {standing.minGamesRequired} required</span>
          </dd>
        </div>
        <div>
          <dt className="text-muted">Wins</dt>
          <dd className="font-semibold">{standing.gamesWon}</dd>
        </div>
        {standing.prizeAmount !== null && (
          <div>
            <dt className="text-muted">{TOURNAMENT_TEXTS.prizeWinner}</dt>
            <dd className="font-semibold text-gold">
              {standing.prizeAmount.toLocaleString('en-US')} {currency}
            </dd>
          </div>
        )}
      </dl>
      {uncounted && (
        <p role="note" className="rounded-lg border border-yellow-400/50 bg-yellow-400/10 px-3 py-2 text-sm">
          <span className="font-semibold">{TOURNAMENT_TEXTS.lastGameNotCounted}: </span>
          {TOURNAMENT_TEXTS.uncounted[uncounted.reason]}
        </p>
      )}
    </div>
  );
}
