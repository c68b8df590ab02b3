/** The game screen's own words (the texts shared with the server are in @memeslam/protocol). */

/** The leave confirmation for a seated player while the game is in play: they forfeit it. */
export const LEAVE_COUNTS_AS_LOSS = 'Leaving a game in play counts as a loss: you are ranked last.';

/** A rematch from the result screen (result/useRematch.ts). */
export const REMATCH_TEXTS = {
  rematch: 'Rematch',
  joinRematch: 'Join rematch',
  offered: (username: string) => `${username} wants a rematch`,
  over: 'That rematch is no longer open',
  failed: 'Could not open a rematch',
} as const;
