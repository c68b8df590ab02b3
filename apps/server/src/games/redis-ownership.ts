/**
 * The ownership of a node in a cluster (with REDIS_URL; the port is ownership.ts): which
 * node runs each game, and getting a request there. `GameService` keeps the rooms this node runs;
 * this class holds the leases (one owner per game, with the fencing epoch its writes carry), sends a
 * request for a game another node runs to that node and brings the answer back, and takes over games
 * nobody runs: a dead node's once their leases have run out, a stopping node's at once. A request
 * for a game changing hands waits for its next owner, up to HANDOVER_WAIT_MS; with Redis away it is
 * refused at once. Redis, the bus and the clock come in as interfaces (unit tests: fakes, a manual clock).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, type Timer, every, sleep } from '../clock.ts';
import { NodeBus, NodeRefused, NodeUnreachable } from '../cluster/bus.ts';
import { GameLeases, LEASE_TTL_MS } from '../cluster/leases.ts';
import { type LeaseRedis, type PubSub, redisLeases, redisPubSub } from '../cluster/redis-ports.ts';
import type { ClusterRedis } from '../cluster/redis.ts';
import { isUuid } from '../users/repository.ts';
import type { GameDirectory, LocalRooms, Ownership, OwnershipFactory, OwnershipHost } from './ownership.ts';
import type {
  Forwarded,
  GameRequest,
  LiveList,
  LiveQuery,
  RoomAnswer,
  RoomQuestion,
  Seated,
  User,
} from './requests.ts';
import { mergeLiveLists } from './requests.ts';
import { type Outcome, fail } from './types.ts';

/** How long a request waits for a game changing hands (a dead owner's lease is 3 s), and how often it looks. */
export const HANDOVER_WAIT_MS = 6000;
/**
 * A returning player's socket waits longer for their game's owner, as nothing asks again for them: a
 * stopping owner may take 7 s to hand its games over (GameService's close), and the next owner
 * rebuilds the game from its log before it answers.
 */
const RECONNECT_WAIT_MS = 12_000;
const HANDOVER_POLL_MS = 200;
/**
 * How long a node past its headroom waits for the others' (admission control answers a refused start
 * within 100 ms: docs/capacity.md); a node slower than that is too loaded to take the game anyway.
 */
const GATHER_HEADROOM_MS = 60;
/** How often a node looks for games nobody owns (a dead node's, once their leases ran out). */
export const SCAN_EVERY_MS = 500;
/** A user's turn for creating or joining a game lapses after this long if its node dies holding it. */
export const USER_TURN_MS = 15_000;
/** How often a user's turn held by another node is tried again. */
const TURN_POLL_MS = 20;

/** Where a game runs: here, on another node, gone (recorded, or never was), or busy (changing hands). */
type Place = 'here' | 'gone' | 'busy' | { readonly node: string };

/** The cluster's ownership, for app.ts: production passes the cluster's Redis and the system clock. */
export function redisOwnership(deps: {
  redis: ClusterRedis;
  nodeId: string;
  clock: Clock;
  log: FastifyBaseLogger;
}): OwnershipFactory {
  return {
    fenced: true,
    open: (host) =>
      new RedisOwnership({
        ...host,
        redis: redisLeases(deps.redis),
        pubsub: redisPubSub(deps.redis),
        nodeId: deps.nodeId,
        clock: deps.clock,
        log: deps.log,
      }),
  };
}

export class RedisOwnership implements Ownership {
  readonly #redis: LeaseRedis;
  readonly #clock: Clock;
  readonly #leases: GameLeases;
  readonly #bus: NodeBus;
  readonly #store: GameDirectory;
  readonly #log: FastifyBaseLogger;
  readonly #rooms: LocalRooms;
  /** Takeovers under way, so that a scan and a request never take one game over twice. */
  readonly #adopting = new Map<string, Promise<Place>>();
  #scanning = false;
  #timer: Timer | null = null;

