/**
 * An invite link followed while signed in: when the user waits in a lobby of their own (another
 * room, not yet dealt), joining would leave it, so the invite page asks first (docs/privacy.md).
 */
export interface UnfinishedGame {
  readonly roomCode: string;
  readonly status: string;
}

/** The room code of the user's own waiting lobby that joining `roomCode` would leave, or null. */
export function lobbyLeftByJoining(games: readonly UnfinishedGame[], roomCode: string): string | null {
  const own = games.find((g) => g.status === 'waiting' || g.status === 'starting');
  return own && own.roomCode.toUpperCase() !== roomCode.toUpperCase() ? own.roomCode : null;
}
