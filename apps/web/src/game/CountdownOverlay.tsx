/**
 * The full-screen pre-game countdown: system checks
 * (Discard Piles 200 ms, Player Hands 600 ms, Game State 1000 ms, AI System max(1500, bots × 400)
 * ms in bot games, else 1200 ms), a readiness card per player (people at 800 ms; bots at 1000 /
 * 1300 / 1600 ms, their AI going initializing → analyzing at 30% → ready), then 5 to 1 at 1 s ticks,
 * "GO!", and completion 1 s after zero.
 *
 * The server begins play at `startsAt`, 5 s after it sent the countdown, which is less than the
 * checks and a full count take. So when `startsAt` is known and still ahead, the count is the
 * whole seconds left and the overlay completes at `startsAt`: the player enters the game as it
 * begins rather than seconds after the bots start playing. Without a usable `startsAt` (a forced
 * countdown, or one shown after play began) the full local 5-to-1 runs.
 *
 * Self-contained: the lobby's waiting room and the game page both mount it with the room and the
 * countdown's `startsAt`, and navigate in `onComplete`.
 */
import { BOT_LABELS, playerDisplayName } from '@memeslam/protocol';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Icon } from '../components/Icon.tsx';
import { DEFAULT_DIFFICULTY, aiStatus, bigText as bigTextAt, plan } from './countdownPlan.ts';
import type { Game } from './state.ts';

export interface CountdownOverlayProps {
  readonly game: Game;
  /** Epoch ms (server clock) when play begins, from the gameStarting signal; null when unknown. */
  readonly startsAt: number | null;
  /** Called once, when the countdown has finished. */
  readonly onComplete: () => void;
}

/** How often the overlay redraws; well under the 200 ms between its steps. */
const FRAME_MS = 50;

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function Mark({ ready }: { readonly ready: boolean }) {
  return ready ? (
    <span
      role="img"
      aria-label="Ready"
      className="flex h-5 w-5 items-center justify-center rounded-full bg-green-500 text-ink"
    >
      <Icon name="check" className="size-3.5" />
    </span>
  ) : (
    <span
      className="h-5 w-5 rounded-full border-2 border-edge border-t-brand motion-safe:animate-spin"
      aria-hidden="true"
    />
  );
}

export function CountdownOverlay({ game, startsAt, onComplete }: CountdownOverlayProps) {
  const titleId = useId();
  const [opened] = useState(() => ({ at: performance.now(), epoch: Date.now() }));
  // A startsAt that arrives after the overlay opened (a forced countdown) still sets the count.
  const timeline = useMemo(() => plan(game, startsAt, opened.epoch), [game, startsAt, opened]);
  const [elapsed, setElapsed] = useState(0);
  const dialog = useRef<HTMLDivElement>(null);
  const bigText = useRef<HTMLParagraphElement>(null);
  const completed = useRef(false);
  const complete = useRef(onComplete);
  complete.current = onComplete;
  const { checks, players, allReadyAt, zeroAt, completeAt } = timeline;

  // The page under the overlay must not scroll while it shows.
  useEffect(() => {
    const before = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = before;
    };
  }, []);

  useEffect(() => {
    dialog.current?.focus();
    const timer = setInterval(() => setElapsed(performance.now() - opened.at), FRAME_MS);
    return () => clearInterval(timer);
  }, [opened]);

  useEffect(() => {
    if (elapsed < completeAt || completed.current) return;
    completed.current = true;
    complete.current();
  }, [elapsed, completeAt]);

  const go = elapsed >= zeroAt;
  const big = bigTextAt(timeline, elapsed);

  // Each new number pops in, unless the user asked for less motion.
  useEffect(() => {
    if (big === null || !bigText.current || prefersReducedMotion()) return;
    bigText.current.animate(
      [
        { transform: 'scale(1.6)', opacity: 0.2 },
        { transform: 'scale(1)', opacity: 1 },
      ],
      { duration: 350, easing: 'cubic-bezier(.2,.8,.2,1)' },
    );
  }, [big]);

  const progress = Math.min(1, elapsed / allReadyAt);
  return (
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-ink/95 px-4 py-8 backdrop-blur-sm outline-none sm:items-center"
    >
      <div className="w-full max-w-3xl space-y-6">
        <div className="text-center">
          <h2 id={titleId} className="text-2xl font-bold sm:text-3xl">
            {game.isBotGame ? 'Bot game starting' : 'Game starting'}
          </h2>
          <p className="text-sm text-muted">Room {game.roomCode}</p>
        </div>

        <div className="flex h-40 items-center justify-center sm:h-48" aria-live="assertive" aria-atomic="true">
          {big === null ? (
            <div className="w-full max-w-sm text-center">
              <p className="mb-3 text-lg font-semibold">Preparing the table…</p>
              <div
                className="h-2 overflow-hidden rounded-full bg-edge"
                role="progressbar"
                aria-label="Preparing the table"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(progress * 100)}
              >
                <div
                  className="h-full rounded-full bg-brand motion-safe:transition-[width] motion-safe:duration-100"
                  style={{ width: `${progress * 100}%` }}
                />
              </div>
            </div>
          ) : (
            <p
              ref={bigText}
              key={big}
              className={`font-black leading-none ${
                go ? 'text-7xl text-gold sm:text-8xl' : 'text-8xl text-white sm:text-9xl'
              } drop-shadow-[0_0_24px_rgba(168,85,247,0.6)]`}
            >
              {big}
            </p>
          )}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <section aria-label="System checks" className="rounded-xl border border-edge bg-panel p-4">
            <h3 className="mb-3 font-semibold">System Checks</h3>
            <ul className="space-y-2">
              {checks.map((check) => (
                <li key={check.name} className="flex items-center justify-between gap-2">
                  <span>{check.name}</span>
                  {check.idle ? (
                    <span className="text-sm text-muted">No bots</span>
                  ) : (
                    <Mark ready={elapsed >= check.readyAt} />
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section aria-label="Players" className="rounded-xl border border-edge bg-panel p-4">
            <h3 className="mb-3 font-semibold">Players</h3>
            <ul className="space-y-2">
              {players.map(({ player, readyAt, aiDelay }) => {
                const ready = elapsed >= readyAt;
                return (
                  <li
                    key={player.userId}
                    className={`flex items-center gap-2 rounded-lg border px-3 py-2 ${
                      ready ? 'border-green-500/50 bg-green-500/10' : 'border-edge'
                    }`}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-semibold">{playerDisplayName(player)}</span>
                      <span className="block text-xs text-muted">
                        {aiDelay === null
                          ? ready
                            ? 'Ready'
                            : 'Getting ready…'
                          : `${BOT_LABELS[player.botDifficulty ?? DEFAULT_DIFFICULTY]} · AI ${aiStatus(elapsed, aiDelay)}`}
                      </span>
                    </span>
                    <Mark ready={ready} />
                  </li>
                );
              })}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}
