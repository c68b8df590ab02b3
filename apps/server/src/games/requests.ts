/**
 * What sockets and HTTP routes may ask of the games (`GameService.handle`), what each request
 * answers, and how the service reaches sockets.
 */
import { type Game, type ServerMessage } from '@memeslam/protocol';
import type { LiveQuery, RoomQuestion } from '../cluster/messages.ts';
import type { Applied, GameRoom, Step } from './room.ts';
import { type Outcome, type RoomStatus, type ServerEmitters, fail } from './types.ts';

/** How rooms reach sockets; the socket.io gateway implements it. */
export interface Transport extends ServerEmitters {
  /** Puts every socket of the user into the game's channel (or takes them out). */
  subscribe(userId: string, gameId: string): void;
  unsubscribe(userId: string, gameId: string): void;
  /** Every socket leaves the game's channel: the room is forgotten, and its channel with it. */
  close(gameId: string): void;
  /** Which of these users have a socket open (on any node, in cluster mode). */
  present(userIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/**
 * A user's request (`GameRequest`), who makes it (`User`), and what one node asks of another
 * (`Forwarded`): the schemas of cluster/messages.ts give their types, as other nodes' bodies are
 * parsed by them on receipt. A user's `addressKey` is the keyed hash of the network the request came
 * from (GameService.addressKeyOf; docs/fair-play.md), kept on the seat a create or join gives.
 */
export type { GameRequest, LiveQuery, NodeRequest as Forwarded, RoomQuestion, User } from '../cluster/messages.ts';

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

/** A bot counts as active if it acted within this long (GET /game/:id/bot-status). */
const BOT_ACTIVE_WITHIN_MS = 5000;

export interface BotStatus {
  readonly gameId: string;
  readonly isBotGame: boolean;
  readonly bots: ReturnType<GameRoom['botStatus']>;
}

/** What a room answers about itself: the game as the viewer sees it, or its bots' activity. */
export type RoomAnswer = ReturnType<GameRoom['game']> | BotStatus;

/** Tells the two answers apart: only a bots' answer has `bots`. */
export function isBotStatus(answer: RoomAnswer): answer is BotStatus {
  return 'bots' in answer;
}

export function answerAbout(room: GameRoom, question: RoomQuestion): RoomAnswer {
  if (question.kind === 'describe') return room.game(question.viewerId);
  return { gameId: room.id, isBotGame: room.isBotGame, bots: room.botStatus(BOT_ACTIVE_WITHIN_MS) };
}

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
