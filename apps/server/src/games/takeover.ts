/**
 * Rooms that come from elsewhere or go elsewhere. At start-up every unfinished game is rebuilt from
 * its log (one that does not replay is set aside, never retried). In cluster mode a game taken over
 * from another node is rebuilt the same way, a game another node took over stops here, and a request
 * another node forwards is served as if it had arrived here: what `ClusterGames` asks of this node's
 * rooms (`LocalRooms`).
 */
import type { FastifyBaseLogger } from 'fastify';
import { NODE_STOPPING, NOT_THE_OWNER, NodeUnreachable } from '../cluster/bus.ts';
import type { ClusterGames } from './cluster-games.ts';
import type { Presence } from './presence.ts';
import { type Forwarded, type GameRequest, type Transport, type User, answerAbout, liveList } from './requests.ts';
import type { RoomRegistry } from './room-registry.ts';
import { GameRoom } from './room.ts';
import type { GameStore } from './store.ts';
import type { Outcome, RoomDeps, StoredGame } from './types.ts';

/** The door, for requests another node forwarded (this node runs their game; they are never sent on). */
export interface ForwardedDoor {
  /** Runs at once, outside the user's queue. */
  now(user: User, request: GameRequest): Promise<Outcome<unknown>>;
  /** Runs after the user's earlier requests. */
  queued(user: User, request: GameRequest): Promise<Outcome<unknown>>;
}

export class RoomTakeover {
  readonly #rooms: RoomRegistry;
  readonly #presence: Presence;
  readonly #store: GameStore;
  readonly #log: FastifyBaseLogger;
  readonly #cluster: ClusterGames | null;
  readonly #roomDeps: RoomDeps;
  readonly #transport: () => Transport | null;
  readonly #stopping: () => boolean;
  readonly #door: ForwardedDoor;

  constructor(deps: {
    rooms: RoomRegistry;
    presence: Presence;
    store: GameStore;
    log: FastifyBaseLogger;
    cluster: ClusterGames | null;
    roomDeps: RoomDeps;
    transport: () => Transport | null;
    stopping: () => boolean;
    door: ForwardedDoor;
  }) {
    this.#rooms = deps.rooms;
    this.#presence = deps.presence;
    this.#store = deps.store;
    this.#log = deps.log;
    this.#cluster = deps.cluster;
    this.#roomDeps = deps.roomDeps;
    this.#transport = deps.transport;
    this.#stopping = deps.stopping;
    this.#door = deps.door;
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
        room = GameRoom.restore(game, this.#roomDeps);
      } catch (error) {
        setAside += 1;
        this.#log
          .child({ gameId: game.id })
          .error({ err: error }, 'a game could not be rebuilt from its log; set aside');
        await this.#store.setAside(game.id, error);
        continue;
      }
      this.#rooms.add(room);
      for (const id of room.seatedHumanIds) this.#rooms.place(id, room);
      void room.resume().done;
    }
    return { restored: stored.length - setAside, setAside };
  }

  /**
   * A game taken over from its log runs here: the players still in it sit in it (not those who left
   * or forfeited), and those with a socket open on any node count as present (only the others as away).
   */
  async install(stored: StoredGame): Promise<void> {
    const room = GameRoom.restore(stored, this.#roomDeps);
    this.#rooms.add(room);
    const humans = room.seatedHumanIds;
    for (const id of humans) {
      this.#rooms.place(id, room);
      this.#cluster?.registry((leases) => leases.seat(id, room.id));
    }
    const present =
      (await this.#transport()
        ?.present(humans)
        .catch(() => null)) ?? new Set<string>();
    this.#presence.presentElsewhere(present);
    void room.resume(present).done;
  }

  /** Another node took the game over (our write was fenced off, or our lease was found in its hands). */
  lost(gameId: string): void {
    const room = this.#rooms.get(gameId);
    this.#cluster?.drop(gameId);
    if (!room) return;
    this.#log.child({ gameId }).warn('game lost to another node; this node stops running it');
    room.lose();
    this.#rooms.drop(room);
  }

  /** A request another node forwarded: served here as if it had arrived here. */
  async serve(body: Forwarded): Promise<unknown> {
    // A node handing its games over sends the asker on to the next owner.
    if (this.#stopping()) throw new NodeUnreachable(NODE_STOPPING);
    // Asked as the owner of a game this node does not run (its previous run, killed, held the lease
    // that still names it): answering "no game here" would free or refuse nothing real — a vacate
    // answered so let a user sit in two games once the game was taken over. The asker looks again.
    if ((body.kind === 'handle' || body.kind === 'connect' || body.kind === 'room') && !this.#rooms.has(body.gameId)) {
      throw new NodeUnreachable(NOT_THE_OWNER);
    }
    switch (body.kind) {
      case 'handle':
        // A socket on another node acts for the user: they are here, whatever a takeover assumed.
        if (body.present) this.#presence.actingElsewhere(body.user.id);
        // A vacate is part of a create or join of this user under way on another node, which holds
        // the user's turn across the cluster and, if it came from here, this node's queue of that
        // user too: waiting in that queue would wait for itself. It runs at once.
        if (body.request.type === 'vacate') return this.#door.now(body.user, body.request);
        return this.#door.queued(body.user, body.request);
      case 'connect':
        return this.#presence.connectHere(body.userId);
      case 'disconnect':
        await this.#presence.goneElsewhere(body.userId);
        return null;
      case 'room': {
        const room = this.#rooms.find(body.gameId);
        return room ? answerAbout(room, body.question) : null;
      }
      case 'live':
        return liveList(this.#rooms.live, body.viewerId, body.query);
    }
  }
}
