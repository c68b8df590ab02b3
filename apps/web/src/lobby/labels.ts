/** Words the lobby shows for setting values (ours: the spec names the values, not their labels). */
import type { BotDifficulty, GameSpeed } from '@memeslam/engine';

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function speedLabel(speed: GameSpeed): string {
  return capitalised(speed);
}

export function difficultyLabel(difficulty: BotDifficulty): string {
  return capitalised(difficulty);
}

export function botCountText(count: number): string {
  return count === 1 ? '1 bot' : `${count} bots`;
}

/** Difficulty badges: easy green, normal yellow, hard red (spec §4 "Bots"); expert (ours) purple. */
export const DIFFICULTY_BADGE_CLASSES: Record<BotDifficulty, string> = {
  easy: 'border-green-500/60 bg-green-500/15 text-green-300',
  normal: 'border-yellow-500/60 bg-yellow-500/15 text-yellow-200',
  hard: 'border-red-500/60 bg-red-500/15 text-red-300',
  expert: 'border-fuchsia-500/60 bg-fuchsia-500/15 text-fuchsia-300',
};
