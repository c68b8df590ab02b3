/** The final ranking in the server's places, with the rule it follows; bots with "(Bot)" and their level, the viewer marked. */
import { BOT_LABELS, playerDisplayName } from '@memeslam/protocol';
import { type PlayerResult, RANKING_RULE, finalRanking, ordinal } from './summary.ts';

/** Gold, silver and bronze badges for the top 3 (drawn, so they do not depend on an emoji font). */
const MEDAL_COLORS = ['bg-gold text-ink', 'bg-slate-300 text-ink', 'bg-amber-700 text-white'];

/** A rated game's change ("+12") and the new rating ("1512", "1512?" while provisional). */
function RatingChange({ rating }: { rating: NonNullable<PlayerResult['rating']> }) {
  const sign = rating.change > 0 ? '+' : rating.change < 0 ? '−' : '±';
  const tone = rating.change > 0 ? 'text-emerald-400' : rating.change < 0 ? 'text-red-400' : 'text-muted';
  return (
    <span className="shrink-0 text-right text-sm tabular-nums">
      <span className="sr-only">Rating </span>
      <span className={tone}>
        {sign}
        {Math.abs(rating.change)}
      </span>{' '}
      <span className="text-muted">
        {rating.after}
        {rating.provisional ? '?' : ''}
      </span>
    </span>
  );
}

export function Ranking({ results, me }: { results: readonly PlayerResult[]; me: string | null }) {
  return (
    <>
      <ol aria-label="Final ranking" className="divide-y divide-edge">
        {finalRanking(results).map((result, index) => (
          <li
            key={result.playerId}
            className={`flex items-center gap-3 px-3 py-2 ${result.playerId === me ? 'bg-brand/15' : ''}`}
          >
            <span className="flex w-10 justify-center">
              <span
                className={`flex h-7 min-w-7 items-center justify-center rounded-full px-1 text-sm font-bold ${MEDAL_COLORS[index] ?? 'bg-ink text-muted'}`}
              >
                {ordinal(index + 1)}
              </span>
            </span>
            {/* The name keeps its line; the level and "left" wrap under it on a narrow screen. */}
            <span className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-0.5">
              <span className="min-w-0 truncate">
                {playerDisplayName(result)}
                {result.playerId === me && <span className="text-muted"> (you)</span>}
              </span>
              {result.isBot && result.botDifficulty && (
                <span className="rounded bg-ink px-1.5 py-0.5 text-xs whitespace-nowrap text-muted">
                  {BOT_LABELS[result.botDifficulty]}
                </span>
              )}
              {result.forfeited && <span className="text-xs text-muted">left</span>}
            </span>
            <span className="shrink-0 text-sm tabular-nums">
              {result.cardsLeft} <span className="text-muted">left</span>
            </span>
            {result.rating && <RatingChange rating={result.rating} />}
            <span className="w-20 shrink-0 text-right text-sm tabular-nums text-gold">{result.points} pts</span>
          </li>
        ))}
      </ol>
      {/* The rule the order follows: points (the leaderboard's) can rank otherwise, so it is said. */}
      <p className="mt-2 px-3 text-xs text-muted">{RANKING_RULE}</p>
    </>
  );
}
