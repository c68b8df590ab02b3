/**
 * The game rooms of this server and the one door into them. Sockets and HTTP routes call
 * `handle(user, request)`; it runs one user's requests one at a time (so concurrent creates and joins
 * from several tabs or over HTTP still leave the user in exactly one game), checks membership,
 * spectators and "one unfinished game per user", and answers once the room's step is durable. The
 * service also owns the group-committed command log, records finished games (retried without limit),
 * stops a room that throws without stopping any other, and rebuilds rooms from their logs at start-up.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { RecordableHistogram } from 'node:perf_hooks';
import {
  GAME_TEXTS,
  type GameSetup,
  LOBBY_TEXTS,
  MATCH_ME,
  ROOM_CODE_ALPHABET,
  ROOM_CODE_LENGTH,
  SERVER_TEXTS,
} from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { NODE_STOPPING, NOT_THE_OWNER, NodeUnreachable } from '../cluster/bus.ts';
import type { ClusterRedis } from '../cluster/redis.ts';
import type { Db, Prepared } from '../db/client.ts';
import { type BudgetFactory, type BudgetStore, memoryBudgets } from '../http/token-buckets.ts';
import { GameLog } from './log.ts';
import {
  type Answers,
  type BotStatus,
  type Entry,
  type Forwarded,
  type GameRequest,
  type LiveList,
  type LiveQuery,
  type RoomQuestion,
  type Seated,
  type Transport,
  type User,
  answerAbout,
  liveList,
  rejoinFor,
} from './requests.ts';
import { GameRoom, type Step } from './room.ts';
import { GameStore } from './store.ts';
import { ClusterGames, type LocalRooms } from './cluster-games.ts';
import { GameRecorder } from './recorder.ts';
import { ENGINE_RULES, type Outcome, type RoomDeps, type Rules, type StoredGame, fail, ok } from './types.ts';

/** A finished room stays findable a while after it is recorded, then lives on in the database only. */
const FINISHED_ROOM_TTL_MS = 5 * 60_000;
/** How long a stopping node waits for requests under way and their writes (SIGTERM ends a node within 10 s). */
const CLOSE_WAIT_MS = 7000;

export class GameService {
  readonly #rooms = new Map<string, GameRoom>();
  readonly #byCode = new Map<string, GameRoom>();
  readonly #userGame = new Map<string, GameRoom>();
  /** Each user's requests, one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();
  /** Open sockets per user. */
  readonly #sockets = new Map<string, number>();
  readonly #store: GameStore;
  readonly #gameLog: GameLog;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #deps: RoomDeps;
  #transport: Transport | null = null;
  #stopping = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #maxRooms: number;
  /** Each user's budget of game creations (null: unlimited). */
  readonly #creations: BudgetStore | null;
  readonly #recorder: GameRecorder;
  /** Cluster mode (issue 14): where each game runs, and the way to other nodes; null on a single server. */
  readonly #cluster: ClusterGames | null;
  /** Users with a socket on another node, as forwarded requests told (cluster mode). */
  readonly #remote = new Set<string>();

