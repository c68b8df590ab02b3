/**
 * What the tournament entry control shows: one state per tournament and viewer, judged
 * in the order a person needs to hear it. The server decides in the end (POST /join answers with
 * its own text); this only spares the person a button that cannot work.
 */
import type { Tournament, TournamentStanding, UncountedGame, User } from '@memeslam/protocol';

export type EntryState =
  /** A participant: the Joined badge and their standing. */
  | 'joined'
  /** Over (the server's status, or its end date has passed while the page was open). */
  | 'ended'
  | 'signedOut'
  /** Demo guests cannot join: prizes go to accounts. */
  | 'guest'
  /** participantCount has reached maxParticipants. */
  | 'full'
  /** requireVerifiedSolana and the viewer has no verified wallet. */
  | 'walletRequired'
  /** A people-only tournament and the viewer's e-mail is not verified (docs/fair-play.md). */
  | 'emailRequired'
  /** The Join button. */
  | 'open';

export function entryState(
  tournament: Pick<Tournament, 'isJoined' | 'participantCount' | 'settings'>,
  viewer: Pick<User, 'isGuest' | 'wallet' | 'emailVerified'> | null,
  ended: boolean,
): EntryState {
  if (viewer && tournament.isJoined) return 'joined';
  if (ended) return 'ended';
  // Full is final for everyone, signed in or not.
  const max = tournament.settings.maxParticipants;
  if (max !== null && tournament.participantCount >= max) return 'full';
  if (!viewer) return 'signedOut';
  if (viewer.isGuest) return 'guest';
  if (tournament.settings.requireVerifiedSolana && !viewer.wallet.solanaAddress) return 'walletRequired';
  if (!tournament.settings.allowBots && !viewer.emailVerified) return 'emailRequired';
  return 'open';
}

/** The game to explain: the newest one since the last counted game that did not count, if any. */
export function latestUncounted(standing: Pick<TournamentStanding, 'recentUncounted'>): UncountedGame | null {
  return standing.recentUncounted[0] ?? null;
}
