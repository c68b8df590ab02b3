/**
 * What sockets and HTTP routes may ask of the games (`GameService.handle`), what each request
 * answers, and how the service reaches sockets.
 */
import type { Command } from '@memeslam/engine';
import { type ActiveGamesQuery, type Game, type GameSetup, type ServerMessage } from '@memeslam/protocol';
import type { Applied, GameRoom, Step } from './room.ts';
import { type Outcome, type RoomStatus, type ServerEmitters, fail } from './types.ts';

/** How rooms reach sockets; the socket.io gateway implements it. */
export interface Transport extends ServerEmitters {
  /** Puts every socket of the user into the game's channel (or takes them out). */
  subscribe(userId: string, gameId: string): void;
  unsubscribe(userId: string, gameId: string): void;
  /** Which of these users have a socket open (on any node, in cluster mode). */
  present(userIds: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface User {
  readonly id: string;
  readonly username: string;
  /**
   * The keyed hash of the network the request came from (GameService.addressKeyOf; docs/fair-play.md),
   * kept on the seat a create or join gives; absent where no address is known.
   */
  readonly addressKey?: string | null | undefined;
}

/** What a user may ask of the games: the same for sockets and HTTP. */
export type GameRequest =
  | {
      readonly type: 'create';
      readonly setup: GameSetup;
      /** Play now only (set by the server, never from a client): "Match me" bots' pace, the people's median. */
      readonly matchPaceMs?: number;
      /** A rematch only (set by the server): the previous game's players, for whom the lobby is held. */
      readonly holdFor?: readonly string[];
    }
  /** `watch`: a non-member may spectate a game in play when its host allows it (sockets). */
  | { readonly type: 'join'; readonly roomCode: string; readonly watch?: boolean }
  /** The user's game, or the one named by id or room code. */
  | { readonly type: 'leave'; readonly game?: string | undefined }
  | { readonly type: 'ready'; readonly isReady: boolean }
  | { readonly type: 'start' }
  | { readonly type: 'play'; readonly command: Command }
  /** The hand and public state of the user's game in play. */
  | { readonly type: 'view' }
  /** Cluster mode, between nodes only: the user's lobby seat is given up for a new game (refused in play). */
  | { readonly type: 'vacate' };

export interface Entry {
  readonly gameId: string;
  readonly roomCode: string;
  readonly game: ReturnType<GameRoom['game']>;
  readonly seq: number;
}

/** What a returning player's socket is sent: the whole game in play with their hand, or the lobby. */
export type Rejoin = ServerMessage<'gameRejoined' | 'gameUpdated'>;

/** A returning player's game and what their socket is sent (GameService.connected). */
export interface Seated {
  readonly gameId: string;
  readonly rejoin: Rejoin;
}

/** Waits for the step to be durable; a room that was stopped meanwhile answers with that. */
export async function settle<T>(room: GameRoom, step: Step<T>): Promise<Outcome<T>> {
  await step.done;
  if (!room.failed) return step.outcome;
  return fail(room.lost ? 'RECONNECTING' : 'GAME_STOPPED');
}

export function rejoinFor(room: GameRoom, userId: string): Rejoin {
  const hand = room.handFor(userId);
  const game = room.game(userId);
  if (!hand || !game.gameState) return { event: 'gameUpdated', payload: { ...game, seq: room.seq } };
  return {
    event: 'gameRejoined',
    payload: {
      ...hand,
      game,
      gameState: game.gameState,
      activeEffects: game.gameState.activeEffects,
      powerUps: hand.powerUps,
      isFrozen: hand.isFrozen,
    },
  };
}

/**
 * Cluster mode: what one node asks of the owner of a game. `present`: the user has a socket open on
 * the asking node. `gameId`: the game the asker found this node owning; a node that does not run it
 * refuses (NOT_THE_OWNER) rather than answer for it. Answers are plain data (they cross Redis).
 */
export type Forwarded =
  | {
      readonly kind: 'handle';
      readonly gameId: string;
      readonly user: User;
      readonly request: GameRequest;
      readonly present: boolean;
    }
  | { readonly kind: 'connect'; readonly gameId: string; readonly userId: string }
  | { readonly kind: 'disconnect'; readonly userId: string }
  | { readonly kind: 'room'; readonly gameId: string; readonly question: RoomQuestion }
  | { readonly kind: 'live'; readonly viewerId: string; readonly query: LiveQuery };

/** What may be asked about one live room: the game as a viewer sees it, or its bots' activity. */
export type RoomQuestion = { readonly kind: 'describe'; readonly viewerId: string } | { readonly kind: 'bots' };

/** A bot counts as active if it acted within this long (GET /game/:id/bot-status). */
const BOT_ACTIVE_WITHIN_MS = 5000;

export interface BotStatus {
  readonly gameId: string;
  readonly isBotGame: boolean;
  readonly bots: ReturnType<GameRoom['botStatus']>;
}

export function answerAbout(room: GameRoom, question: RoomQuestion): ReturnType<GameRoom['game']> | BotStatus {
  if (question.kind === 'describe') return room.game(question.viewerId);
  return { gameId: room.id, isBotGame: room.isBotGame, bots: room.botStatus(BOT_ACTIVE_WITHIN_MS) };
}

/** The lobby list's filters (GET /game/active), as every node applies them to its own rooms. */
export type LiveQuery = Pick<ActiveGamesQuery, 'gameMode' | 'botDifficulty'> & {
  readonly includeBotGames: boolean;
  readonly limit: number;
  /** The viewer is an admin or superadmin: games with spectators off are listed too (docs/privacy.md). */
  readonly seesPrivate?: boolean;
};

/** One node's part of the lobby list: its newest matching games, and its counts of live games by kind. */
export interface LiveList {
  readonly games: Game[];
  readonly summary: { readonly botGames: number; readonly humanGames: number };
}

/** The lobby list of some rooms: matching games newest first (at most `limit`), and the counts. */
export function liveList(rooms: readonly GameRoom[], viewerId: string, query: LiveQuery): LiveList {
  const games = rooms
    .filter((room) => {
      // A game with spectators off is listed only to its players and admins (docs/privacy.md).
      if (!room.setup.allowSpectators && !query.seesPrivate && !room.isMember(viewerId)) return false;
      // A rematch lobby still held for the previous game's players is not open to this viewer yet.
      if (room.heldFrom(viewerId)) return false;
      if (query.gameMode === 'wagered') return false;
      if (query.gameMode === 'bot' && !room.isBotGame) return false;
      if (!query.includeBotGames && room.isBotGame && query.gameMode !== 'bot') return false;
      return true;
    })
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((room) => room.game(viewerId))
    .filter((game) => !query.botDifficulty || game.botInfo?.difficulty === query.botDifficulty)
    .slice(0, query.limit);
  const botGames = rooms.filter((r) => r.isBotGame).length;
  return { games, summary: { botGames, humanGames: rooms.length - botGames } };
}

/** The lists of several nodes as one: newest first, at most `limit`, counts summed. */
export function mergeLiveLists(lists: readonly LiveList[], limit: number): LiveList {
  const games = lists
    .flatMap((list) => list.games)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .slice(0, limit);
  const sum = (kind: 'botGames' | 'humanGames') => lists.reduce((total, list) => total + list.summary[kind], 0);
  return { games, summary: { botGames: sum('botGames'), humanGames: sum('humanGames') } };
}

export interface Answers {
  create: Entry;
  /** `rejoin`: what the joining socket is sent when the game is already under way (a returning member). */
  join: Entry & { readonly watching: boolean; readonly rejoin: Rejoin | null };
  leave: null;
  ready: { isReady: boolean };
  start: { status: RoomStatus };
  play: Applied;
  view: { hand: NonNullable<ReturnType<GameRoom['handFor']>>; game: ReturnType<GameRoom['game']> };
  vacate: null;
}
