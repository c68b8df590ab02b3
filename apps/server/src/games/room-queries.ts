/**
 * Read-only questions about the live games, wherever they run: one game as a viewer sees it, its
 * bots' activity, the lobby list, and the unfinished game a user sits in. Answered from this node's
 * rooms, or in cluster mode by the node that runs the game (the lobby list by every node, merged).
 */
import type { ClusterGames } from './cluster-games.ts';
import { type BotStatus, type LiveList, type LiveQuery, type RoomQuestion, answerAbout, liveList } from './requests.ts';
import type { RoomRegistry } from './room-registry.ts';
import type { GameRoom } from './room.ts';

export class RoomQueries {
  readonly #rooms: RoomRegistry;
  readonly #cluster: ClusterGames | null;

  constructor(deps: { rooms: RoomRegistry; cluster: ClusterGames | null }) {
    this.#rooms = deps.rooms;
    this.#cluster = deps.cluster;
  }

  /** A game as `viewerId` sees it, wherever it runs: here, on its owner, or (no longer live) null. */
  async describe(idOrCode: string, viewerId: string): Promise<ReturnType<GameRoom['game']> | null> {
    return this.#askRoom(idOrCode, { kind: 'describe', viewerId });
  }

  /** GET /game/:id/bot-status, wherever the game runs (null: no such live game). */
  async botStatus(idOrCode: string): Promise<BotStatus | null> {
    return this.#askRoom(idOrCode, { kind: 'bots' });
  }

  /** The lobby list (GET /game/active): this node's live games, or in cluster mode every node's. */
  async liveGames(viewerId: string, query: LiveQuery): Promise<LiveList> {
    return this.#cluster ? this.#cluster.liveGames(viewerId, query) : liveList(this.#rooms.live, viewerId, query);
  }

  /** The unfinished game the user sits in, wherever it runs. */
  async currentGame(userId: string): Promise<ReturnType<GameRoom['game']> | null> {
    const room = this.#rooms.seatOf(userId);
    if (room) return room.game(userId);
    const gameId = (await this.#cluster?.seatOf(userId)) ?? null;
    return gameId ? this.describe(gameId, userId) : null;
  }

  /** A question about one live room, answered here or by its owner. */
  async #askRoom<T>(idOrCode: string, question: RoomQuestion): Promise<T | null> {
    const room = this.#rooms.find(idOrCode);
    if (room) return answerAbout(room, question) as T;
    const here = (gameId: string) => {
      const found = this.#rooms.find(gameId);
      return found ? (answerAbout(found, question) as T) : null;
    };
    return this.#cluster ? this.#cluster.ask<T>(idOrCode, question, here) : null;
  }
}
