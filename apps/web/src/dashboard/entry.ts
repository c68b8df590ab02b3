/**
 * Who may do what with a game in the dashboard's list (its entry rules),
 * as pure functions of the game summary and the signed-in user, so the list and the banners agree.
 */
import type { DeepReadonly, Game } from '@memeslam/protocol';

export type GameSummary = DeepReadonly<Game>;

export interface Me {
  readonly id: string;
  readonly username: string;
}

/** The host is named by id where the server gives one, else by username (the dashboard's reading). */
export function isHost(game: GameSummary, me: Me): boolean {
  return game.host.userId !== undefined ? game.host.userId === me.id : game.host.username === me.username;
}

/** Member: the host or anyone in the players list. */
export function isMember(game: GameSummary, me: Me): boolean {
  return isHost(game, me) || game.players.some((p) => !p.isBot && p.userId === me.id);
}

/** The entry's membership badge: Your Game for the host, You're In for another member, else none. */
export function memberBadge(game: GameSummary, me: Me): 'Your Game' | "You're In" | null {
  if (isHost(game, me)) return 'Your Game';
  return isMember(game, me) ? "You're In" : null;
}

export type EntryAction =
  | { readonly kind: 'resume'; readonly label: 'Resume Game' }
  | { readonly kind: 'lobby'; readonly label: 'Enter Lobby' }
  | { readonly kind: 'join'; readonly label: 'Join Game' | 'Join Bot Game' }
  | { readonly kind: 'full'; readonly label: 'Game Full' };

/**
 * Exactly one action per entry. A member's game that is starting goes to the lobby like a waiting
 * one: the waiting room follows it to the table, and "Game Full" on one's own game would be wrong.
 */
export function entryAction(game: GameSummary, me: Me): EntryAction {
  const member = isMember(game, me);
  if (member && game.status === 'active') return { kind: 'resume', label: 'Resume Game' };
  if (member && (game.status === 'waiting' || game.status === 'starting'))
    return { kind: 'lobby', label: 'Enter Lobby' };
  if (!member && game.isOpen && game.status === 'waiting' && game.playersCount < game.maxPlayers) {
    return { kind: 'join', label: game.isBotGame ? 'Join Bot Game' : 'Join Game' };
  }
  return { kind: 'full', label: 'Game Full' };
}

export type StatusBadge = 'In Game' | 'Open' | 'Full';

export function statusBadge(game: GameSummary): StatusBadge {
  if (game.status === 'active' || game.status === 'starting') return 'In Game';
  return game.isOpen && game.playersCount < game.maxPlayers ? 'Open' : 'Full';
}

export function botInfoOf(game: GameSummary) {
  return game.botInfo ?? game.botSettings;
}

/** Where a member goes back into their game: the game page when in play, else the lobby. */
export function pathToGame(game: GameSummary): string | null {
  if (game.status === 'active') return `/game/${encodeURIComponent(game.gameId)}`;
  if (game.status === 'waiting' || game.status === 'starting') return `/lobby/${encodeURIComponent(game.roomCode)}`;
  return null;
}
