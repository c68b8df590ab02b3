/**
 * The game rooms of this server and the one door into them. Sockets and HTTP routes call
 * `handle(user, request)`; it runs one user's requests one at a time (so concurrent creates and joins
 * from several tabs or over HTTP still leave the user in exactly one game), checks membership and
 * spectators, and answers once the room's step is durable. The service composes the parts that do the
 * rest: the rooms and who sits where (room-registry.ts), sockets coming and going (player-sockets.ts),
 * creating and joining with "one unfinished game per user" (lobby-entry.ts), the group-committed
 * command log, finished games recorded (retried without limit) and a room that throws stopped without
 * stopping any other (finished-rooms.ts), rooms rebuilt from their logs at start-up or taken over in a
 * cluster (takeover.ts), and the read-only questions about live games (room-queries.ts).
 */
import { randomBytes } from 'node:crypto';
import type { RecordableHistogram } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db, Prepared } from '../db/client.ts';
import type { BudgetFactory } from '../token-buckets.ts';
import type { GamesContext } from './context.ts';
import { type AddressKeyer, addressKeyer } from './address-key.ts';
import { FinishedRooms } from './finished-rooms.ts';
import { type Forward, LobbyEntry } from './lobby-entry.ts';
import { Headroom } from './headroom.ts';
import { GameLog } from './log.ts';
import { type LocalRooms, type Ownership, type OwnershipFactory, localOwnership } from './ownership.ts';
import { PlayerSockets } from './player-sockets.ts';
import { GameRecorder } from './recorder.ts';
import {
  type Answers,
  type BotStatus,
  type Entry,
  type GameRequest,
  type LiveList,
  type LiveQuery,
  type Seated,
  type Transport,
  type User,
  settle,
} from './requests.ts';
import { offerRematch } from './rematch.ts';
import { RoomQueries, type Viewer } from './room-queries.ts';
import { RoomRegistry } from './room-registry.ts';
import type { GameRoom } from './room.ts';
import { GameStore } from './store.ts';
import { RoomTakeover } from './takeover.ts';
import { ENGINE_RULES, type Outcome, type RoomDeps, type Rules, fail, ok } from './types.ts';

/** How long a stopping node waits for requests under way and their writes (SIGTERM ends a node within 10 s). */
const CLOSE_WAIT_MS = 7000;

export class GameService {
  readonly #rooms: RoomRegistry;
  readonly #sockets: PlayerSockets;
  /** Each user's requests, one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #gameLog: GameLog;
  readonly #log: FastifyBaseLogger;
  #transport: Transport | null = null;
  #stopping = false;
  readonly #recorder: GameRecorder;
  readonly #finished: FinishedRooms;
  readonly #entry: LobbyEntry;
  readonly #takeover: RoomTakeover;
  readonly #queries: RoomQueries;
  /** Where each game runs, and the way to other nodes (ownership.ts: one server, or a node of a cluster). */
  readonly #ownership: Ownership;
  readonly #db: Db;
  readonly #clock: Clock;
  /** The keyed hash of a client address's network that a seat keeps (docs/fair-play.md). */
  readonly addressKeyOf: AddressKeyer;

