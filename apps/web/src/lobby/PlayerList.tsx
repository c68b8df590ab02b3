/**
 * The seats of the room: each player with host, you and ready marks (bots with "(Bot)" and their
 * difficulty badge), then an empty slot for every seat still free.
 */
import { playerDisplayName } from '@memeslam/protocol';
import type { Game } from '../game/state.ts';
import { DifficultyBadge } from '../components/DifficultyBadge.tsx';
import { Icon } from '../components/Icon.tsx';

export interface PlayerListProps {
  readonly game: Game;
  readonly me: string | null;
}

export function PlayerList({ game, me }: PlayerListProps) {
  const players = [...game.players].sort((a, b) => a.position - b.position);
  const empty = Math.max(0, game.maxPlayers - players.length);
  return (
    <section aria-labelledby="players-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="players-title" className="mb-3 flex items-baseline justify-between text-lg font-semibold">
        Players
        <span className="text-sm font-normal text-muted">
          {players.length}/{game.maxPlayers}
        </span>
      </h2>
      <ul className="space-y-2">
        {players.map((player) => (
          <li
            key={player.userId}
            aria-label={playerDisplayName(player)}
            className={`flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 ${
              player.isReady ? 'border-green-500/50 bg-green-500/10' : 'border-edge bg-ink/60'
            }`}
          >
            <span
              aria-hidden="true"
              className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand/30 font-bold"
            >
              {player.isBot ? <Icon name="robot" /> : player.username.charAt(0).toUpperCase()}
            </span>
            <span className="min-w-0 truncate font-semibold">{playerDisplayName(player)}</span>
            {player.userId === me && <span className="text-xs text-muted">(You)</span>}
            {player.isHost && <span className="rounded-full bg-gold px-2 py-0.5 text-xs font-bold text-ink">Host</span>}
            {player.isBot && player.botDifficulty && <DifficultyBadge difficulty={player.botDifficulty} />}
            <span
              className={`ml-auto flex items-center gap-1 text-sm font-semibold ${player.isReady ? 'text-green-300' : 'text-muted'}`}
            >
              {player.isReady && <Icon name="check" className="size-4" />}
              {player.isReady ? 'Ready' : 'Not ready'}
            </span>
          </li>
        ))}
        {Array.from({ length: empty }, (_, i) => (
          <li
            key={`empty-${i}`}
            className="flex items-center gap-2 rounded-lg border border-dashed border-edge px-3 py-2 text-muted"
          >
            <span aria-hidden="true" className="h-8 w-8 shrink-0 rounded-full border border-dashed border-edge" />
            Waiting for player…
          </li>
        ))}
      </ul>
    </section>
  );
}
