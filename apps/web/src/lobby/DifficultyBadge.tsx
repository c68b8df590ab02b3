/** A bot's difficulty as a colored badge: "Easy Bot", "Normal Bot", "Hard Bot", "Expert Bot". */
import type { BotDifficulty } from '@memeslam/engine';
import { BOT_LABELS } from '@memeslam/protocol';
import { DIFFICULTY_BADGE_CLASSES } from './labels.ts';

export function DifficultyBadge({ difficulty }: { readonly difficulty: BotDifficulty }) {
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${DIFFICULTY_BADGE_CLASSES[difficulty]}`}>
      {BOT_LABELS[difficulty]}
    </span>
  );
}
