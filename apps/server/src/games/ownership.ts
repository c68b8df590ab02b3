/**
 * Where each game runs, as a port: `GameService` asks it where a request must run,
 * forwards through it, takes a user's turn, claims and lets go of games and registers seats, without
 * knowing whether it is one process or a node of a cluster. Two versions, chosen in app.ts like the
 * counts: `LocalOwnership` (one server: every game runs here, and the user's turn is the per-user queue
 * every request already waits in) and `RedisOwnership` (redis-ownership.ts: leases with a fencing
 * epoch, forwarding over the bus, takeover), which takes its Redis, its bus and its `Clock` as
 * interfaces so that takeover, forwarding and the user's turn are unit-tested with fakes.
 */
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
import type { GameStore } from './store.ts';
import type { Outcome, StoredGame } from './types.ts';

/** What an ownership needs of the rooms this node runs (`GameService`). */
export interface LocalRooms {
  stopping(): boolean;
  /** Whether this node runs the game (by id, or by room code). */
  runs(idOrCode: string): boolean;
  /** Whether the user sits in a game this node runs. */
  seats(userId: string): boolean;
  /** Rebuilds a game taken over from its log and runs it here; throws if the log does not replay. */
  install(stored: StoredGame): Promise<void>;
  /**
   * A request another node sent here about a game this node runs, answered as if it had arrived here
   * (the asker parses the answer by its kind's schema, cluster/messages.ts).
   */
  serve(body: Forwarded): Promise<unknown>;
  /** Another node took the game over: it stops running here. */
  lost(gameId: string): void;
  /** Which of these users have a socket open, on any node (the transport's answer). */
  present(userIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/** What an ownership reads and writes in the games' database. */
export type GameDirectory = Pick<
  GameStore,
  'unfinishedIds' | 'unfinishedIdByCode' | 'unfinished' | 'raiseEpoch' | 'setAside' | 'seatedIn'
>;

export interface OwnershipHost {
  readonly rooms: LocalRooms;
  readonly store: GameDirectory;
}

export interface Ownership {
  /** Whether what the cluster shares is reachable (one server: always); while not, what needs it is refused. */
  readonly available: boolean;
  /** The fencing epoch this node holds the game at (every write of the game carries it); null: not held. */
  epochOf(gameId: string): number | null;
  /** Starts answering other nodes and taking over ownerless games; `reseat` lists this node's seats. */
  start(reseat: () => Iterable<[userId: string, gameId: string]>): Promise<void>;
  /** This node stops, everything it wrote being durable: its games are let go to the others. */
  handOver(): Promise<void>;
  /** Runs `run` while no other create or join of the user runs anywhere. */
  inUserTurn(userId: string, run: () => Promise<Outcome<unknown>>): Promise<Outcome<unknown>>;
  /** A new game made here: this node owns it from its first write. False: it cannot (Redis away). */
  claimNew(gameId: string): Promise<boolean>;
  /** Forgets a game another node took, without telling anyone. */
  drop(gameId: string): void;
  /** The game ended or closed here: others may have it. In the background. */
  release(gameId: string): void;
  /** The user sits in the game (or no longer does), for the other nodes to find. In the background. */
  seat(userId: string, gameId: string): void;
  unseat(userId: string, gameId: string): void;
  /** Where a request must run: here ('local'), or the id of a game this node does not run. */
  placeOfRequest(userId: string, request: GameRequest): Promise<'local' | string>;
  /** The games on other nodes whose seats may hold the user (each must free the seat for a new game). */
  seatsElsewhere(userId: string): Promise<string[]>;
  /** Runs a user's request on the node running `gameId`, or `here` once this node runs it (or it is gone). */
  forward(
    gameId: string,
    user: User,
    request: GameRequest,
    present: boolean,
    here: () => Promise<Outcome<unknown>>,
  ): Promise<Outcome<unknown>>;
  /** A returning player's socket opened here with no seat here: their game's owner counts them back. */
  connect(userId: string, here: () => Promise<Seated | null>): Promise<Seated | null>;
  /**
   * The user's last socket here closed. Once no node has one open either, `awayHere` runs (true: their
   * game runs here and heard it); otherwise their game's owner hears it.
   */
  away(userId: string, awayHere: () => Promise<boolean>): Promise<void>;
  /** A question about a live room, answered where it runs; null when no live game has that id or code. */
  ask(
    idOrCode: string,
    question: RoomQuestion,
    here: (gameId: string) => RoomAnswer | null,
  ): Promise<RoomAnswer | null>;
  /** The lobby list: `here` is this node's part. */
  liveGames(viewerId: string, query: LiveQuery, here: () => LiveList): Promise<LiveList>;
  /** The unfinished game the user sits in on another node (null if none, or not known). */
  seatOf(userId: string): Promise<string | null>;
  /**
   * A new game this node has no headroom for (games/headroom.ts): made on the node with the most
   * headroom, or null when no other node admits one.
   */
  createElsewhere(user: User, request: GameRequest, present: boolean): Promise<Outcome<unknown> | null>;
}

/** How app.ts hands a service its ownership, made once the service's rooms and store exist. */
export interface OwnershipFactory {
  /** Whether writes carry a fencing epoch (several nodes may write one game; a new game starts at 1). */
  readonly fenced: boolean;
  open(host: OwnershipHost): Ownership;
}

/**
 * One server: every game runs here, nothing is forwarded or taken over, and writes are not fenced.
 * A user's turn is the per-user queue (GameService's `#queues`) every request already waits in: it runs at once.
 */
export class LocalOwnership implements Ownership {
  readonly available = true;

  epochOf(): number | null {
    return null;
  }

  async start(): Promise<void> {}

  async handOver(): Promise<void> {}

  inUserTurn(_userId: string, run: () => Promise<Outcome<unknown>>): Promise<Outcome<unknown>> {
    return run();
  }

  async claimNew(): Promise<boolean> {
    return true;
  }

  drop(): void {}

  release(): void {}

  seat(): void {}

  unseat(): void {}

  async placeOfRequest(): Promise<'local'> {
    return 'local';
  }

  async seatsElsewhere(): Promise<string[]> {
    return [];
  }

  async createElsewhere(): Promise<null> {
    return null;
  }

  forward(
    _gameId: string,
    _user: User,
    _request: GameRequest,
    _present: boolean,
    here: () => Promise<Outcome<unknown>>,
  ): Promise<Outcome<unknown>> {
    return here();
  }

  async connect(): Promise<null> {
    return null;
  }

  /** No other node: the user is away everywhere now (called before this returns, as before the port). */
  async away(_userId: string, awayHere: () => Promise<boolean>): Promise<void> {
    await awayHere();
  }

  async ask(
    idOrCode: string,
    _question: RoomQuestion,
    here: (gameId: string) => RoomAnswer | null,
  ): Promise<RoomAnswer | null> {
    return here(idOrCode);
  }

  async liveGames(_viewerId: string, _query: LiveQuery, here: () => LiveList): Promise<LiveList> {
    return here();
  }

  async seatOf(): Promise<null> {
    return null;
  }
}

export const localOwnership: OwnershipFactory = { fenced: false, open: () => new LocalOwnership() };
