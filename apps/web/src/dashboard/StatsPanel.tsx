/** The five stats, collapsible under 768 px (always open from tablet width up). */
import { PhoneFoldButton } from '../components/PhoneFold.tsx';
import { useId, useState } from 'react';

export interface DashboardStats {
  readonly gamesPlayed: number;
  readonly gamesWon: number;
  readonly winRate: number;
  readonly averageGameTime: number;
  readonly botGames: number;
}

export function StatsPanel({ stats }: { stats: DashboardStats }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const tiles = [
    ['Games Played', String(stats.gamesPlayed)],
    ['Games Won', String(stats.gamesWon)],
    ['Win Rate', `${stats.winRate}%`],
    ['Avg Game Time', `${stats.averageGameTime} s`],
    ['Bot Games', String(stats.botGames)],
  ] as const;
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-edge bg-panel p-4">
      <div className="flex items-center justify-between">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Your Stats
        </h2>
        <PhoneFoldButton open={open} controls={`${id}-list`} onToggle={() => setOpen((o) => !o)}>
          {open ? 'Hide stats' : 'Show stats'}
        </PhoneFoldButton>
      </div>
      <dl
        id={`${id}-list`}
        className={`mt-3 grid-cols-2 gap-3 sm:grid-cols-3 md:grid md:grid-cols-5 ${open ? 'grid' : 'hidden'}`}
      >
        {tiles.map(([label, value], index) => (
          // The odd fifth tile spans the row on phones instead of leaving a hole.
          <div
            key={label}
            className={`rounded-lg border border-edge/70 bg-ink/50 p-3 ${index === tiles.length - 1 ? 'col-span-2 sm:col-span-1' : ''}`}
          >
            <dt className="text-xs tracking-wide text-muted uppercase">{label}</dt>
            <dd className="mt-1 text-2xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
