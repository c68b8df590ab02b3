/**
 * Who is here: each user's open sockets on this node and, in cluster mode, those on other nodes as
 * forwarded requests told. A socket opening counts its user back in the game they sit in, on
 * whichever node runs it; their seat counts as away only once their last socket has closed, on every
 * node. Sockets closed by our own shutdown are not players going away.
 */
import type { GamesContext } from './context.ts';
import { type Seated, rejoinFor } from './requests.ts';

export class PlayerSockets {
  /** Open sockets per user. */
  readonly #sockets = new Map<string, number>();
  /** Users with a socket on another node, as forwarded requests told (cluster mode). */
  readonly #remote = new Set<string>();
  readonly #games: GamesContext;

  constructor(games: GamesContext) {
    this.#games = games;
  }

  /** Users counted here and elsewhere (GET /metrics). */
  held(): { usersWithSockets: number; usersElsewhere: number } {
    return { usersWithSockets: this.#sockets.size, usersElsewhere: this.#remote.size };
  }

  /** Whether the user has a socket open on this node. */
  hasSocket(userId: string): boolean {
    return (this.#sockets.get(userId) ?? 0) > 0;
  }

  /** Whether the user has a socket open here, or on another node as far as this node heard. */
  isHere(userId: string): boolean {
    return this.hasSocket(userId) || this.#remote.has(userId);
  }

  /**
   * A socket of the user opened: the game they sit in (on whichever node owns it) counts them as
   * back, and the socket is told what it needs to carry on.
   */
  async connected(userId: string): Promise<Seated | null> {
    this.#sockets.set(userId, (this.#sockets.get(userId) ?? 0) + 1);
    const room = this.#games.rooms.seatOf(userId);
    if (room) {
      void room.connect(userId).done;
      return { gameId: room.id, rejoin: rejoinFor(room, userId) };
    }
    return this.#games.ownership.connect(userId, () => this.connectHere(userId));
  }

  /** A socket of the user opened on some node: the game it sits in here counts them back. */
  async connectHere(userId: string): Promise<Seated | null> {
    const room = this.#games.rooms.seatOf(userId);
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
    const { ownership, log } = this.#games;
    // Sockets closed by our own shutdown are not players going away: the log does not say so.
    if (this.#games.stopping()) return;
    void ownership
      .away(userId, () => this.#awayHere(userId))
      .catch((error: unknown) => {
        log.warn({ err: error, userId }, 'a disconnect could not be passed on to its game');
      });
  }

  /** A request forwarded from a node where the user has a socket: they are here, whatever a takeover assumed. */
  actingElsewhere(userId: string): void {
    this.#remote.add(userId);
    void this.#games.rooms.seatOf(userId)?.connect(userId).done;
  }

  /** The user's last socket on another node closed (none is open on any): their game here hears it. */
  async goneElsewhere(userId: string): Promise<void> {
    this.#remote.delete(userId);
    if (!this.hasSocket(userId)) await this.#games.rooms.seatOf(userId)?.disconnect(userId).done;
  }

  /** A game taken over: of its players with a socket on some node, those with none here are elsewhere. */
  presentElsewhere(userIds: Iterable<string>): void {
    for (const id of userIds) if (!this.hasSocket(id)) this.#remote.add(id);
  }

  /**
   * No socket of the user is open on any node (as far as the ownership knows): the game they sit in
   * here hears it. True if that is all there is to do (a socket opened again meanwhile, or their game
   * runs here); false: their game, if any, runs elsewhere.
   */
  async #awayHere(userId: string): Promise<boolean> {
    if (this.hasSocket(userId)) return true;
    const room = this.#games.rooms.seatOf(userId);
    if (!room) return false;
    this.#remote.delete(userId);
    await room.disconnect(userId).done;
    return true;
  }
}
