/**
 * The user's current game (GET /game/my-games): "Return to Game" once it is in play, "Your Active
 * Game" with Enter Lobby while it waits. Both show the room code, players, and bots with difficulty.
 */
import { BOT_LABELS } from '@memeslam/protocol';
import { type GameSummary, botInfoOf } from './entry.ts';

export function CurrentGameBanner({ game, onEnter }: { game: GameSummary; onEnter: () => void }) {
  const inPlay = game.status === 'active';
  const bots = botInfoOf(game);
  const title = inPlay ? 'Return to Game' : 'Your Active Game';
  return (
    <section
      aria-label={title}
      className="flex flex-col gap-3 rounded-xl border border-gold/60 bg-gradient-to-r from-gold/15 via-panel to-panel p-4 sm:flex-row sm:items-center"
    >
      <div className="flex-1">
        <h2 className="text-lg font-bold text-gold">{title}</h2>
        <p className="mt-1 text-sm text-muted">
          Room <span className="font-mono font-semibold tracking-wider text-white">{game.roomCode}</span> ·{' '}
          {game.playersCount}/{game.maxPlayers} players
          {bots && bots.numberOfBots > 0 && (
            <>
              {' '}
              · {bots.numberOfBots} {bots.numberOfBots === 1 ? 'bot' : 'bots'} ({BOT_LABELS[bots.difficulty]})
            </>
          )}
        </p>
      </div>
      <button
        type="button"
        onClick={onEnter}
        className="rounded-lg bg-gold px-4 py-2 font-semibold text-ink hover:brightness-110"
      >
        {inPlay ? 'Return to Game' : 'Enter Lobby'}
      </button>
    </section>
  );
}
