/**
 * Read-only questions about the live games, wherever they run: one game as a viewer sees it, its
 * bots' activity, the lobby list, and the unfinished game a user sits in. Answered from this node's
 * rooms, or in cluster mode by the node that runs the game (the lobby list by every node, merged).
 */
import { type Game, PRIVATE_GAME_ROLES } from '@memeslam/protocol';
import type { GamesContext } from './context.ts';
import {
  type BotStatus,
  type LiveList,
  type LiveQuery,
  type RoomAnswer,
  type RoomQuestion,
  answerAbout,
  isBotStatus,
  liveList,
} from './requests.ts';
import type { GameRoom } from './room.ts';

/** Who asks about a game: their id, and whether their role sees private games (docs/privacy.md). */
export interface Viewer {
  readonly id: string;
  readonly seesPrivate: boolean;
}

export function viewerOf(user: { readonly id: string; readonly role: string }): Viewer {
  return { id: user.id, seesPrivate: (PRIVATE_GAME_ROLES as readonly string[]).includes(user.role) };
}

/**
 * Private means private (docs/privacy.md): a game whose host turned spectators off is seen only by
 * its players and by admins; to anyone else every route answers as for a game that does not exist.
 */
export function canSee(game: Pick<Game, 'gameSettings' | 'players'>, viewer: Viewer): boolean {
  return game.gameSettings.allowSpectators || viewer.seesPrivate || game.players.some((p) => p.userId === viewer.id);
}

export class RoomQueries {
  readonly #games: GamesContext;

  constructor(games: GamesContext) {
    this.#games = games;
  }

  /** A game as `viewerId` sees it, wherever it runs: here, on its owner, or (no longer live) null. */
  async describe(idOrCode: string, viewerId: string): Promise<ReturnType<GameRoom['game']> | null> {
    const answer = await this.#askRoom(idOrCode, { kind: 'describe', viewerId });
    return answer && !isBotStatus(answer) ? answer : null;
  }

  /** GET /game/:id/bot-status, wherever the game runs (null: no such live game, or one `viewer` may not see). */
  async botStatus(idOrCode: string, viewer: Viewer): Promise<BotStatus | null> {
    const game = await this.describe(idOrCode, viewer.id);
    if (!game || !canSee(game, viewer)) return null;
    const answer = await this.#askRoom(game.gameId, { kind: 'bots' });
    return answer && isBotStatus(answer) ? answer : null;
  }

  /** The lobby list (GET /game/active): this node's live games, or in cluster mode every node's. */
  async liveGames(viewerId: string, query: LiveQuery): Promise<LiveList> {
    const { rooms, ownership } = this.#games;
    return ownership.liveGames(viewerId, query, () => liveList(rooms.live, viewerId, query));
  }

  /** The unfinished game the user sits in, wherever it runs. */
  async currentGame(userId: string): Promise<ReturnType<GameRoom['game']> | null> {
    const room = this.#games.rooms.seatOf(userId);
    if (room) return room.game(userId);
    const gameId = await this.#games.ownership.seatOf(userId);
    return gameId ? this.describe(gameId, userId) : null;
  }

  /** A question about one live room, answered here or by its owner. */
  async #askRoom(idOrCode: string, question: RoomQuestion): Promise<RoomAnswer | null> {
    const { rooms, ownership } = this.#games;
    const room = rooms.find(idOrCode);
    if (room) return answerAbout(room, question);
    const here = (gameId: string) => {
      const found = rooms.find(gameId);
      return found ? answerAbout(found, question) : null;
    };
    return ownership.ask(idOrCode, question, here);
  }
}