  constructor(deps: {
    db: Db;
    prepared: Prepared;
    clock: Clock;
    log: FastifyBaseLogger;
    /** Log batches in flight at once (the database's `logWriters`). */
    logWriters?: number;
    seeds?: () => string;
    rules?: Rules;
    /**
     * Issue 13: a ceiling on rooms held by this server (beyond it, creating answers "Server busy"), and
     * games one user may create a minute (null: unlimited, as with RATE_LIMITS=off).
     */
    limits?: { maxLiveRooms: number; gamesCreatedPerMinute: number | null };
    /** Where budgets count (cluster mode: across nodes); default in process. */
    budgets?: BudgetFactory;
    /** Called once per finished game written to the history (for /metrics). */
    onRecorded?: () => void;
    /** Cluster mode: Redis and this node's name. */
    cluster?: { redis: ClusterRedis; nodeId: string };
  }) {
    const cluster = deps.cluster;
    this.#store = new GameStore(deps.db, deps.prepared, cluster ? (id) => this.#cluster?.epochOf(id) ?? null : null);
    this.#cluster = cluster
      ? new ClusterGames({ ...cluster, store: this.#store, log: deps.log, rooms: this.#localRooms() })
      : null;
    this.#recorder = new GameRecorder({ store: this.#store, log: deps.log, onRecorded: deps.onRecorded ?? (() => {}) });
    this.#maxRooms = deps.limits?.maxLiveRooms ?? Number.POSITIVE_INFINITY;
    const perMinute = deps.limits?.gamesCreatedPerMinute ?? null;
    this.#creations =
      perMinute === null
        ? null
        : (deps.budgets ?? memoryBudgets)('games-created', { capacity: perMinute, perSecond: perMinute / 60 });
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#gameLog = new GameLog({
      storage: this.#store,
      log: deps.log,
      onRefused: (gameId, error) => this.#rooms.get(gameId)?.abort(error),
      onFenced: (gameId) => this.#lost(gameId),
      ...(deps.logWriters ? { maxInFlight: deps.logWriters } : {}),
    });
    const seeds = deps.seeds ?? (() => randomBytes(16).toString('hex'));
    this.#deps = {
      clock: deps.clock,
      rules: deps.rules ?? ENGINE_RULES,
      seed: seeds,
      toRoom: (gameId, event, payload) => this.#transport?.toRoom(gameId, event, payload),
      toUser: (userId, event, payload) => this.#transport?.toUser(userId, event, payload),
      persist: (gameId, write) => this.#gameLog.append(gameId, write),
      finished: (gameId) => this.#finished(gameId),
      closed: (gameId) => {
        const room = this.#rooms.get(gameId);
        if (room) this.#forget(room);
      },
      failed: (gameId, error) => this.#failed(gameId, error),
    };
  }

  set transport(transport: Transport) {
    this.#transport = transport;
  }

  get liveRooms(): readonly GameRoom[] {
    return [...this.#rooms.values()].filter((r) => r.status !== 'finished');
  }

  /**
   * Figures for /metrics (ms): steps per write; how long steps wait for their batch to start and to be
   * durable, how long a write and a finished game's record take; `reset` starts them again.
   */
  logFigures(reset = false) {
    const log = this.#gameLog;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const spread = (h: RecordableHistogram) => ({
      p50: ms(h.percentile(50)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
    });
    const figures = {
      batches: log.batches,
      steps: log.steps,
      backlog: log.backlog,
      queuedMs: spread(log.queued),
      durableWaitMs: spread(log.waits),
      writeMs: spread(log.writes),
      recordMs: { ...spread(this.#recorder.durations), count: this.#recorder.durations.count },
    };
    if (reset) for (const h of [log.queued, log.waits, log.writes, this.#recorder.durations]) h.reset();
    return figures;
  }

  find(idOrCode: string): GameRoom | undefined {
    return this.#rooms.get(idOrCode) ?? this.#byCode.get(idOrCode.toUpperCase());
  }

  /** The one door: a user's request, after their earlier ones, answered once durable. */
  handle<R extends GameRequest>(user: User, request: R): Promise<Outcome<Answers[R['type']]>> {
    return this.#enqueue(user, request, false) as Promise<Outcome<Answers[R['type']]>>;
  }

  /** `forwarded`: another node sent it here, its owner (it is never sent on again). */
  #enqueue(user: User, request: GameRequest, forwarded: boolean): Promise<Outcome<unknown>> {
    const previous = this.#queues.get(user.id) ?? Promise.resolve();
    const answer = previous.then(() => this.#dispatch(user, request, forwarded));
    const settled = answer.catch(() => undefined);
    this.#queues.set(user.id, settled);
    void settled.then(() => {
      if (this.#queues.get(user.id) === settled) this.#queues.delete(user.id);
    });
    return answer;
  }

  async #dispatch(user: User, request: GameRequest, forwarded = false): Promise<Outcome<unknown>> {
    try {
      // Cluster mode: a user's creates and joins take turns across nodes too (two tabs on two nodes
      // must still leave them in one game); the requests they forward run inside that turn.
      const seats = request.type === 'create' || request.type === 'join';
      if (this.#cluster && seats && !forwarded) {
        return await this.#cluster.inUserTurn(user.id, () => this.#route(user, request, forwarded));
      }
      return await this.#route(user, request, forwarded);
    } catch (error) {
      // Cluster mode with Redis away: whatever needed it is refused with a clear error.
      if (this.#cluster && !this.#cluster.redisUp) return fail(SERVER_TEXTS.clusterUnavailable);
      throw error;
    }
  }

  async #route(user: User, request: GameRequest, forwarded: boolean): Promise<Outcome<unknown>> {
    if (this.#stopping) return fail(GAME_TEXTS.anErrorOccurred);
    if (this.#cluster && !forwarded) {
      // Cluster mode: a request for a game another node owns goes there, and its answer comes back.
      const place = await this.#cluster.placeOfRequest(user.id, request);
      if (place !== 'local') return this.#forwardTo(this.#cluster, place, user, request);
    }
    switch (request.type) {
      case 'create':
        return this.#create(user, request.setup);
      case 'join':
        return this.#join(user, request.roomCode, request.watch ?? false);
      case 'leave': {
        const room = request.game ? this.find(request.game) : this.#userGame.get(user.id);
        if (!room) return fail(LOBBY_TEXTS.notInGame);
        if (!room.isMember(user.id)) {
          // A spectator stops watching.
          this.#transport?.unsubscribe(user.id, room.id);
          return fail(LOBBY_TEXTS.notInGame);
        }
        const left = await this.#settle(room, room.leave(user.id));
        if (left.ok) this.#unseat(user.id, room);
        return left;
      }
      case 'ready':
      case 'start':
      case 'play': {
        const room = this.#userGame.get(user.id);
        if (!room) return fail(LOBBY_TEXTS.notInGame);
        if (request.type === 'ready') return this.#settle(room, room.setReady(user.id, request.isReady));
        if (request.type === 'start') return this.#settle(room, room.start(user.id));
        return this.#settle(room, room.play(user.id, { ...request.command, playerId: user.id }));
      }
      case 'vacate':
        return this.#freeSeatFor(user.id, false);
      case 'view': {
        const room = this.#userGame.get(user.id);
        if (!room) return fail(LOBBY_TEXTS.notInGame);
        const hand = room.handFor(user.id);
        return hand ? ok({ hand, game: room.game(user.id) }) : fail(GAME_TEXTS.gameNotActive);
      }
    }
  }

  /** Waits for the step to be durable; a room that was stopped meanwhile answers with that. */
  async #settle<T>(room: GameRoom, step: Step<T>): Promise<Outcome<T>> {
    await step.done;
    if (!room.failed) return step.outcome;
    return fail(room.lost ? SERVER_TEXTS.clusterUnavailable : GAME_TEXTS.gameStopped);
  }

  #entry(room: GameRoom, userId: string): Entry {
    return { gameId: room.id, roomCode: room.roomCode, game: room.game(userId), seq: room.seq };
  }

  async #create(user: User, asked: GameSetup): Promise<Outcome<Entry>> {
    if (this.#rooms.size >= this.#maxRooms) return fail(SERVER_TEXTS.serverBusy);
    if (this.#creations && !(await this.#creations.take(user.id, this.#clock.now()))) {
      return fail(SERVER_TEXTS.tooManyGamesCreated);
    }
    const free = await this.#freeSeatFor(user.id);
    if (!free.ok) return free;
    // "Match me": the bots take the host's recorded pace, fixed now and kept with the room's settings.
    const setup =
      asked.bots?.difficulty === MATCH_ME
        ? { ...asked, bots: { ...asked.bots, matchPaceMs: await this.#store.recordedPaceOf(user.id) } }
        : asked;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const roomCode = this.#newRoomCode();
      const room = new GameRoom(
        { id: randomUUID(), roomCode, host: user, setup, createdAt: this.#clock.now() },
        this.#deps,
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
      this.#add(room);
      const opened = await this.#settle(room, room.open());
      if (!opened.ok) return opened;
      this.#seat(user.id, room);
      await room.settled();
      return ok(this.#entry(room, user.id));
    }
    return fail(LOBBY_TEXTS.failedToCreateGame);
  }

  async #join(user: User, roomCode: string, watch: boolean): Promise<Outcome<Answers['join']>> {
    const room = this.#byCode.get(roomCode.toUpperCase());
    if (!room || room.status === 'finished') return fail(LOBBY_TEXTS.gameNotFound);
    const answer = (watching: boolean) =>
      ok({
        ...this.#entry(room, user.id),
        watching,
        rejoin: !watching && room.status === 'active' ? rejoinFor(room, user.id) : null,
      });
    if (room.isMember(user.id)) {
      this.#seat(user.id, room);
      await room.settled();
      return answer(false);
    }
    if (room.status !== 'waiting') {
      // A non-member may watch a game under way when its host allows spectators.
      if (!watch) return fail(LOBBY_TEXTS.gameAlreadyStarted);
      if (!room.setup.allowSpectators) return fail(LOBBY_TEXTS.spectatorsNotAllowed);
      this.#transport?.subscribe(user.id, room.id);
      return answer(true);
    }
    if (!room.isOpen()) return fail(LOBBY_TEXTS.gameFull);
    const free = await this.#freeSeatFor(user.id);
    if (!free.ok) return free;
    const joined = await this.#settle(room, room.join(user));
    if (!joined.ok) return joined;
    this.#seat(user.id, room);
    await room.settled();
    return answer(false);
  }

  /**
   * An account is being deleted: it leaves the game it sits in (a forfeit if in play), and finished
   * rooms still showing its name are forgotten, so lookups read the anonymised record instead.
   */
  async removeUser(user: User): Promise<void> {
    // In a cluster the game may run on another node: the door finds it.
    if (this.#userGame.has(user.id) || this.#cluster) await this.handle(user, { type: 'leave' });
    for (const room of [...this.#rooms.values()]) {
      if (room.status === 'finished' && room.isMember(user.id)) this.#forget(room);
    }
  }

  /**
   * A socket of the user opened: the game they sit in (on whichever node owns it) counts them as
   * back, and the socket is told what it needs to carry on.
   */
  async connected(userId: string): Promise<Seated | null> {
    this.#sockets.set(userId, (this.#sockets.get(userId) ?? 0) + 1);
    const room = this.#userGame.get(userId);
    if (room) {
      void room.connect(userId).done;
      return { gameId: room.id, rejoin: rejoinFor(room, userId) };
    }
    return this.#cluster?.connect(userId, () => this.#connectHere(userId)) ?? null;
  }

  /** A socket of the user opened on some node: the game it sits in here counts them back. */
  async #connectHere(userId: string): Promise<Seated | null> {
    const room = this.#userGame.get(userId);
    if (!room) return null;
    this.#remote.add(userId);
    await room.connect(userId).done;
    return { gameId: room.id, rejoin: rejoinFor(room, userId) };
  }

  /** A socket of the user closed; their seat counts as away once the last one has, on every node. */
  disconnected(userId: string): void {
    const open = (this.#sockets.get(userId) ?? 1) - 1;
    if (open > 0) {
      this.#sockets.set(userId, open);
      return;
    }
    this.#sockets.delete(userId);
    // Sockets closed by our own shutdown are not players going away: the log does not say so.
    if (this.#stopping) return;
    if (!this.#cluster) {
      void this.#userGame.get(userId)?.disconnect(userId).done;
      return;
    }
    void this.#awayEverywhere(userId).catch((error: unknown) => {
      this.#log.warn({ err: error, userId }, 'a disconnect could not be passed on to its game');
    });
  }

  /** Cluster mode: the user's last socket here closed; if none is open on another node either, their game hears it. */
  async #awayEverywhere(userId: string): Promise<void> {
    const present = await this.#transport?.present([userId]);
    if (present?.has(userId) || (this.#sockets.get(userId) ?? 0) > 0) return;
    const room = this.#userGame.get(userId);
    if (room) {
      this.#remote.delete(userId);
      await room.disconnect(userId).done;
      return;
    }
    await this.#cluster?.disconnect(userId);
  }

  /**
   * Rebuilds the unfinished games from their logs; their players get the usual grace to come back.
   * A game whose log does not replay is set aside (logged, marked, never loaded again).
   */
  async recover(): Promise<{ restored: number; setAside: number }> {
    const stored = await this.#store.unfinished();
    let setAside = 0;
    for (const game of stored) {
      let room: GameRoom;
      try {
        room = GameRoom.restore(game, this.#deps);
      } catch (error) {
        setAside += 1;
        this.#roomLog(game.id).error({ err: error }, 'a game could not be rebuilt from its log; set aside');
        await this.#store.setAside(game.id, error);
        continue;
      }
      this.#add(room);
      for (const id of room.seatedHumanIds) this.#userGame.set(id, room);
      void room.resume().done;
    }
    return { restored: stored.length - setAside, setAside };
  }

  /** Shutdown, first part: no more requests or timers; sockets closing now are not players leaving. */
  stop(): void {
    this.#stopping = true;
    for (const room of this.#rooms.values()) room.dispose();
  }

  /**
   * Shutdown, last part: every change made so far is durable, record attempts under way end, and in
   * a cluster the games are handed over. Requests under way and writes get CLOSE_WAIT_MS at most (the
   * database may be away, or another node not answering): what is not durable by then was never
   * acknowledged, and the node still stops.
   */
  async close(): Promise<void> {
    this.stop();
    const drained = Promise.allSettled([...this.#queues.values()]).then(() => this.#gameLog.drain());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS)));
    if ((await Promise.race([drained, late])) === 'late') {
      this.#log.warn(
        { backlog: this.#gameLog.backlog },
        `stopping with game writes not durable after ${CLOSE_WAIT_MS / 1000} s (none of them was acknowledged)`,
      );
    }
    clearTimeout(timer);
    await this.#recorder.close();
    for (const pending of this.#timers) clearTimeout(pending);
    await this.#cluster?.handOver();
  }

  // ── cluster mode (issue 14) ──

  /** Starts this node's part of the cluster (see ClusterGames.start); nothing without REDIS_URL. */
  async joinCluster(): Promise<void> {
    await this.#cluster?.start(() => [...this.#userGame].map(([userId, room]) => [userId, room.id]));
  }

  /** What ClusterGames needs of the rooms this node runs. */
  #localRooms(): LocalRooms {
    return {
      stopping: () => this.#stopping,
      runs: (idOrCode) => this.find(idOrCode) !== undefined,
      seats: (userId) => this.#userGame.has(userId),
      install: (stored) => this.#install(stored),
      serve: (body) => this.#serve(body),
      lost: (gameId) => this.#lost(gameId),
    };
  }

  /**
   * A game taken over from its log runs here: the players still in it sit in it (not those who left
   * or forfeited), and those with a socket open on any node count as present (only the others as away).
   */
  async #install(stored: StoredGame): Promise<void> {
    const room = GameRoom.restore(stored, this.#deps);
    this.#add(room);
    const humans = room.seatedHumanIds;
    for (const id of humans) {
      this.#userGame.set(id, room);
      this.#cluster?.registry((leases) => leases.seat(id, room.id));
    }
    const present = (await this.#transport?.present(humans).catch(() => null)) ?? new Set<string>();
    for (const id of present) if ((this.#sockets.get(id) ?? 0) === 0) this.#remote.add(id);
    void room.resume(present).done;
  }

  /** Another node took the game over (our write was fenced off, or our lease was found in its hands). */
  #lost(gameId: string): void {
    const room = this.#rooms.get(gameId);
    this.#cluster?.drop(gameId);
    if (!room) return;
    this.#roomLog(gameId).warn('game lost to another node; this node stops running it');
    room.lose();
    if (this.#rooms.get(room.id) === room) this.#rooms.delete(room.id);
    if (this.#byCode.get(room.roomCode) === room) this.#byCode.delete(room.roomCode);
    for (const [userId, seated] of this.#userGame) if (seated === room) this.#userGame.delete(userId);
  }

  #forwardTo(cluster: ClusterGames, gameId: string, user: User, request: GameRequest): Promise<Outcome<unknown>> {
    const present = (this.#sockets.get(user.id) ?? 0) > 0;
    return cluster.forward(gameId, user, request, present, () => this.#dispatch(user, request, true));
  }

  /** A request another node forwarded: served here as if it had arrived here. */
  async #serve(body: Forwarded): Promise<unknown> {
    // A node handing its games over sends the asker on to the next owner.
    if (this.#stopping) throw new NodeUnreachable(NODE_STOPPING);
    // Asked as the owner of a game this node does not run (its previous run, killed, held the lease
    // that still names it): answering "no game here" would free or refuse nothing real — a vacate
    // answered so let a user sit in two games once the game was taken over. The asker looks again.
    if ((body.kind === 'handle' || body.kind === 'connect' || body.kind === 'room') && !this.#rooms.has(body.gameId)) {
      throw new NodeUnreachable(NOT_THE_OWNER);
    }
    switch (body.kind) {
      case 'handle':
        if (body.present) {
          // A socket on another node acts for the user: they are here, whatever a takeover assumed.
          this.#remote.add(body.user.id);
          void this.#userGame.get(body.user.id)?.connect(body.user.id).done;
        }
        // A vacate is part of a create or join of this user under way on another node, which holds
        // the user's turn across the cluster and, if it came from here, this node's queue of that
        // user too: waiting in that queue would wait for itself. It runs at once.
        if (body.request.type === 'vacate') return this.#dispatch(body.user, body.request, true);
        return this.#enqueue(body.user, body.request, true);
      case 'connect':
        return this.#connectHere(body.userId);
      case 'disconnect': {
        this.#remote.delete(body.userId);
        if ((this.#sockets.get(body.userId) ?? 0) === 0)
          await this.#userGame.get(body.userId)?.disconnect(body.userId).done;
        return null;
      }
      case 'room': {
        const room = this.find(body.gameId);
        return room ? answerAbout(room, body.question) : null;
      }
      case 'live':
        return liveList(this.liveRooms, body.viewerId, body.query);
    }
  }

  /**
   * A game as `viewerId` sees it, wherever it runs: here, on its owner, or (no longer live) null.
   * The HTTP routes use it; in one process it is `find`.
   */
  async describe(idOrCode: string, viewerId: string): Promise<ReturnType<GameRoom['game']> | null> {
    return this.#askRoom(idOrCode, { kind: 'describe', viewerId });
  }

  /** GET /game/:id/bot-status, wherever the game runs (null: no such live game). */
  async botStatus(idOrCode: string): Promise<BotStatus | null> {
    return this.#askRoom(idOrCode, { kind: 'bots' });
  }

  /** A question about one live room, answered here or by its owner. */
  async #askRoom<T>(idOrCode: string, question: RoomQuestion): Promise<T | null> {
    const room = this.find(idOrCode);
    if (room) return answerAbout(room, question) as T;
    const here = (gameId: string) => {
      const found = this.find(gameId);
      return found ? (answerAbout(found, question) as T) : null;
    };
    return this.#cluster ? this.#cluster.ask<T>(idOrCode, question, here) : null;
  }

  /** The lobby list (GET /game/active): this node's live games, or in cluster mode every node's. */
  async liveGames(viewerId: string, query: LiveQuery): Promise<LiveList> {
    return this.#cluster ? this.#cluster.liveGames(viewerId, query) : liveList(this.liveRooms, viewerId, query);
  }

  /** The unfinished game the user sits in, wherever it runs. */
  async currentGame(userId: string): Promise<ReturnType<GameRoom['game']> | null> {
    const room = this.#userGame.get(userId);
    if (room) return room.game(userId);
    const gameId = (await this.#cluster?.seatOf(userId)) ?? null;
    return gameId ? this.describe(gameId, userId) : null;
  }

  #finished(gameId: string): void {
    const room = this.#rooms.get(gameId);
    if (!room) return;
    for (const id of room.humanIds) {
      if (this.#userGame.get(id) === room) this.#userGame.delete(id);
      this.#cluster?.registry((leases) => leases.unseat(id, room.id));
    }
    void this.#record(room);
  }

  /** A room threw (or its writes were refused): it is stopped; its game is recorded as aborted. */
  #failed(gameId: string, error: unknown): void {
    const room = this.#rooms.get(gameId);
    this.#roomLog(gameId).error({ err: error }, 'a game room failed; its game is aborted');
    if (!room) return;
    for (const id of room.humanIds) if (this.#userGame.get(id) === room) this.#userGame.delete(id);
    if (room.finishedGame()) {
      void this.#record(room);
    } else {
      // A lobby: closed as an aborted game of nobody.
      const now = this.#clock.now();
      void this.#gameLog
        .append(gameId, { row: { status: 'finished', endReason: 'aborted', finishedAt: now }, entries: [] })
        .then(() => this.#forget(room));
    }
  }

  /** Records the game (retried until it lands), then keeps its room findable a while. */
  async #record(room: GameRoom): Promise<void> {
    const game = room.finishedGame();
    if (!game) return;
    // The end must be durable in the log before the record (a restart would otherwise replay past it).
    await room.settled();
    if (await this.#recorder.record(game)) this.#later(FINISHED_ROOM_TTL_MS, () => this.#forget(room));
  }

  /** A game's lines carry its id, whatever they say. */
  #roomLog(gameId: string): FastifyBaseLogger {
    return this.#log.child({ gameId });
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.#timers.add(timer);
  }

  #add(room: GameRoom): void {
    this.#rooms.set(room.id, room);
    this.#byCode.set(room.roomCode, room);
  }

  #forget(room: GameRoom): void {
    room.dispose();
    if (this.#rooms.get(room.id) === room) this.#rooms.delete(room.id);
    if (this.#byCode.get(room.roomCode) === room) this.#byCode.delete(room.roomCode);
    for (const [userId, seated] of this.#userGame) if (seated === room) this.#userGame.delete(userId);
    for (const userId of room.humanIds) this.#cluster?.registry((leases) => leases.unseat(userId, room.id));
    this.#cluster?.registry((leases) => leases.release(room.id));
  }

  #seat(userId: string, room: GameRoom): void {
    this.#userGame.set(userId, room);
    this.#transport?.subscribe(userId, room.id);
    if ((this.#sockets.get(userId) ?? 0) > 0 || this.#remote.has(userId)) void room.connect(userId).done;
    this.#cluster?.registry((leases) => leases.seat(userId, room.id));
  }

  #unseat(userId: string, room: GameRoom): void {
    if (this.#userGame.get(userId) === room) this.#userGame.delete(userId);
    this.#transport?.unsubscribe(userId, room.id);
    this.#cluster?.registry((leases) => leases.unseat(userId, room.id));
  }

  /** One unfinished game per user: a lobby they sit in is left for the new one; a game in play is not. */
  async #freeSeatFor(userId: string, onOtherNodes = true): Promise<Outcome<null>> {
    const current = this.#userGame.get(userId);
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
        const freed = (await this.#forwardTo(this.#cluster, gameId, user, { type: 'vacate' })) as Outcome<null>;
        if (!freed.ok) return freed;
      }
    }
    if (!current || current.status === 'finished') return ok(null);
    if (current.status === 'active') {
      if (current.seatedHumanIds.includes(userId)) return fail(LOBBY_TEXTS.alreadyInGame);
      // They forfeited it (away too long): the game goes on without them, and they may play elsewhere.
      this.#unseat(userId, current);
      return ok(null);
    }
    // A leave that did not become durable (this node lost the game meanwhile) freed nothing: the
    // game's next owner still seats the user, so the create or join must not go on.
    const left = await this.#settle(current, current.leave(userId));
    if (!left.ok) return left;
    this.#unseat(userId, current);
    return ok(null);
  }

  #newRoomCode(): string {
    for (;;) {
      let code = '';
      for (let i = 0; i < ROOM_CODE_LENGTH; i += 1) code += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
      const existing = this.#byCode.get(code);
      if (!existing || existing.status === 'finished') return code;
    }
  }
}
