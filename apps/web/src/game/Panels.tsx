/**
 * The side columns of the game screen: game status, active effects, "My Deck", the game
 * stats panel, and the debug view behind "show/hide debug".
 */
import { formatGameTime } from '@memeslam/protocol/game-texts';
import type { ReactNode } from 'react';
import { Icon } from '../components/Icon.tsx';
import { perSecond } from './result/summary.ts';
import { useCountdownSeconds } from './useClock.ts';
import { ownCounts } from './displayed.ts';
import type { LiveGame } from './state.ts';

export function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={`rounded-lg border border-edge bg-panel p-3 ${className}`}>
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-2 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="font-mono">{children}</dd>
    </div>
  );
}

const STATUS_LABEL = {
  idle: 'Loading',
  waiting: 'Waiting',
  starting: 'Waiting',
  active: 'Playing',
  finished: 'Finished',
};

export function GameStatusPanel({
  state,
  seconds,
  canPlay,
  frozenSeconds,
}: {
  state: LiveGame;
  seconds: number;
  canPlay: boolean;
  frozenSeconds: number;
}) {
  return (
    <Panel title="Game status">
      <dl className="space-y-1">
        <Row label="Time">{formatGameTime(seconds)}</Row>
        <Row label="Status">{STATUS_LABEL[state.status]}</Row>
        <Row label="Can play">{canPlay ? 'Yes' : 'No'}</Row>
        <Row label="Frozen">{state.frozen ? `Yes (${frozenSeconds} s)` : 'No'}</Row>
      </dl>
    </Panel>
  );
}

/** One freeze in the effects list with its seconds left (from the server's start time, at most its length). */
function FreezeEffect({ name, until, duration }: { name: string; until: number; duration: number }) {
  const left = useCountdownSeconds(until, duration);
  return (
    <li>
      <Icon name="snowflake" className="inline size-4 text-sky-300" /> {name} frozen
      {left > 0 ? ` · ${left} s` : ''}
    </li>
  );
}

export function EffectsPanel({ state }: { state: LiveGame }) {
  const effects = state.view?.activeEffects ?? [];
  const name = (id: string) => state.view?.players.find((p) => p.userId === id)?.username ?? id;
  return (
    <Panel title={`Active effects (${effects.length})`}>
      {effects.length === 0 ? (
        <p className="text-sm text-muted">None</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {effects.map((effect) => (
            <FreezeEffect
              key={`${effect.targetPlayerId}-${effect.startTime}`}
              name={name(effect.targetPlayerId)}
              until={effect.startTime + effect.duration}
              duration={effect.duration}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}

export function MyDeckPanel({
  handCount,
  deckSize,
  cardsLeft,
}: {
  handCount: number;
  deckSize: number;
  cardsLeft: number;
}) {
  return (
    <Panel title="My Deck">
      <dl className="space-y-1">
        <Row label="In hand">{handCount}/3</Row>
        <Row label="In deck">{deckSize}</Row>
        <Row label="Total left">{cardsLeft}</Row>
      </dl>
    </Panel>
  );
}

export function StatsPanel({ state, seconds }: { state: LiveGame; seconds: number }) {
  const players = state.view?.players ?? state.game?.players ?? [];
  const bots = players.filter((p) => p.isBot).length;
  const me = state.view?.players.find((p) => p.userId === state.me);
  const available = me?.powerUps.available.length ?? state.powerUps.available.length;
  const own = ownCounts(state);
  return (
    <Panel title="Game stats">
      <dl className="space-y-1">
        <Row label="Players">{players.length}</Row>
        <Row label="Humans / bots">
          {players.length - bots} / {bots}
        </Row>
        <Row label="Cards played">{own.cardsPlayed}</Row>
        <Row label="Speed">{perSecond(own.cardsPlayed, Math.max(1, seconds) * 1000)}/s</Row>
        <Row label="Game time">{formatGameTime(seconds)}</Row>
        <Row label="Power-ups available">{available}</Row>
        <Row label="Power-ups used">{own.powerUpsUsed}</Row>
      </dl>
    </Panel>
  );
}

export function DebugPanel({ state }: { state: LiveGame }) {
  return (
    <Panel title="Debug">
      <pre className="max-h-64 overflow-auto text-[0.65rem] leading-tight text-muted">
        {JSON.stringify(
          {
            gameId: state.game?.gameId,
            status: state.status,
            seq: state.seq,
            pendingPlays: state.pendingPlays.map((p) => p.card.id),
            pendingPowerUps: state.pendingPowerUps,
            stockSize: state.view?.stockSize,
            pileSizes: state.view?.pileSizes,
            seedCommitment: state.seedCommitment,
          },
          null,
          1,
        )}
      </pre>
    </Panel>
  );
}
