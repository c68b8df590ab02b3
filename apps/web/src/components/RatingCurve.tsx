/** The profile's rating (Glicko-2, games between people): the figure, "?" while provisional, and its recent curve. */
import type { UserRating } from '@memeslam/protocol';
import { HEIGHT, WIDTH, curvePoints } from './rating-curve.ts';

export function RatingCurve({ rating }: { rating: UserRating }) {
  const shown = `${rating.rating}${rating.provisional ? '?' : ''}`;
  const { history } = rating;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-4">
      <div>
        <p className="text-xs text-muted">Rating</p>
        <p className="text-xl font-bold tabular-nums">{shown}</p>
        <p className="text-xs text-muted">
          {rating.ratedGames === 0
            ? 'Play a game against people to get rated'
            : `${rating.ratedGames} rated ${rating.ratedGames === 1 ? 'game' : 'games'}${rating.provisional ? ' · provisional' : ''}`}
        </p>
      </div>
      {history.length >= 2 && (
        <svg
          role="img"
          aria-label={`Rating over the last ${history.length} rated games: from ${history[0]} to ${history.at(-1)}`}
          width={WIDTH}
          height={HEIGHT}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="rounded bg-ink/60"
        >
          <polyline
            points={curvePoints(history)}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            className="text-gold"
          />
        </svg>
      )}
    </div>
  );
}
