/**
 * The way into a lobby: creating a game (within the room ceiling and the user's budget of
 * creations, with a fresh room code and, in cluster mode, this node's lease on it) and joining one by
 * its code, as a player or a spectator. One unfinished game per user: a lobby the user sits in
 * (here or on another node) is left for the new one; a game in play is not.
 */
import { randomUUID } from 'node:crypto';
import { type GameSetup, LOBBY_TEXTS, MATCH_ME, SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { type BudgetFactory, type BudgetStore, memoryBudgets } from '../http/token-buckets.ts';
import type { ClusterGames } from './cluster-games.ts';
import {
  type Answers,
  type Entry,
  type GameRequest,
  type Transport,
  type User,
  rejoinFor,
  settle,
} from './requests.ts';
import type { RoomRegistry } from './room-registry.ts';
import { GameRoom } from './room.ts';
import type { GameStore } from './store.ts';
import { type Outcome, type RoomDeps, fail, ok } from './types.ts';

export class LobbyEntry {
  readonly #rooms: RoomRegistry;
  readonly #store: GameStore;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #cluster: ClusterGames | null;
  readonly #roomDeps: RoomDeps;
  readonly #transport: () => Transport | null;
  readonly #forward: (
    cluster: ClusterGames,
    gameId: string,
    user: User,
    request: GameRequest,
  ) => Promise<Outcome<unknown>>;
  readonly #maxRooms: number;
  /** Each user's budget of game creations (null: unlimited). */
  readonly #creations: BudgetStore | null;

  constructor(deps: {
    rooms: RoomRegistry;
    store: GameStore;
    clock: Clock;
    log: FastifyBaseLogger;
    cluster: ClusterGames | null;
    roomDeps: RoomDeps;
    transport: () => Transport | null;
    /** Runs a request on the node that runs the game (cluster mode). */
    forward: (cluster: ClusterGames, gameId: string, user: User, request: GameRequest) => Promise<Outcome<unknown>>;
    limits: { maxLiveRooms: number; gamesCreatedPerMinute: number | null } | undefined;
    budgets: BudgetFactory | undefined;
  }) {
    this.#rooms = deps.rooms;
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#cluster = deps.cluster;
    this.#roomDeps = deps.roomDeps;
    this.#transport = deps.transport;
    this.#forward = deps.forward;
    this.#maxRooms = deps.limits?.maxLiveRooms ?? Number.POSITIVE_INFINITY;
    const perMinute = deps.limits?.gamesCreatedPerMinute ?? null;
    this.#creations =
      perMinute === null
        ? null
        : (deps.budgets ?? memoryBudgets)('games-created', { capacity: perMinute, perSecond: perMinute / 60 });
  }

  async create(user: User, asked: GameSetup): Promise<Outcome<Entry>> {
    if (this.#rooms.size >= this.#maxRooms) return fail(SERVER_TEXTS.serverBusy);
    if (this.#creations && !(await this.#creations.take(user.id, this.#clock.now()))) {
      return fail(SERVER_TEXTS.tooManyGamesCreated);
    }
    const free = await this.freeSeatFor(user.id);
    if (!free.ok) return free;
    // "Match me": the bots take the host's recorded pace, fixed now and kept with the room's settings.
    const setup =
      asked.bots?.difficulty === MATCH_ME
        ? { ...asked, bots: { ...asked.bots, matchPaceMs: await this.#store.recordedPaceOf(user.id) } }
        : asked;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const roomCode = this.#rooms.newRoomCode();
      const room = new GameRoom(
        { id: randomUUID(), roomCode, host: user, setup, createdAt: this.#clock.now() },
        this.#roomDeps,
      );
      // Cluster mode: this node owns the new game from its first write (epoch 1).
      if (this.#cluster && !(await this.#cluster.claimNew(room.id))) {
        return fail(SERVER_TEXTS.clusterUnavailable);
      }
      try {
        await this.#store.insert({
          id: room.id,
          roomCode,
          hostId: user.id,
          isBotGame: room.isBotGame,
          setup,
          lobby: {
            hostId: user.id,
            hostName: user.username,
            status: 'waiting',
            seats: [],
            startsAt: null,
            autoStartAt: null,
            seq: 0,
            savedAt: this.#clock.now(),
          },
        });
      } catch (error) {
        // An unfinished game in the database holds the code: draw again.
        this.#log.warn({ err: error, roomCode }, 'room code taken, drawing another');
        this.#cluster?.registry((leases) => leases.release(room.id));
        continue;
      }
      this.#rooms.add(room);
      const opened = await settle(room, room.open());
      if (!opened.ok) return opened;
      this.#rooms.seat(user.id, room);
      await room.settled();
      return ok(this.#entry(room, user.id));
    }
    return fail(LOBBY_TEXTS.failedToCreateGame);
  }

  async join(user: User, roomCode: string, watch: boolean): Promise<Outcome<Answers['join']>> {
    const room = this.#rooms.byCode(roomCode);
    if (!room || room.status === 'finished') return fail(LOBBY_TEXTS.gameNotFound);
    const answer = (watching: boolean) =>
      ok({
        ...this.#entry(room, user.id),
        watching,
        rejoin: !watching && room.status === 'active' ? rejoinFor(room, user.id) : null,
      });
    if (room.isMember(user.id)) {
      this.#rooms.seat(user.id, room);
      await room.settled();
      return answer(false);
    }
    if (room.status !== 'waiting') {
      // A non-member may watch a game under way when its host allows spectators.
      if (!watch) return fail(LOBBY_TEXTS.gameAlreadyStarted);
      if (!room.setup.allowSpectators) return fail(LOBBY_TEXTS.spectatorsNotAllowed);
      this.#transport()?.subscribe(user.id, room.id);
      return answer(true);
    }
    if (!room.isOpen()) return fail(LOBBY_TEXTS.gameFull);
    const free = await this.freeSeatFor(user.id);
    if (!free.ok) return free;
    const joined = await settle(room, room.join(user));
    if (!joined.ok) return joined;
    this.#rooms.seat(user.id, room);
    await room.settled();
    return answer(false);
  }

  /** One unfinished game per user: a lobby they sit in is left for the new one; a game in play is not. */
  async freeSeatFor(userId: string, onOtherNodes = true): Promise<Outcome<null>> {
    const current = this.#rooms.seatOf(userId);
    if (!current && onOtherNodes && this.#cluster) {
      // Cluster mode: the seat may be in games other nodes run; each frees it. Redis's registry
      // names the game, and the database too (the registry is empty after Redis restarted, until
      // every node has registered its seats again).
      const registered = await this.#cluster.placeOfSeat(userId);
      const games = new Set([
        ...(registered === 'local' ? [] : [registered]),
        ...(await this.#store.seatedIn(userId)).filter((id) => !this.#rooms.has(id)),
      ]);
      const user = { id: userId, username: '' };
      for (const gameId of games) {
        const freed = (await this.#forward(this.#cluster, gameId, user, { type: 'vacate' })) as Outcome<null>;
        if (!freed.ok) return freed;
      }
    }
    if (!current || current.status === 'finished') return ok(null);
    if (current.status === 'active') {
      if (current.seatedHumanIds.includes(userId)) return fail(LOBBY_TEXTS.alreadyInGame);
      // They forfeited it (away too long): the game goes on without them, and they may play elsewhere.
      this.#rooms.unseat(userId, current);
      return ok(null);
    }
    // A leave that did not become durable (this node lost the game meanwhile) freed nothing: the
    // game's next owner still seats the user, so the create or join must not go on.
    const left = await settle(current, current.leave(userId));
    if (!left.ok) return left;
    this.#rooms.unseat(userId, current);
    return ok(null);
  }

  #entry(room: GameRoom, userId: string): Entry {
    return { gameId: room.id, roomCode: room.roomCode, game: room.game(userId), seq: room.seq };
  }
}
