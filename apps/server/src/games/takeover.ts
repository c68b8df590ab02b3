/**
 * Rooms that come from elsewhere or go elsewhere. At start-up every unfinished game is rebuilt from
 * its log (one that does not replay is set aside, never retried). In cluster mode a game taken over
 * from another node is rebuilt the same way, a game another node took over stops here, and a request
 * another node forwards is served as if it had arrived here: what the cluster's ownership asks of this
 * node's rooms (`LocalRooms` in ownership.ts).
 */
import type { GamesContext } from './context.ts';
import type { PlayerSockets } from './player-sockets.ts';
import { type Forwarded, type GameRequest, type User, answerAbout, liveList } from './requests.ts';
import { GameRoom } from './room.ts';
import type { Outcome, StoredGame } from './types.ts';

/** The door, for requests another node forwarded (this node runs their game; they are never sent on). */
export interface ForwardedDoor {
  /** Runs at once, outside the user's queue. */
  now(user: User, request: GameRequest): Promise<Outcome<unknown>>;
  /** Runs after the user's earlier requests. */
  queued(user: User, request: GameRequest): Promise<Outcome<unknown>>;
  /** Admission control's state of this node (games/headroom.ts). */
  headroom(): { admitting: boolean; spareRooms: number };
}

export class RoomTakeover {
  readonly #games: GamesContext;
  readonly #sockets: PlayerSockets;
  readonly #door: ForwardedDoor;

  constructor(games: GamesContext, sockets: PlayerSockets, door: ForwardedDoor) {
    this.#games = games;
    this.#sockets = sockets;
    this.#door = door;
  }

  /**
   * Rebuilds the unfinished games from their logs; their players get the usual grace to come back.
   * A game whose log does not replay is set aside (logged, marked, never loaded again).
   */
  async recover(): Promise<{ restored: number; setAside: number }> {
    const { rooms, store, log, roomDeps } = this.#games;
    const stored = await store.unfinished();
    let setAside = 0;
    for (const game of stored) {
      let room: GameRoom;
      try {
        room = GameRoom.restore(game, roomDeps);
      } catch (error) {
        setAside += 1;
        log.child({ gameId: game.id }).error({ err: error }, 'a game could not be rebuilt from its log; set aside');
        await store.setAside(game.id, error);
        continue;
      }
      rooms.add(room);
      for (const id of room.seatedHumanIds) rooms.place(id, room);
      void room.resume().done;
    }
    return { restored: stored.length - setAside, setAside };
  }

  /**
   * A game taken over from its log runs here: the players still in it sit in it (not those who left
   * or forfeited), and those with a socket open on any node count as present (only the others as away).
   */
  async install(stored: StoredGame): Promise<void> {
    const { rooms, ownership, roomDeps } = this.#games;
    const room = GameRoom.restore(stored, roomDeps);
    rooms.add(room);
    const humans = room.seatedHumanIds;
    for (const id of humans) {
      rooms.place(id, room);
      ownership.seat(id, room.id);
    }
    const present =
      (await this.#games
        .transport()
        ?.present(humans)
        .catch(() => null)) ?? new Set<string>();
    this.#sockets.presentElsewhere(present);
    void room.resume(present).done;
  }

  /** Another node took the game over (our write was fenced off, or our lease was found in its hands). */
  lost(gameId: string): void {
    const { rooms, ownership, log } = this.#games;
    const room = rooms.get(gameId);
    ownership.drop(gameId);
    if (!room) return;
    log.child({ gameId }).warn('game lost to another node; this node stops running it');
    room.lose();
    rooms.drop(room);
  }

  /**
   * A request another node forwarded: served here as if it had arrived here (the ownership has
   * refused those about a game this node does not run, and all of them while it stops).
   */
  async serve(body: Forwarded): Promise<unknown> {
    const { rooms } = this.#games;
    switch (body.kind) {
      case 'handle':
        // A socket on another node acts for the user: they are here, whatever a takeover assumed.
        if (body.present) this.#sockets.actingElsewhere(body.user.id);
        // A vacate is part of a create or join of this user under way on another node, which holds
        // the user's turn across the cluster and, if it came from here, this node's queue of that
        // user too: waiting in that queue would wait for itself. It runs at once.
        if (body.request.type === 'vacate') return this.#door.now(body.user, body.request);
        return this.#door.queued(body.user, body.request);
      case 'connect':
        return this.#sockets.connectHere(body.userId);
      case 'disconnect':
        await this.#sockets.goneElsewhere(body.userId);
        return null;
      case 'room': {
        const room = rooms.find(body.gameId);
        return room ? answerAbout(room, body.question) : null;
      }
      case 'live':
        return liveList(rooms.live, body.viewerId, body.query);
      case 'headroom':
        return this.#door.headroom();
      case 'create':
        // The asking node holds the user's turn across the cluster; the create runs here at once.
        if (body.present) this.#sockets.actingElsewhere(body.user.id);
        return this.#door.now(body.user, body.request);
    }
  }
}
