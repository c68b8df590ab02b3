/**
 * /leaderboard: the four ranking tabs and the rating (games between people), the global stats, medals for the top 3 and a highlight for the
 * top 10, the empty and error states, Refresh Rankings, and the Tournament tab with its
 * states (none, upcoming, live with or without participants), the entry control and the player's
 * own row marked.
 */
import * as Tabs from '@radix-ui/react-tabs';
import {
  LEADERBOARD_HIGHLIGHTED,
  LEADERBOARD_LIMIT,
  LEADERBOARD_MEDALS,
  LEADERBOARD_TEXTS,
  type LeaderboardSort,
  type LeaderboardUser,
  RANKING_SORTS,
  TOURNAMENT_TEXTS,
  leaderboardErrorTexts,
} from '@memeslam/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { useSession } from '../auth/session.ts';
import { useCurrentTournament, useLiveLeaderboard } from '../tournament/queries.ts';
import { TournamentBanner } from '../tournament/TournamentBanner.tsx';
import { Icon } from '../components/Icon.tsx';
import { Medal } from '../components/Medal.tsx';

type TabId = LeaderboardSort | 'tournament';
const SORTS: readonly LeaderboardSort[] = RANKING_SORTS;

function statOf(sort: LeaderboardSort, stats: LeaderboardUser['stats']) {
  if (sort === 'winRate') return `${stats.winRate}%`;
  if (sort === 'rating') return `${stats.rating}${stats.ratingProvisional ? '?' : ''}`;
  return String(stats[sort]);
}