  constructor(
    deps: OwnershipHost & {
      redis: LeaseRedis;
      pubsub: PubSub;
      nodeId: string;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {
    this.#redis = deps.redis;
    this.#clock = deps.clock;
    this.#store = deps.store;
    this.#log = deps.log;
    this.#rooms = deps.rooms;
    this.#leases = new GameLeases(deps.redis, deps.nodeId, deps.clock, (gameId) => deps.rooms.lost(gameId));
    this.#bus = new NodeBus(deps.pubsub, deps.nodeId, deps.clock, deps.log);
  }

  /** The fencing epoch this node holds the game at (every write of the game carries it); null: not held. */
  epochOf(gameId: string): number | null {
    return this.#leases.epochOf(gameId);
  }

  get available(): boolean {
    return this.#redis.up;
  }

  /**
   * Starts this node's part: it answers other nodes' requests, renews its leases and, every
   * SCAN_EVERY_MS (and at once when a node hands its games over), takes over unfinished games nobody
   * owns. Boot loads nothing else: a live node's games stay its own. `reseat` lists this node's seated
   * players, registered again when Redis comes back (perhaps empty) after an outage.
   */
  async start(reseat: () => Iterable<[userId: string, gameId: string]>): Promise<void> {
    await this.#bus.start((body) => this.#serve(body));
    await this.#bus.onBroadcast('released', () => void this.#scan());
    this.#leases.start();
    this.#redis.onUp(() => {
      void this.#leases.renew();
      for (const [userId, gameId] of reseat()) this.seat(userId, gameId);
    });
    this.#timer = every(this.#clock, SCAN_EVERY_MS, () => void this.#scan());
    await this.#scan();
  }

