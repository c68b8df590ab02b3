/**
 * Steps through a re-run game: a slider with previous / next / play, the piles' top cards and each
 * player's hand and cards left at the chosen step.
 */
import { useEffect, useState } from 'react';
import { CardFace, EmptyCardSlot } from '../../cards/Card.tsx';
import { Icon } from '../../components/Icon.tsx';
import { formatElapsed } from '../clock.ts';
import type { ReplayStep } from './replaySteps.ts';

export const PLAY_INTERVAL_MS = 600;

function StepView({ step }: { step: ReplayStep }) {
  return (
    <div className="space-y-4">
      <p aria-live="polite" className="min-h-6 text-center font-medium" data-testid="step-description">
        <span className="mr-2 tabular-nums text-muted">{formatElapsed(step.at)}</span>
        {step.description}
      </p>
      <ul aria-label="Discard piles" className="flex flex-wrap justify-center gap-4">
        {step.piles.map((pile, index) => (
          <li key={index} aria-label={`Pile ${index + 1}`} className="flex flex-col items-center gap-1">
            {pile.top ? <CardFace card={pile.top} size="xl" /> : <EmptyCardSlot size="xl" />}
            <span className="text-sm text-muted">
              Pile {index + 1} · {pile.size} {pile.size === 1 ? 'card' : 'cards'}
            </span>
          </li>
        ))}
      </ul>
      <ul aria-label="Players" className="grid gap-2 sm:grid-cols-2">
        {step.players.map((player) => (
          <li
            key={player.id}
            aria-label={player.username}
            className={`flex items-center gap-3 rounded-lg border border-edge bg-ink/60 p-2 ${player.left ? 'border-dashed' : ''}`}
          >
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium">
                {player.username}
                {player.isBot && <span className="text-muted"> (Bot)</span>}
                {player.frozen && (
                  <span className="ml-1 inline-flex items-center gap-0.5 text-sky-300">
                    <Icon name="snowflake" className="size-4" /> frozen
                  </span>
                )}
                {player.left && <span className="ml-1 text-muted">left</span>}
              </p>
              <p className="text-sm">
                <span className="text-lg font-bold tabular-nums" data-testid="cards-left">
                  {player.cardsLeft}
                </span>{' '}
                <span className="text-muted">cards left</span>
              </p>
            </div>
            <div role="group" className="flex gap-1" aria-label={`${player.username}'s hand`}>
              {player.hand.map((card) => (
                <CardFace key={card.id} card={card} size="xs" />
              ))}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ReplayViewer({ steps }: { steps: readonly ReplayStep[] }) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const last = steps.length - 1;

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(() => {
      setIndex((current) => {
        if (current >= last) {
          setPlaying(false);
          return current;
        }
        return current + 1;
      });
    }, PLAY_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [playing, last]);

  const step = steps[Math.min(index, last)];
  if (!step) return null;
  const go = (next: number) => {
    setPlaying(false);
    setIndex(Math.max(0, Math.min(last, next)));
  };

  return (
    <section aria-label="Replay" className="space-y-4 rounded-xl border border-edge bg-panel p-4">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => go(index - 1)}
          disabled={index === 0}
          className="rounded-lg border border-edge px-3 py-1 disabled:opacity-40"
        >
          Previous
        </button>
        <button
          type="button"
          onClick={() => (index >= last ? go(0) : setPlaying(!playing))}
          className="w-24 rounded-lg bg-brand px-3 py-1 font-semibold text-white"
        >
          {playing ? 'Pause' : index >= last ? 'Restart' : 'Play'}
        </button>
        <button
          type="button"
          onClick={() => go(index + 1)}
          disabled={index >= last}
          className="rounded-lg border border-edge px-3 py-1 disabled:opacity-40"
        >
          Next
        </button>
        <input
          type="range"
          aria-label="Step"
          min={0}
          max={last}
          value={index}
          onChange={(event) => go(Number(event.target.value))}
          className="min-w-40 flex-1 accent-brand"
        />
        <span className="text-sm tabular-nums text-muted" data-testid="step-counter">
          Step {index + 1} of {steps.length}
        </span>
      </div>
      <StepView step={step} />
    </section>
  );
}
