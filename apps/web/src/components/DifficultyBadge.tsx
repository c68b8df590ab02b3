/** A bot's difficulty as a colored badge: "Easy Bot", "Normal Bot", "Hard Bot", "Expert Bot". */
import type { BotDifficulty } from '@memeslam/engine';
import { BOT_LABELS } from '@memeslam/protocol/game-texts';

/** easy green, normal yellow, hard red, expert purple. */
export const DIFFICULTY_BADGE_CLASSES: Record<BotDifficulty, string> = {
  easy: 'border-green-500/60 bg-green-500/15 text-green-300',
  normal: 'border-yellow-500/60 bg-yellow-500/15 text-yellow-200',
  hard: 'border-red-500/60 bg-red-500/15 text-red-300',
  expert: 'border-fuchsia-500/60 bg-fuchsia-500/15 text-fuchsia-300',
};

export function DifficultyBadge({ difficulty }: { readonly difficulty: BotDifficulty }) {
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${DIFFICULTY_BADGE_CLASSES[difficulty]}`}>
      {BOT_LABELS[difficulty]}
    </span>
  );
}
