/**
 * The landing page's prize panel, fed by GET /api/tournaments/current: the tournament's name and
 * state, its prize pool and split, how long it runs or until it starts, and a way to the standings;
 * "No Active Tournament" when there is none. Loaded after first paint with the HTTP client, so the
 * landing page's first script stays light. It shares the leaderboard's query, so a visit to the
 * Tournament tab reads the same answer.
 */
import type { Tournament } from '@memeslam/protocol';
import { TOURNAMENT_TEXTS, formatTimeRemaining } from '@memeslam/protocol/game-texts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/http.ts';
import { LandingIcon } from './icons.tsx';
import { PrizeSkeleton } from './PrizeSkeleton.tsx';
import { SECTION_LINK, SMALL_BUTTON } from './styles.ts';

/** How often the time left is recomputed; the format shows minutes at the finest. */
const TICK_MS = 30_000;

const ORDINALS = ['1st', '2nd', '3rd'];
const ordinal = (position: number) => ORDINALS[position - 1] ?? `${position}th`;
const amount = (value: number) => value.toLocaleString('en-US');

function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function NoTournament() {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-8 text-center">
      <span className="rounded-full bg-gold/15 p-3 text-gold">
        <LandingIcon name="trophy" className="size-8" />
      </span>
      <h3 className="text-xl font-bold">{TOURNAMENT_TEXTS.noActiveTournament}</h3>
      <p className="max-w-md text-muted">
        The next tournament and its prize pool are announced here. Until then, every game you finish still counts on the
        leaderboard.
      </p>
      <Link to="/leaderboard" className={SECTION_LINK}>
        See the leaderboard
        <LandingIcon name="arrow" className="size-4" />
      </Link>
    </div>
  );
}

function TournamentCard({ tournament, age }: { tournament: Tournament; age: number }) {
  const live = tournament.status === 'active';
  const upcoming = tournament.status === 'upcoming';
  const badge = live ? TOURNAMENT_TEXTS.live : upcoming ? TOURNAMENT_TEXTS.upcoming : TOURNAMENT_TEXTS.ended;
  const left = Math.max(0, (live ? tournament.timeRemaining : tournament.startsIn) - age);
  const { prizePool } = tournament;
  return (
    <div className="grid gap-6 p-5 md:grid-cols-[1.2fr_1fr] md:p-8">
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={`rounded-md px-2 py-0.5 text-xs font-bold tracking-wide ${live ? 'bg-emerald-400 text-ink' : 'bg-gold text-ink'}`}
          >
            {badge}
          </span>
          {upcoming && <span className="text-sm font-semibold text-gold">{TOURNAMENT_TEXTS.startingSoon}</span>}
        </div>
        <h3 className="mt-3 text-2xl font-bold md:text-3xl">{tournament.name}</h3>
        {tournament.description && <p className="mt-2 text-muted">{tournament.description}</p>}
        <p className="mt-5 text-sm text-muted">Prize pool</p>
        <p className="text-4xl font-extrabold text-gold md:text-5xl">
          {amount(prizePool.totalAmount)} <span className="text-2xl md:text-3xl">{prizePool.currency}</span>
        </p>
        <dl className="mt-5 grid grid-cols-3 gap-3 text-sm">
          <div>
            <dt className="text-muted">Winners</dt>
            <dd className="text-lg font-semibold">{prizePool.winnersCount}</dd>
          </div>
          <div>
            <dt className="text-muted">{live ? 'Ends in' : 'Starts in'}</dt>
            <dd className="text-lg font-semibold">{formatTimeRemaining(left)}</dd>
          </div>
          <div>
            <dt className="text-muted">Players</dt>
            <dd className="text-lg font-semibold">{tournament.participantCount}</dd>
          </div>
        </dl>
      </div>
      <div className="flex flex-col justify-between gap-5 rounded-xl border border-edge bg-ink/60 p-4">
        <div>
          <p className="text-sm font-semibold">Prize split</p>
          <ol aria-label="Prize split" className="mt-3 space-y-2">
            {prizePool.distribution.map(({ position, amount: share }) => (
              <li key={position} className="flex items-center justify-between gap-3 text-sm">
                <span className="font-semibold">{ordinal(position)}</span>
                <span className="h-px flex-1 bg-edge" aria-hidden="true" />
                <span>
                  {amount(share)} {prizePool.currency}
                </span>
              </li>
            ))}
          </ol>
        </div>
        <Link to="/leaderboard" className={`${SECTION_LINK} self-start`}>
          View the standings
          <LandingIcon name="arrow" className="size-4" />
        </Link>
      </div>
    </div>
  );
}

export function PrizePanel() {
  const query = useQuery({
    queryKey: ['tournament', 'current'],
    queryFn: async () => (await api('currentTournament', { quiet: true })).data.tournament,
  });
  const now = useNow();
  const age = Math.max(0, now - query.dataUpdatedAt);
  const tournament = query.data ?? null;
  const due =
    tournament !== null && (tournament.status === 'active' ? tournament.timeRemaining : tournament.startsIn) - age <= 0;
  const { refetch, isFetching } = query;
  // A tournament that has just started or ended: ask again for what is current now.
  useEffect(() => {
    if (due && !isFetching) void refetch();
  }, [due, isFetching, refetch, now]);

  if (query.isPending) return <PrizeSkeleton />;
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 px-4 py-8 text-center">
        <p className="font-semibold">The current tournament could not be loaded.</p>
        <button type="button" className={SMALL_BUTTON} onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return tournament ? <TournamentCard tournament={tournament} age={age} /> : <NoTournament />;
}
