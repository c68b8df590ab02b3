/**
 * The tournament banner of the Tournament tab: name, description, status LIVE /
 * UPCOMING / Ended, prize pool, participants over the maximum, time remaining or "starts in", the
 * winners count, which games count (before any is played), and the entry control. Used by the Tournament tab and the dashboard.
 */
import { PhoneFoldButton } from '../components/PhoneFold.tsx';
import {
  TOURNAMENT_TEXTS,
  type Tournament,
  fairPlayRulesText,
  formatTimeRemaining,
  tournamentRulesText,
} from '@memeslam/protocol';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useMsUntil, usePassed } from './queries.ts';
import { TournamentEntry } from './TournamentEntry.tsx';

export function TournamentBanner({
  tournament,
  from,
  children,
  collapsible = false,
}: {
  tournament: Tournament;
  /** The page to come back to after signing in. */
  from: string;
  /** Extra actions under the banner (the dashboard's link to the standings). */
  children?: ReactNode;
  /** Under 768 px its details fold away behind a toggle (the dashboard: Play stays on the first screen). */
  collapsible?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const folded = collapsible && !open;
  const id = useId();
  // The end as this page saw it: a tournament that ends while it is open shows as ended.
  const endsAt = useMemo(() => Date.now() + tournament.timeRemaining, [tournament]);
  const ended = usePassed(endsAt) || tournament.status === 'ended';
  const startsAt = useMemo(() => Date.now() + tournament.startsIn, [tournament]);
  const untilStart = useMsUntil(startsAt);
  const untilEnd = useMsUntil(endsAt);
  const live = tournament.status === 'active' && !ended;
  const badge = live
    ? TOURNAMENT_TEXTS.live
    : tournament.status === 'upcoming'
      ? TOURNAMENT_TEXTS.upcoming
      : TOURNAMENT_TEXTS.ended;
  const max = tournament.settings.maxParticipants;
  return (
    <section aria-label={`Tournament ${tournament.name}`} className="rounded-lg border border-gold/60 bg-panel p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-bold">{tournament.name}</h2>
        <span className="rounded bg-gold px-2 py-0.5 text-xs font-bold text-ink">{badge}</span>
        {collapsible && (
          <PhoneFoldButton
            open={open}
            controls={`${id}-details`}
            onToggle={() => setOpen((o) => !o)}
            className="ml-auto"
          >
            Details
          </PhoneFoldButton>
        )}
      </div>
      <div id={`${id}-details`} className={folded ? 'hidden md:block' : undefined}>
        {tournament.description && <p className="mt-1 text-muted">{tournament.description}</p>}
        <dl className="mt-3 grid grid-cols-2 gap-2 text-sm md:grid-cols-4">
          <div>
            <dt className="text-muted">Prize pool</dt>
            <dd className="font-semibold">
              {tournament.prizePool.totalAmount.toLocaleString('en-US')} {tournament.prizePool.currency}
            </dd>
          </div>
          <div>
            <dt className="text-muted">Participants</dt>
            <dd className="font-semibold">
              {tournament.participantCount}
              {max !== null ? ` / ${max}` : ''}
            </dd>
          </div>
          <div>
            <dt className="text-muted">
              {tournament.status === 'upcoming' ? TOURNAMENT_TEXTS.startsIn : 'Time remaining'}
            </dt>
            <dd className="font-semibold">
              {ended
                ? TOURNAMENT_TEXTS.ended
                : tournament.status === 'upcoming'
                  ? untilStart > 0
                    ? formatTimeRemaining(untilStart)
                    : 'now'
                  : formatTimeRemaining(untilEnd)}
            </dd>
          </div>
          <div>
            <dt className="text-muted">Winners</dt>
            <dd className="font-semibold">{tournament.prizePool.winnersCount}</dd>
          </div>
        </dl>
        {!ended && (
          <>
            <p className="mt-2 text-sm text-muted" data-tournament-rules>
              {tournamentRulesText(tournament.settings)}
            </p>
            {/* docs/fair-play.md: what does not count, said before any game is played. */}
            <ul
              className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-muted"
              aria-label="Fair play"
              data-fair-play-rules
            >
              {fairPlayRulesText(tournament.settings).map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <TournamentEntry tournament={tournament} ended={ended} from={from} />
      {children}
    </section>
  );
}
