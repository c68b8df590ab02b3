/** The game list of a tab: count, Refresh, loading and empty states, and the entries. */
import type { ReactNode } from 'react';
import type { EntryAction, GameSummary, Me } from './entry.ts';
import { GameCard } from './GameCard.tsx';
import { Icon } from '../components/Icon.tsx';
import { DASHBOARD_UI } from './texts.ts';

interface Props {
  readonly title: string;
  readonly games: readonly GameSummary[] | undefined;
  readonly loading: boolean;
  readonly refreshing: boolean;
  readonly empty: ReactNode;
  readonly me: Me;
  readonly joining: string | null;
  readonly connectionError: boolean;
  readonly onRefresh: () => void;
  readonly onAction: (action: EntryAction, game: GameSummary) => void;
}

export function GameList(props: Props) {
  const { title, games, loading, refreshing, empty, me, joining, connectionError, onRefresh, onAction } = props;
  const count = games?.length ?? 0;
  return (
    <div>
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 className="font-semibold">
          {title} <span className="text-muted">({count})</span>
        </h3>
        <button
          type="button"
          onClick={onRefresh}
          disabled={refreshing}
          className="flex items-center gap-2 rounded-lg border border-edge px-3 py-1 text-sm hover:bg-ink/60 disabled:opacity-60"
        >
          <Icon name="refresh" className={`h-4 w-4 ${refreshing ? 'motion-safe:animate-spin' : ''}`} light />
          Refresh
        </button>
      </div>
      {loading ? (
        <p role="status" className="py-8 text-center text-muted">
          {DASHBOARD_UI.loadingGames}
        </p>
      ) : count === 0 ? (
        <div className="rounded-xl border border-dashed border-edge px-4 py-10 text-center text-muted">{empty}</div>
      ) : (
        <ul aria-label={title} className="space-y-3">
          {games?.map((game) => (
            <GameCard
              key={game.gameId}
              game={game}
              me={me}
              joining={joining === game.roomCode}
              connectionError={connectionError}
              onAction={onAction}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
