/**
 * Dashboard wording used only by the web app (all "ours"). Every text shared with the server
 * comes from @memeslam/protocol (DASHBOARD_TEXTS, CONNECTION_TEXTS, BOT_LABELS…), never from here.
 */
import type { GameSpeed } from '@memeslam/engine';

export const DASHBOARD_UI = {
  tagline: 'Ready to slam some memes?',
  retry: 'Retry',
  dismiss: 'Dismiss',
  botTrainingComingSoon: 'Bot Training is coming soon!',
  noHumanGames: 'No open games right now. Create one and invite your friends!',
  noBotGames: 'No bot games running. Start one with Quick Start or Create Bot Game.',
  loadingGames: 'Loading games…',
} as const;

export const SPEED_LABELS: Record<GameSpeed, string> = {
  slow: 'Slow',
  normal: 'Normal',
  fast: 'Fast',
  blitz: 'Blitz',
};

export const STATUS_LABELS = {
  waiting: 'Waiting',
  starting: 'Starting',
  active: 'In progress',
  finished: 'Finished',
} as const;

/** "Easy", "Normal"… for buttons and selects. */
export function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
