/** The bots of the room (count, difficulty, names), or that this game is people only. */
import { playerDisplayName } from '@memeslam/protocol';
import type { Game } from '../game/state.ts';
import { DifficultyBadge } from '../components/DifficultyBadge.tsx';
import { botCountText } from './labels.ts';

export function BotInfoPanel({ game }: { readonly game: Game }) {
  const bots = game.players.filter((p) => p.isBot);
  const info = game.botInfo ?? game.botSettings;
  return (
    <section aria-labelledby="bot-info-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="bot-info-title" className="mb-2 text-lg font-semibold">
        Bots
      </h2>
      {bots.length === 0 ? (
        <p className="text-sm text-muted">No bots: this game is for people only.</p>
      ) : (
        <>
          <p className="mb-2 flex items-center gap-2 text-sm text-muted">
            {botCountText(info?.numberOfBots ?? bots.length)}
            {info && <DifficultyBadge difficulty={info.difficulty} />}
          </p>
          <ul className="space-y-1 text-sm">
            {bots.map((bot) => (
              <li key={bot.userId} className="flex items-center justify-between gap-2">
                <span>{playerDisplayName(bot)}</span>
                {bot.botDifficulty && <DifficultyBadge difficulty={bot.botDifficulty} />}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-muted">Bots are always ready and play on their own.</p>
        </>
      )}
    </section>
  );
}
