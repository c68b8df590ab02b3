/** One-click bot games (free mode only): one bot of the chosen difficulty, two seats, auto-start. */
import { BOT_LABELS, type BotChoice, LOBBY_BOT_DIFFICULTIES, MATCH_ME, MATCH_ME_TEXTS } from '@memeslam/protocol';
import { DIFFICULTY_BADGE_CLASSES } from '../components/DifficultyBadge.tsx';

export interface QuickBotGamesProps {
  readonly onPick: (difficulty: BotChoice) => void;
  readonly disabled: boolean;
}

export function QuickBotGames({ onPick, disabled }: QuickBotGamesProps) {
  return (
    <section aria-labelledby="quick-bot-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="quick-bot-title" className="text-lg font-semibold">
        Quick Bot Game
      </h2>
      <p className="mb-3 text-sm text-muted">You against one bot. The game starts by itself.</p>
      <div className="grid grid-cols-2 gap-2">
        {LOBBY_BOT_DIFFICULTIES.map((difficulty) => (
          <button
            key={difficulty}
            type="button"
            disabled={disabled}
            onClick={() => onPick(difficulty)}
            className={`rounded-lg border px-3 py-2 font-semibold transition-colors hover:brightness-125 disabled:opacity-50 ${DIFFICULTY_BADGE_CLASSES[difficulty]}`}
          >
            {BOT_LABELS[difficulty]}
          </button>
        ))}
        <button
          type="button"
          disabled={disabled}
          onClick={() => onPick(MATCH_ME)}
          aria-describedby="quick-match-hint"
          className="col-span-2 rounded-lg border border-sky-400/60 bg-sky-400/15 px-3 py-2 font-semibold text-sky-200 transition-colors hover:brightness-125 disabled:opacity-50"
        >
          {MATCH_ME_TEXTS.label}
        </button>
      </div>
      <p id="quick-match-hint" className="mt-2 text-xs text-muted">
        {MATCH_ME_TEXTS.hint}
      </p>
    </section>
  );
}
