/** The lobby pages' own texts (ours: not in the protocol's shared texts). */

/** Following an invite link while waiting in one's own lobby (docs/privacy.md). */
export const LEAVE_LOBBY_TEXTS = {
  title: 'Leave your lobby?',
  description: (ownRoomCode: string, roomCode: string) =>
    `You are waiting in your lobby ${ownRoomCode}. Joining room ${roomCode} takes you out of it.`,
  stay: 'Stay in my lobby',
  leaveAndJoin: 'Leave and join',
} as const;
