/**
 * Global Bot Stats (all bot games, by difficulty, and the user's) and, once either side has won,
 * Your Bot Game Performance: human wins, bot wins and the win rate vs bots.
 */
import type { GameStatsData } from '@memeslam/protocol';
import { type BotRecord, showsBotPerformance, winRateVsBots } from './botRecord.ts';

interface Props {
  /** null when the stats call failed: the global figures are unknown. */
  readonly global: GameStatsData['globalStats'] | null;
  readonly userBotGames: number;
  readonly record: BotRecord;
}

function Row({ label, value, tone = '' }: { label: string; value: string | number; tone?: string }) {
  return (
    <div className="flex items-center justify-between py-1.5">
      <dt className="text-muted">{label}</dt>
      <dd className={`font-bold ${tone}`}>{value}</dd>
    </div>
  );
}

export function BotStatsPanel({ global, userBotGames, record }: Props) {
  const show = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));
  const byDifficulty = global?.botGamesByDifficulty;
  return (
    <>
      <section aria-labelledby="bot-stats-title" className="rounded-xl border border-edge bg-panel p-4">
        <h2 id="bot-stats-title" className="text-lg font-semibold">
          Global Bot Stats
        </h2>
        <dl className="mt-2 divide-y divide-edge/60 text-sm">
          <Row label="Total bot games" value={show(global?.totalBotGames)} />
          <Row label="Easy" value={show(byDifficulty?.easy)} tone="text-green-300" />
          <Row label="Normal" value={show(byDifficulty?.normal)} tone="text-yellow-200" />
          <Row label="Hard" value={show(byDifficulty?.hard)} tone="text-red-300" />
          <Row label="Your bot games" value={show(userBotGames)} tone="text-gold" />
        </dl>
      </section>
      {showsBotPerformance(record) && (
        <section aria-labelledby="bot-performance-title" className="rounded-xl border border-edge bg-panel p-4">
          <h2 id="bot-performance-title" className="text-lg font-semibold">
            Your Bot Game Performance
          </h2>
          <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
            {(
              [
                ['Human wins', record.humanWins, 'text-green-300'],
                ['Bot wins', record.botWins, 'text-red-300'],
                ['Win rate vs bots', `${winRateVsBots(record)}%`, 'text-gold'],
              ] as const
            ).map(([label, value, tone]) => (
              <div key={label} className="rounded-lg bg-ink/50 p-2">
                <dt className="text-xs text-muted">{label}</dt>
                <dd className={`text-xl font-bold ${tone}`}>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </>
  );
}