function Rankings({ sort }: { sort: LeaderboardSort }) {
  const query = useQuery({
    queryKey: ['leaderboard', sort],
    queryFn: async () =>
      (await api('leaderboard', { query: { sortBy: sort, limit: LEADERBOARD_LIMIT }, quiet: true })).data,
  });
  const failure = query.error;
  useEffect(() => {
    if (!failure) return;
    const status = failure instanceof ApiError ? (failure.status === 0 ? null : failure.status) : 'other';
    const texts = leaderboardErrorTexts(status);
    if (texts.toast) toast.error(texts.toast);
  }, [failure]);

  if (query.isPending) return <p role="status">Loading rankings…</p>;
  if (failure) {
    const status = failure instanceof ApiError ? (failure.status === 0 ? null : failure.status) : 'other';
    return (
      <div role="alert" className="rounded-lg border border-red-500 bg-red-500/10 p-4">
        <p className="font-semibold">{LEADERBOARD_TEXTS.failedToLoad}</p>
        <p className="text-sm">{leaderboardErrorTexts(status).box}</p>
        <button
          type="button"
          className="mt-3 rounded-lg border border-edge px-3 py-1"
          onClick={() => void query.refetch()}
        >
          {LEADERBOARD_TEXTS.tryAgain}
        </button>
      </div>
    );
  }
  const { users, stats } = query.data;
  return (
    <>
      <dl className="mb-6 grid grid-cols-3 gap-3 text-center">
        {(
          [
            ['Total games played', stats.totalGamesPlayed],
            ['Total points scored', stats.totalPointsScored],
            ['Players online', stats.totalPlayersOnline],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-lg bg-panel p-3">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="text-2xl font-bold">{value.toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {users.length === 0 ? (
        <p className="text-muted">{LEADERBOARD_TEXTS.noPlayers}</p>
      ) : (
        <ol aria-label="Rankings" className="space-y-2">
          {users.map((u) => (
            <li
              key={u._id}
              className={`flex items-center gap-3 rounded-lg border p-3 ${u.rank <= LEADERBOARD_HIGHLIGHTED ? 'border-gold/60 bg-panel' : 'border-edge'}`}
            >
              <span className="flex w-10 shrink-0 justify-center text-lg font-bold">
                <span className="sr-only">Rank {u.rank}</span>
                {u.rank <= LEADERBOARD_MEDALS ? <Medal rank={u.rank} /> : <span aria-hidden="true">#{u.rank}</span>}
              </span>
              <span
                className="flex h-8 w-8 items-center justify-center rounded-full bg-brand font-bold"
                aria-hidden="true"
              >
                {u.username.charAt(0).toUpperCase()}
              </span>
              <span className="flex-1">
                <span className="font-semibold">{u.username}</span>
                {u.rank <= LEADERBOARD_HIGHLIGHTED && (
                  <span className="ml-2 inline-flex align-middle text-gold">
                    <Icon name="trendUp" className="size-4" />
                    <span className="sr-only">Top 10</span>
                  </span>
                )}
                <span className="block text-xs text-muted">
                  Joined {new Date(u.createdAt).toLocaleDateString('en-US')}
                </span>
              </span>
              <span className="w-20 text-right text-lg font-bold">{statOf(sort, u.stats)}</span>
              <span className="hidden w-40 text-right text-xs text-muted md:block">
                {u.stats.gamesPlayed} games · {u.stats.gamesWon} wins · {u.stats.winRate}%
              </span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function TournamentTab() {
  const { user } = useSession();
  const current = useCurrentTournament();
  const tournament = current.data ?? null;
  const live = tournament?.status === 'active';
  const board = useLiveLeaderboard(tournament);
  // Load failures empty the tab silently.
  if (current.isPending) return <p role="status">Loading tournament…</p>;
  if (!tournament) return <p className="text-muted">{TOURNAMENT_TEXTS.noActiveTournament}</p>;
  const entries = board.data ?? [];
  return (
    <section aria-label="Tournament">
      <TournamentBanner tournament={tournament} from="/leaderboard?tab=tournament" />
      {tournament.status === 'upcoming' && <p className="mt-4 font-semibold">{TOURNAMENT_TEXTS.startingSoon}</p>}
      {live && board.isSuccess && entries.length === 0 && (
        <p className="mt-4 text-muted">{TOURNAMENT_TEXTS.noParticipants}</p>
      )}
      {live && entries.length > 0 && (
        <ol aria-label="Tournament standings" className="mt-4 space-y-2">
          {entries.map((e) => {
            const mine = e.userId === user?.id;
            return (
              <li
                key={e.userId}
                aria-current={mine ? 'true' : undefined}
                className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border p-3 ${mine ? 'border-gold bg-gold/10' : 'border-edge'}`}
              >
                {e.improvement.gamesPlayed >= tournament.settings.minGamesRequired ? (
                  <span className="w-8 font-bold">#{e.position}</span>
                ) : (
                  <span className="w-8 font-bold text-muted" aria-label="Not ranked yet">
                    –
                  </span>
                )}
                <span className="flex-1 font-semibold">
                  {e.username}
                  {mine && <span className="ml-2 text-xs font-normal text-gold">(you)</span>}
                </span>
                <span className="text-sm text-muted">
                  +{e.improvement.gamesPlayed} games · +{e.improvement.gamesWon} wins
                </span>
                <span className="w-20 text-right font-bold">{e.tournamentValue}</span>
                {e.isPrizeWinner && (
                  <span className="rounded bg-gold px-2 text-xs font-bold text-ink">
                    {TOURNAMENT_TEXTS.prizeWinner}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export function Leaderboard() {
  // ?tab=tournament opens the Tournament tab (the dashboard's tournament card links there).
  const [params] = useSearchParams();
  const [tab, setTab] = useState<TabId>(params.get('tab') === 'tournament' ? 'tournament' : 'totalPoints');
  const [round, setRound] = useState(0);
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-4xl font-bold">Leaderboard</h1>
        <button
          type="button"
          className="rounded-lg border border-edge px-4 py-2"
          onClick={() => setRound((r) => r + 1)}
        >
          {LEADERBOARD_TEXTS.refresh}
        </button>
      </div>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as TabId)} className="mt-6">
        <Tabs.List aria-label="Rankings by" className="mb-6 flex flex-wrap gap-1 border-b border-edge">
          {([...SORTS, 'tournament'] as const).map((id) => (
            <Tabs.Trigger
              key={id}
              value={id}
              className="px-4 py-2 text-sm text-muted data-[state=active]:border-b-2 data-[state=active]:border-gold data-[state=active]:text-white"
            >
              {LEADERBOARD_TEXTS.tabs[id]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {SORTS.map((sort) => (
          <Tabs.Content key={sort} value={sort}>
            <Rankings key={`${sort}-${round}`} sort={sort} />
          </Tabs.Content>
        ))}
        <Tabs.Content value="tournament">
          <TournamentTab key={round} />
        </Tabs.Content>
      </Tabs.Root>
    </main>
  );
}