  /**
   * This node stops (SIGTERM), everything it wrote being durable: its games are let go and the other
   * nodes told, who take them over from the log at once (a rolling restart).
   */
  async handOver(): Promise<void> {
    this.#timer?.cancel();
    this.#leases.stop();
    const released = [...this.#leases.held.keys()];
    await Promise.allSettled(released.map((id) => this.#leases.release(id)));
    if (released.length > 0) await this.#bus.broadcast('released', released).catch(() => {});
    this.#bus.close();
  }

  /**
   * Runs `run` while holding the user's turn across the cluster (a Redis lock, `turn:<user>`, that
   * expires by itself if this node dies holding it). Waits up to HANDOVER_WAIT_MS for another node's
   * turn to end; then, or with Redis away, the request is refused.
   */
  async inUserTurn(userId: string, run: () => Promise<Outcome<unknown>>): Promise<Outcome<unknown>> {
    const key = this.#redis.key('turn', userId);
    const token = randomUUID();
    const deadline = this.#clock.now() + HANDOVER_WAIT_MS;
    for (;;) {
      if (await this.#redis.setIfAbsent(key, token, USER_TURN_MS)) break;
      if (this.#clock.now() >= deadline) return fail('RECONNECTING');
      await sleep(this.#clock, TURN_POLL_MS);
    }
    try {
      return await run();
    } finally {
      await this.#redis.deleteIf(key, token).catch(() => {});
    }
  }

  /** A new game made here: this node owns it from its first write (epoch 1). False if Redis is away. */
  claimNew(gameId: string): Promise<boolean> {
    return this.#leases.claim(gameId, 1).catch(() => false);
  }

  /** Forgets a game this node no longer runs without touching Redis (another node took it). */
  drop(gameId: string): void {
    this.#leases.drop(gameId);
  }

  release(gameId: string): void {
    this.#registry(this.#leases.release(gameId));
  }

  seat(userId: string, gameId: string): void {
    this.#registry(this.#leases.seat(userId, gameId));
  }

  unseat(userId: string, gameId: string): void {
    this.#registry(this.#leases.unseat(userId, gameId));
  }

  /** A change to Redis's seats or leases, in the background (Redis away: logged, healed by the owner later). */
  #registry(change: Promise<unknown>): void {
    change.catch((error: unknown) => this.#log.warn({ err: error }, 'cluster registry not updated'));
  }

  /** Where a request must run: here ('local'), or the id of a game this node does not run. */
  async placeOfRequest(userId: string, request: GameRequest): Promise<'local' | string> {
    switch (request.type) {
      case 'create':
        return 'local';
      case 'join':
        if (this.#rooms.runs(request.roomCode)) return 'local';
        return (await this.#store.unfinishedIdByCode(request.roomCode)) ?? 'local';
      case 'leave': {
        if (!request.game) return this.#placeOfSeat(userId);
        if (this.#rooms.runs(request.game)) return 'local';
        return (await this.#gameIdOf(request.game)) ?? 'local';
      }
      default:
        return this.#placeOfSeat(userId);
    }
  }

  /**
   * The seat may be in games other nodes run. Redis's registry names the game, and the database too
   * (the registry is empty after Redis restarted, until every node has registered its seats again).
   */
  async seatsElsewhere(userId: string): Promise<string[]> {
    const registered = await this.#placeOfSeat(userId);
    return [
      ...new Set([
        ...(registered === 'local' ? [] : [registered]),
        ...(await this.#store.seatedIn(userId)).filter((id) => !this.#rooms.runs(id)),
      ]),
    ];
  }

  /** The game the user sits in, if another node runs it ('local': here, or none). */
  async #placeOfSeat(userId: string): Promise<'local' | string> {
    if (this.#rooms.seats(userId)) return 'local';
    const gameId = await this.#leases.seatOf(userId);
    return gameId && !this.#rooms.runs(gameId) ? gameId : 'local';
  }

  /** Runs a user's request on the node running `gameId`, or `here` once this node runs it (or it is gone). */
  forward(
    gameId: string,
    user: User,
    request: GameRequest,
    present: boolean,
    here: () => Promise<Outcome<unknown>>,
  ): Promise<Outcome<unknown>> {
    const remote = (node: string) => this.#bus.request(node, { kind: 'handle', gameId, user, request, present });
    return this.#atOwner(gameId, remote, here, fail('RECONNECTING'));
  }

  /** A returning player's socket opened here: their game's owner counts them back and says what to send. */
  async connect(userId: string, here: () => Promise<Seated | null>): Promise<Seated | null> {
    const gameId = await this.#placeOfSeat(userId).catch(() => 'local');
    if (gameId === 'local') return null;
    const remote = (node: string) => this.#bus.request(node, { kind: 'connect', gameId, userId });
    return this.#atOwner(gameId, remote, here, null, RECONNECT_WAIT_MS);
  }

  /** The user's last socket here closed: if none is open on any node, their game hears it, here or on its owner. */
  async away(userId: string, awayHere: () => Promise<boolean>): Promise<void> {
    const present = await this.#rooms.present([userId]);
    if (present.has(userId) || (await awayHere())) return;
    await this.#disconnect(userId);
  }

  /** The user has no socket left on any node: their game's owner hears it (best effort). */
  async #disconnect(userId: string): Promise<void> {
    const gameId = await this.#placeOfSeat(userId);
    if (gameId === 'local') return;
    const place = await this.#placeOfGame(gameId);
    if (typeof place === 'object') await this.#bus.request(place.node, { kind: 'disconnect', userId });
  }

  /** A question about a live room another node may run; null when no live game has that id or code. */
  async ask(
    idOrCode: string,
    question: RoomQuestion,
    here: (gameId: string) => RoomAnswer | null,
  ): Promise<RoomAnswer | null> {
    const gameId = await this.#gameIdOf(idOrCode);
    if (!gameId) return null;
    const remote = (node: string) => this.#bus.request(node, { kind: 'room', gameId, question });
    return this.#atOwner<RoomAnswer | null>(gameId, remote, async () => here(gameId), null).catch(() => null);
  }

  /** Every node's part of the lobby list (this node's too, over the bus), merged. */
  async liveGames(viewerId: string, query: LiveQuery): Promise<LiveList> {
    return mergeLiveLists(await this.#bus.gather({ kind: 'live', viewerId, query }), query.limit);
  }

  /** Asks every node for its headroom and hands the new game to the one with the most spare rooms. */
  async createElsewhere(user: User, request: GameRequest, present: boolean): Promise<Outcome<unknown> | null> {
    const nodes = await this.#bus.gather({ kind: 'headroom' }, GATHER_HEADROOM_MS).catch(() => []);
    const best = nodes
      .filter((n) => n.admitting && n.node !== this.#leases.nodeId)
      .sort((a, b) => b.spareRooms - a.spareRooms)[0];
    if (!best) return null;
    try {
      return await this.#bus.request(best.node, { kind: 'create', user, request, present });
    } catch (error) {
      this.#log.warn({ err: error, node: best.node }, 'a new game could not be handed to another node');
      return null;
    }
  }

  /** The unfinished game the user sits in, per Redis (null if none, or Redis is away). */
  seatOf(userId: string): Promise<string | null> {
    return this.#leases.seatOf(userId).catch(() => null);
  }

  #gameIdOf(idOrCode: string): Promise<string | null> {
    return isUuid(idOrCode) ? Promise.resolve(idOrCode) : this.#store.unfinishedIdByCode(idOrCode);
  }

  /** Where a game runs; a game nobody owns is taken over here. */
  async #placeOfGame(gameId: string): Promise<Place> {
    if (this.#rooms.runs(gameId)) return 'here';
    const owner = await this.#leases.ownerOf(gameId);
    if (owner !== null && owner !== this.#leases.nodeId) return { node: owner };
    return this.#adopt(gameId);
  }

  /**
   * Runs `here` if this node runs the game (or it is gone), or `remote` (the request sent to the node that does).
   * While the game changes hands (a dead owner's lease running out, a stopping owner handing it over)
   * it waits for the next owner, up to `waitMs`; then, or at once if Redis is away, `unavailable`.
   */
  async #atOwner<T>(
    gameId: string,
    remote: (node: string) => Promise<T>,
    here: () => Promise<T>,
    unavailable: T,
    waitMs = HANDOVER_WAIT_MS,
  ): Promise<T> {
    const deadline = this.#clock.now() + waitMs;
    for (;;) {
      try {
        const place = await this.#placeOfGame(gameId);
        if (place === 'here' || place === 'gone') return await here();
        if (place !== 'busy') return await remote(place.node);
      } catch (error) {
        if (!this.#redis.up) return unavailable;
        if (!(error instanceof NodeUnreachable)) throw error;
      }
      if (this.#clock.now() >= deadline || this.#rooms.stopping()) return unavailable;
      await sleep(this.#clock, HANDOVER_POLL_MS);
    }
  }

  /**
   * A request another node sent here. A node handing its games over sends the asker on to the next
   * owner. Asked as the owner of a game this node does not run (its previous run, killed, held the
   * lease that still names it), answering "no game here" would free or refuse nothing real — a vacate
   * answered so let a user sit in two games once the game was taken over: the asker looks again.
   */
  #serve(body: Forwarded): Promise<unknown> {
    if (this.#rooms.stopping()) return Promise.reject(new NodeRefused('NODE_STOPPING'));
    if ('gameId' in body && !this.#rooms.runs(body.gameId)) return Promise.reject(new NodeRefused('NOT_THE_OWNER'));
    // A node's headroom answer names it, for the asker to pick.
    if (body.kind === 'headroom')
      return this.#rooms.serve(body).then((state) => ({ ...(state as object), node: this.#leases.nodeId }));
    return this.#rooms.serve(body);
  }

  /** Takes over the unfinished games whose lease is gone. */
  async #scan(): Promise<void> {
    if (this.#scanning || this.#rooms.stopping()) return;
    this.#scanning = true;
    try {
      const ids = (await this.#store.unfinishedIds()).filter((id) => !this.#rooms.runs(id));
      const owners = await this.#leases.ownersOf(ids);
      for (const [i, id] of ids.entries()) if (owners[i] === null) await this.#adopt(id);
    } catch (error) {
      this.#log.debug({ err: error }, 'ownership scan skipped');
    } finally {
      this.#scanning = false;
    }
  }

  #adopt(gameId: string): Promise<Place> {
    const running = this.#adopting.get(gameId);
    if (running) return running;
    const adoption = this.#takeOver(gameId).finally(() => this.#adopting.delete(gameId));
    this.#adopting.set(gameId, adoption);
    return adoption;
  }

  /** Lease claimed, epoch raised in the database (the old owner's writes are refused from now on), room rebuilt. */
  async #takeOver(gameId: string): Promise<Place> {
    if (this.#rooms.stopping()) return 'busy';
    if (this.#rooms.runs(gameId)) return 'here';
    // Redis just came back (perhaps empty): the owners renew first (they do at once); a lease still
    // missing after that is a game nobody runs.
    if (!this.#redis.upFor(LEASE_TTL_MS)) return 'busy';
    if (!(await this.#leases.claim(gameId, 0))) return 'busy';
    const log = this.#log.child({ gameId });
    try {
      const epoch = await this.#store.raiseEpoch(gameId);
      const [stored] = epoch === null ? [] : await this.#store.unfinished(gameId);
      if (epoch === null || !stored) {
        await this.#leases.release(gameId);
        return 'gone';
      }
      await this.#leases.confirm(gameId, epoch);
      try {
        await this.#rooms.install(stored);
      } catch (error) {
        log.error({ err: error }, 'a game could not be rebuilt from its log; set aside');
        await this.#store.setAside(gameId, error);
        await this.#leases.release(gameId);
        return 'gone';
      }
      log.info({ epoch }, 'game taken over');
      return 'here';
    } catch (error) {
      log.warn({ err: error }, 'a takeover failed; the game stays free for another try');
      this.#leases.drop(gameId);
      return 'busy';
    }
  }
}
