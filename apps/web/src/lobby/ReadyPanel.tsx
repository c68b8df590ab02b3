/**
 * The waiting room's actions: the Mark Ready toggle (showing the server's flag), Start Game for
 * the host, and "All players ready! Host can start the game!" once at least 2 are all ready.
 */
import { LOBBY_TEXTS } from '@memeslam/protocol';
import { Icon } from '../components/Icon.tsx';

export interface ReadyPanelProps {
  readonly isReady: boolean;
  readonly canToggle: boolean;
  readonly onToggle: () => void;
  readonly isHost: boolean;
  readonly canStart: boolean;
  readonly starting: boolean;
  readonly onStart: () => void;
  readonly allReady: boolean;
  readonly playerCount: number;
}

export function ReadyPanel(props: ReadyPanelProps) {
  const { isReady, canToggle, onToggle, isHost, canStart, starting, onStart, allReady, playerCount } = props;
  const hint = allReady
    ? null
    : playerCount < 2
      ? 'Waiting for another player to join…'
      : isHost
        ? 'Start Game unlocks when every player is ready.'
        : 'Waiting for every player to be ready…';
  return (
    <section aria-label="Ready" className="space-y-3 rounded-xl border border-edge bg-panel p-4">
      {allReady && (
        <p
          role="status"
          className="rounded-lg border border-green-500/50 bg-green-500/15 px-3 py-2 font-semibold text-green-200"
        >
          {LOBBY_TEXTS.allPlayersReady}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button
          type="button"
          aria-pressed={isReady}
          disabled={!canToggle}
          onClick={onToggle}
          className={`flex flex-1 items-center justify-center gap-2 rounded-xl border-2 px-5 py-3 text-lg font-bold transition-colors disabled:opacity-50 ${
            isReady
              ? 'border-green-400 bg-green-500/20 text-green-200'
              : 'border-brand bg-transparent text-white hover:bg-brand/20'
          }`}
        >
          {isReady && <Icon name="check" />}
          {isReady ? 'Ready' : 'Mark Ready'}
        </button>
        {isHost && (
          <button
            type="button"
            disabled={!canStart}
            onClick={onStart}
            className="flex-1 rounded-xl bg-gold px-5 py-3 text-lg font-bold text-ink shadow-lg shadow-gold/20 disabled:opacity-40"
          >
            {starting ? 'Starting…' : 'Start Game'}
          </button>
        )}
      </div>
      {hint && <p className="text-sm text-muted">{hint}</p>}
    </section>
  );
}
