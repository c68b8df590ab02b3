/**
 * What sockets and HTTP routes may ask of the games (`GameService.handle`), what each request
 * answers, and how the service reaches sockets.
 */
import type { Command } from '@memeslam/engine';
import type { GameSetup, ServerEventName } from '@memeslam/protocol';
import type { Applied, GameRoom } from './room.ts';
import type { RoomStatus } from './types.ts';

/** How rooms reach sockets; the socket.io gateway implements it. */
export interface Transport {
  toRoom(gameId: string, event: ServerEventName, payload: object): void;
  toUser(userId: string, event: ServerEventName, payload: object): void;
  /** Puts every socket of the user into the game's channel (or takes them out). */
  subscribe(userId: string, gameId: string): void;
  unsubscribe(userId: string, gameId: string): void;
}

export interface User {
  readonly id: string;
  readonly username: string;
}

/** What a user may ask of the games: the same for sockets and HTTP. */
export type GameRequest =
  | { readonly type: 'create'; readonly setup: GameSetup }
  /** `watch`: a non-member may spectate a game in play when its host allows it (sockets). */
  | { readonly type: 'join'; readonly roomCode: string; readonly watch?: boolean }
  /** The user's game, or the one named by id or room code. */
  | { readonly type: 'leave'; readonly game?: string | undefined }
  | { readonly type: 'ready'; readonly isReady: boolean }
  | { readonly type: 'start' }
  | { readonly type: 'play'; readonly command: Command }
  /** The hand and public state of the user's game in play. */
  | { readonly type: 'view' };

export interface Entry {
  readonly gameId: string;
  readonly roomCode: string;
  readonly game: ReturnType<GameRoom['game']>;
  readonly seq: number;
}

export interface Answers {
  create: Entry;
  join: Entry & { readonly watching: boolean; readonly room: GameRoom };
  leave: null;
  ready: { isReady: boolean };
  start: { status: RoomStatus };
  play: Applied;
  view: { hand: NonNullable<ReturnType<GameRoom['handFor']>>; game: ReturnType<GameRoom['game']> };
}
