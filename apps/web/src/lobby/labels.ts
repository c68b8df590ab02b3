/** Words the lobby shows for setting values (the protocol names the values, not their labels). */
import type { GameSpeed } from '@memeslam/engine';
import { type BotChoice, MATCH_ME, MATCH_ME_TEXTS } from '@memeslam/protocol';

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function speedLabel(speed: GameSpeed): string {
  return capitalised(speed);
}

export function difficultyLabel(difficulty: BotChoice): string {
  return difficulty === MATCH_ME ? MATCH_ME_TEXTS.label : capitalised(difficulty);
}

export function botCountText(count: number): string {
  return count === 1 ? '1 bot' : `${count} bots`;
}