  constructor(deps: {
    db: Db;
    prepared: Prepared;
    /** The live games' log writes' own connections (the database's `logPrepared`); `prepared` by default. */
    logPrepared?: Prepared;
    clock: Clock;
    /** Whose time the retries of writes and records wait on while the database is away (default: the system's). */
    retryClock?: Clock;
    log: FastifyBaseLogger;
    /** Log batches in flight at once (the database's `logWriters`). */
    logWriters?: number;
    seeds?: () => string;
    rules?: Rules;
    /**
     * Bounds: a ceiling on rooms held by this server (beyond it, creating answers "Server busy"), and
     * games one user may create a minute (null: unlimited, as with RATE_LIMITS=off).
     */
    limits?: { maxLiveRooms: number; gamesCreatedPerMinute: number | null };
    /** Where budgets count (cluster mode: across nodes); default in process. */
    budgets?: BudgetFactory;
    /** Called once per finished game written to the history (for /metrics). */
    onRecorded?: () => void;
    /** Where games run (cluster mode: redisOwnership); default: every game here, in this process. */
    ownership?: OwnershipFactory;
    /** The server secret, from which the seats' network keys are derived (docs/fair-play.md). */
    addressSecret?: string;
    /** Admission control: whether a new game may start here (default: always, up to the room ceiling). */
    headroom?: Headroom;
  }) {
    const { clock, log } = deps;
    this.addressKeyOf = addressKeyer(deps.addressSecret);
    this.#db = deps.db;
    this.#clock = clock;
    const owners = deps.ownership ?? localOwnership;
    const store = new GameStore(
      deps.db,
      deps.prepared,
      owners.fenced ? (id) => this.#ownership.epochOf(id) : null,
      deps.logPrepared,
    );
    const ownership = owners.open({ store, rooms: this.#localRooms() });
    const transport = () => this.#transport;
    const stopping = () => this.#stopping;
    this.#ownership = ownership;
    this.#log = log;
    this.#recorder = new GameRecorder({
      store,
      log,
      onRecorded: deps.onRecorded ?? (() => {}),
      clock: deps.retryClock,
    });
    this.#gameLog = new GameLog({
      storage: store,
      log,
      clock: deps.retryClock,
      onRefused: (gameId, error) => this.#rooms.get(gameId)?.abort(error),
      onFenced: (gameId) => this.#takeover.lost(gameId),
      ...(deps.logWriters ? { maxInFlight: deps.logWriters } : {}),
    });
    const rooms = new RoomRegistry({ ownership, transport, here: (userId) => this.#sockets.isHere(userId) });
    const roomDeps: RoomDeps = {
      clock,
      rules: deps.rules ?? ENGINE_RULES,
      seed: deps.seeds ?? (() => randomBytes(16).toString('hex')),
      toRoom: (gameId, event, payload) => this.#transport?.toRoom(gameId, event, payload),
      prepareToRoom: (gameId, event, payload) =>
        this.#transport?.prepareToRoom(gameId, event, payload) ??
        (() => this.#transport?.toRoom(gameId, event, payload)),
      prepareToUser: (userId, event, payload) =>
        this.#transport?.prepareToUser(userId, event, payload) ??
        (() => this.#transport?.toUser(userId, event, payload)),
      persist: (gameId, write) => this.#gameLog.append(gameId, write),
      finished: (gameId) => this.#finished.finished(gameId),
      closed: (gameId) => {
        const room = rooms.get(gameId);
        if (room) rooms.forget(room);
      },
      failed: (gameId, error) => this.#finished.failed(gameId, error),
    };
    const games: GamesContext = { rooms, store, clock, log, ownership, transport, stopping, roomDeps };
    this.#rooms = rooms;
    this.#sockets = new PlayerSockets(games);
    this.#finished = new FinishedRooms(games, this.#recorder, this.#gameLog);
    const forward: Forward = (gameId, user, request) => this.#forwardTo(gameId, user, request);
    this.#entry = new LobbyEntry(games, forward, deps.limits, deps.budgets, deps.headroom ?? new Headroom(null));
    this.#takeover = new RoomTakeover(games, this.#sockets, {
      now: (user, request) => this.#dispatch(user, request, true),
      queued: (user, request) => this.#enqueue(user, request, true),
      headroom: () => this.headroom(),
    });
    this.#queries = new RoomQueries(games);
  }

  set transport(transport: Transport) {
    this.#transport = transport;
  }

  /** Admission control's state here, for other nodes and /metrics: whether new games start, and room for how many. */
  headroom(): { admitting: boolean; spareRooms: number } {
    return this.#entry.headroom();
  }

  /**
   * What this service holds for its games and users (GET /metrics): after the last game ends and its
   * players leave, every count but the finished rooms still findable falls back to zero.
   */
  held(): Record<string, number> {
    return {
      ...this.#rooms.held(),
      liveRooms: this.#rooms.liveCount(),
      finishedRoomsKept: this.#finished.pending,
      ...this.#sockets.held(),
      userQueues: this.#queues.size,
    };
  }

  get liveRooms(): readonly GameRoom[] {
    return this.#rooms.live;
  }

  /** How many rooms are not finished (GET /metrics, admission control). */
  liveRoomCount(): number {
    return this.#rooms.liveCount();
  }

  /**
   * Figures for /metrics (ms): steps per write; how long steps wait for their batch to start and to be
   * durable, how long a write and a finished game's record take; writes and records tried again
   * while the database was away, and those waiting to be; `reset` starts the histograms again.
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
      retries: log.retries + this.#recorder.retries,
      retrying: log.waiting + this.#recorder.waiting,
    };
    if (reset) for (const h of [log.queued, log.waits, log.writes, this.#recorder.durations]) h.reset();
    return figures;
  }

  find(idOrCode: string): GameRoom | undefined {
    return this.#rooms.find(idOrCode);
  }

  /** A rematch of a finished game this user played: a new lobby like it, offered to its other people. */
  rematch(user: User, gameId: string): Promise<Outcome<Entry>> {
    return offerRematch(
      {
        db: this.#db,
        now: () => this.#clock.now(),
        handle: (u, request) => this.handle(u, request),
        transport: () => this.#transport,
      },
      user,
      gameId,
    );
  }

  /**
   * Told when a user asks for a seat (creates or joins a game), and again once they have it: the Play
   * now queue lets them go (the second time for a queue join that raced the seat from another tab).
   */
  onSeatTaken: (userId: string) => void = () => {};
  /** Told when a user leaves a game in play that began at `startedAt` (Play now's cooldown for early leavers). */
  onLeftInPlay: (userId: string, startedAt: number) => void = () => {};

  /** The one door: a user's request, after their earlier ones, answered once durable. */
  handle<R extends GameRequest>(user: User, request: R): Promise<Outcome<Answers[R['type']]>> {
    const seats = request.type === 'create' || request.type === 'join';
    if (seats) this.onSeatTaken(user.id);
    const answer = this.#enqueue(user, request, false) as Promise<Outcome<Answers[R['type']]>>;
    const seated = (outcome: Outcome<unknown>) => outcome.ok && !(outcome.data as { watching?: boolean }).watching;
    if (seats)
      void answer.then(
        (outcome) => seated(outcome) && this.onSeatTaken(user.id),
        () => {},
      );
    return answer;
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
      // A user's creates and joins take turns (in a cluster across nodes too: two tabs on two nodes
      // must still leave them in one game); the requests they forward run inside that turn.
      const seats = request.type === 'create' || request.type === 'join';
      if (seats && !forwarded) {
        return await this.#ownership.inUserTurn(user.id, () => this.#route(user, request, forwarded));
      }
      return await this.#route(user, request, forwarded);
    } catch (error) {
      // Cluster mode with Redis away: whatever needed it is refused with a clear error.
      if (!this.#ownership.available) return fail('RECONNECTING');
      throw error;
    }
  }

  async #route(user: User, request: GameRequest, forwarded: boolean): Promise<Outcome<unknown>> {
    if (this.#stopping) return fail('SERVER_STOPPING');
    if (!forwarded) {
      // A request for a game another node owns goes there, and its answer comes back.
      const place = await this.#ownership.placeOfRequest(user.id, request);
      if (place !== 'local') return this.#forwardTo(place, user, request);
    }
    switch (request.type) {
      case 'create':
        // A create another node handed here is never handed on.
        return this.#entry.admitted(user, request, forwarded ? null : this.#sockets.hasSocket(user.id));
      case 'join':
        return this.#entry.join(user, request.roomCode, request.watch ?? false);
      case 'leave': {
        const room = request.game ? this.find(request.game) : this.#rooms.seatOf(user.id);
        if (!room) return fail('NOT_IN_GAME');
        if (!room.isMember(user.id)) {
          // A spectator stops watching.
          this.#transport?.unsubscribe(user.id, room.id);
          return fail('NOT_IN_GAME');
        }
        const inPlay = room.status === 'active' ? room.startedAt : null;
        const left = await settle(room, room.leave(user.id));
        if (left.ok) this.#rooms.unseat(user.id, room);
        if (left.ok && inPlay !== null) this.onLeftInPlay(user.id, inPlay);
        return left;
      }
      case 'ready':
      case 'start':
      case 'play': {
        const room = this.#rooms.seatOf(user.id);
        if (!room) return fail('NOT_IN_GAME');
        if (request.type === 'ready') return settle(room, room.setReady(user.id, request.isReady));
        if (request.type === 'start') return settle(room, room.start(user.id));
        return settle(room, room.play(user.id, { ...request.command, playerId: user.id }));
      }
      case 'vacate':
        return this.#entry.freeSeatFor(user.id, false);
      case 'view': {
        const room = this.#rooms.seatOf(user.id);
        if (!room) return fail('NOT_IN_GAME');
        const hand = room.handFor(user.id);
        return hand ? ok({ hand, game: room.game(user.id) }) : fail('GAME_NOT_ACTIVE');
      }
    }
  }

  #forwardTo(gameId: string, user: User, request: GameRequest): Promise<Outcome<unknown>> {
    const present = this.#sockets.hasSocket(user.id);
    return this.#ownership.forward(gameId, user, request, present, () => this.#dispatch(user, request, true));
  }

  /**
   * An account is being deleted: it leaves the game it sits in (a forfeit if in play), and finished
   * rooms still showing its name are forgotten, so lookups read the anonymised record instead.
   */
  async removeUser(user: User): Promise<void> {
    // The game may run on another node: the door finds it (sitting nowhere, the leave changes nothing).
    await this.handle(user, { type: 'leave' });
    for (const room of this.#rooms.all()) {
      if (room.status === 'finished' && room.isMember(user.id)) this.#rooms.forget(room);
    }
  }

  /**
   * A socket of the user opened: the game they sit in (on whichever node owns it) counts them as
   * back, and the socket is told what it needs to carry on.
   */
  connected(userId: string): Promise<Seated | null> {
    return this.#sockets.connected(userId);
  }

  /** A socket of the user closed; their seat counts as away once the last one has, on every node. */
  disconnected(userId: string): void {
    this.#sockets.disconnected(userId);
  }

  /**
   * Rebuilds the unfinished games from their logs; their players get the usual grace to come back.
   * A game whose log does not replay is set aside (logged, marked, never loaded again).
   */
  recover(): Promise<{ restored: number; setAside: number }> {
    return this.#takeover.recover();
  }

  /** Shutdown, first part: no more requests or timers; sockets closing now are not players leaving. */
  stop(): void {
    this.#stopping = true;
    for (const room of this.#rooms.all()) room.dispose();
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
    this.#finished.close();
    await this.#ownership.handOver();
  }

  // ── cluster mode ──

  /** Starts this node's part of the cluster (see Ownership.start); nothing on one server. */
  async joinCluster(): Promise<void> {
    await this.#ownership.start(() => this.#rooms.seatings());
  }

  /** What the ownership needs of the rooms this node runs. */
  #localRooms(): LocalRooms {
    return {
      stopping: () => this.#stopping,
      runs: (idOrCode) => this.find(idOrCode) !== undefined,
      seats: (userId) => this.#rooms.seatOf(userId) !== undefined,
      install: (stored) => this.#takeover.install(stored),
      serve: (body) => this.#takeover.serve(body),
      lost: (gameId) => this.#takeover.lost(gameId),
      present: (userIds) => this.#transport?.present(userIds) ?? Promise.resolve(new Set<string>()),
    };
  }

  // ── read-only questions (room-queries.ts) ──

  /**
   * A game as `viewerId` sees it, wherever it runs: here, on its owner, or (no longer live) null.
   * The HTTP routes use it; in one process it is `find`.
   */
  describe(idOrCode: string, viewerId: string): Promise<ReturnType<GameRoom['game']> | null> {
    return this.#queries.describe(idOrCode, viewerId);
  }

  /** GET /game/:id/bot-status, wherever the game runs (null: no such live game, or one the viewer may not see). */
  botStatus(idOrCode: string, viewer: Viewer): Promise<BotStatus | null> {
    return this.#queries.botStatus(idOrCode, viewer);
  }

  /** The lobby list (GET /game/active): this node's live games, or in cluster mode every node's. */
  liveGames(viewerId: string, query: LiveQuery): Promise<LiveList> {
    return this.#queries.liveGames(viewerId, query);
  }

  /** The unfinished game the user sits in, wherever it runs. */
  currentGame(userId: string): Promise<ReturnType<GameRoom['game']> | null> {
    return this.#queries.currentGame(userId);
  }
}
