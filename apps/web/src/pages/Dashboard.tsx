/** /dashboard: the greeting and the player's stats, read fresh from the server. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/http.ts';
import { session, useSession } from '../auth/session.ts';

export function Dashboard() {
  const { user } = useSession();
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const { data } = await api('me', { quiet: true });
      session.setUser(data.user);
      return data.user;
    },
  });
  const current = me.data ?? user;
  if (!current) return null;
  const stats = current.stats;
  const tiles = [
    ['Games Played', stats.gamesPlayed],
    ['Games Won', stats.gamesWon],
    ['Win Rate', `${stats.winRate}%`],
    ['Avg Game Time', `${stats.averageGameTime}s`],
    ['Bot Games', stats.botGamesPlayed],
  ] as const;
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold">Welcome back, {current.username}!</h1>
      <p className="mt-1 text-muted">Level {current.level}</p>
      <section aria-labelledby="stats-title" className="mt-8">
        <h2 id="stats-title" className="mb-3 text-xl font-semibold">
          Your stats
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {tiles.map(([label, value]) => (
            <div key={label} className="rounded-lg border border-edge bg-panel p-4">
              <dt className="text-sm text-muted">{label}</dt>
              <dd className="mt-1 text-2xl font-bold">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
