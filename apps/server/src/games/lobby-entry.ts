/**
 * The way into a lobby: creating a game (within the room ceiling and the user's budget of
 * creations, with a fresh room code and, in cluster mode, this node's lease on it) and joining one by
 * its code, as a player or a spectator. One unfinished game per user: a lobby the user sits in
 * (here or on another node) is left for the new one; a game in play is not.
 */
import { randomUUID } from 'node:crypto';
import { type GameSetup, MATCH_ME, REMATCH_HOLD_MS } from '@memeslam/protocol';
import { type BudgetFactory, type BudgetStore, memoryBudgets } from '../token-buckets.ts';
import type { GamesContext } from './context.ts';
import { type Answers, type Entry, type GameRequest, type User, rejoinFor, settle } from './requests.ts';
import type { Headroom } from './headroom.ts';
import { GameRoom } from './room.ts';
import { type Outcome, fail, ok } from './types.ts';

/** Runs a request on the node that runs the game (cluster mode), and brings its answer back. */
export type Forward = (gameId: string, user: User, request: GameRequest) => Promise<Outcome<unknown>>;

export class LobbyEntry {
  readonly #games: GamesContext;
  readonly #forward: Forward;
  readonly #maxRooms: number;
  /** Admission control (games/headroom.ts, docs/capacity.md). */
  readonly #headroom: Headroom;
  /** Each user's budget of game creations (null: unlimited). */
  readonly #creations: BudgetStore | null;

  constructor(
    games: GamesContext,
    forward: Forward,
    limits: { maxLiveRooms: number; gamesCreatedPerMinute: number | null } | undefined,
    budgets: BudgetFactory | undefined,
    headroom: Headroom,
  ) {
    this.#games = games;
    this.#headroom = headroom;
    this.#forward = forward;
    this.#maxRooms = limits?.maxLiveRooms ?? Number.POSITIVE_INFINITY;
    const perMinute = limits?.gamesCreatedPerMinute ?? null;
    this.#creations =
      perMinute === null
        ? null
        : (budgets ?? memoryBudgets)('games-created', { capacity: perMinute, perSecond: perMinute / 60 });
  }

  /**
   * A new game past admission control: made here while this node has headroom; else made on another
   * node with some (`present`: whether the user has a socket here; null for a create another node
   * handed here, never handed on), or refused with NO_HEADROOM. Games in play go on as they were.
   */
  async admitted(
    user: User,
    request: Extract<GameRequest, { type: 'create' }>,
    present: boolean | null,
  ): Promise<Outcome<unknown>> {
    if (this.#headroom.admits(this.#games.rooms.liveCount())) {
      return this.create(user, request.setup, request.matchPaceMs, request.holdFor);
    }
    const elsewhere = present === null ? null : await this.#games.ownership.createElsewhere(user, request, present);
    return elsewhere ?? fail('NO_HEADROOM');
  }

  /** Whether new games start here, and room for how many (within the room ceiling), for other nodes and /metrics. */
  headroom(): { admitting: boolean; spareRooms: number } {
    const rooms = this.#games.rooms.liveCount();
    const { admitting, roomLimit } = this.#headroom.state(rooms);
    return {
      admitting,
      spareRooms: Math.max(0, Math.min(roomLimit ?? this.#maxRooms, this.#maxRooms, Number.MAX_SAFE_INTEGER) - rooms),
    };
  }

  /** `holdFor`: a rematch's lobby, held for these users for REMATCH_HOLD_MS (docs/privacy.md). */
  async create(
    user: User,
    asked: GameSetup,
    matchPaceMs?: number,
    holdFor?: readonly string[],
  ): Promise<Outcome<Entry>> {
    const { rooms, store, clock, ownership } = this.#games;
    if (rooms.size >= this.#maxRooms) return fail('SERVER_BUSY');
    if (this.#creations && !(await this.#creations.take(user.id, clock.now()))) {
      return fail('TOO_MANY_GAMES');
    }
    const free = await this.freeSeatFor(user.id);
    if (!free.ok) return free;
    // "Match me": the bots take the host's recorded pace (Play now: the people's median), fixed now
    // and kept with the room's settings.
    const setup =
      asked.bots?.difficulty === MATCH_ME
        ? { ...asked, bots: { ...asked.bots, matchPaceMs: matchPaceMs ?? (await store.recordedPaceOf(user.id)) } }
        : asked;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const roomCode = rooms.newRoomCode();
      const room = new GameRoom(
        {
          id: randomUUID(),
          roomCode,
          host: user,
          setup,
          createdAt: clock.now(),
          hold: holdFor ? { userIds: [...holdFor], until: clock.now() + REMATCH_HOLD_MS } : null,
        },
        this.#games.roomDeps,
      );
      // Cluster mode: this node owns the new game from its first write (epoch 1).
      if (!(await ownership.claimNew(room.id))) {
        return fail('RECONNECTING');
      }
      try {
        await store.insert({
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
            savedAt: clock.now(),
          },
        });
      } catch (error) {
        // An unfinished game in the database holds the code: draw again.
        this.#games.log.warn({ err: error, roomCode }, 'room code taken, drawing another');
        ownership.release(room.id);
        continue;
      }
      rooms.add(room);
      const opened = await settle(room, room.open());
      if (!opened.ok) return opened;
      rooms.seat(user.id, room);
      await room.settled();
      return ok(this.#entry(room, user.id));
    }
    return fail('CREATE_FAILED');
  }

  async join(user: User, roomCode: string, watch: boolean): Promise<Outcome<Answers['join']>> {
    const { rooms } = this.#games;
    const room = rooms.byCode(roomCode);
    if (!room || room.status === 'finished') return fail('GAME_NOT_FOUND');
    const answer = (watching: boolean) =>
      ok({
        ...this.#entry(room, user.id),
        watching,
        rejoin: !watching && room.status === 'active' ? rejoinFor(room, user.id) : null,
      });
    if (room.isMember(user.id)) {
      rooms.seat(user.id, room);
      await room.settled();
      return answer(false);
    }
    if (room.status !== 'waiting') {
      // A non-member may watch a game under way when its host allows spectators.
      if (!watch) return fail('GAME_ALREADY_STARTED');
      if (!room.setup.allowSpectators) return fail('SPECTATORS_NOT_ALLOWED');
      this.#games.transport()?.subscribe(user.id, room.id);
      return answer(true);
    }
    // Refused before the user's own lobby is left for it (docs/privacy.md).
    if (room.heldFrom(user.id)) return fail('REMATCH_HELD');
    if (!room.isOpen()) return fail('GAME_FULL');
    const free = await this.freeSeatFor(user.id);
    if (!free.ok) return free;
    const joined = await settle(room, room.join(user));
    if (!joined.ok) return joined;
    rooms.seat(user.id, room);
    await room.settled();
    return answer(false);
  }

  /** One unfinished game per user: a lobby they sit in is left for the new one; a game in play is not. */
  async freeSeatFor(userId: string, onOtherNodes = true): Promise<Outcome<null>> {
    const { rooms, ownership } = this.#games;
    const current = rooms.seatOf(userId);
    if (!current && onOtherNodes) {
      // Cluster mode: the seat may be in games other nodes run; each frees it.
      const user = { id: userId, username: '' };
      for (const gameId of await ownership.seatsElsewhere(userId)) {
        const freed = (await this.#forward(gameId, user, { type: 'vacate' })) as Outcome<null>;
        if (!freed.ok) return freed;
      }
    }
    if (!current || current.status === 'finished') return ok(null);
    if (current.status === 'active') {
      if (current.seatedHumanIds.includes(userId)) return fail('ALREADY_IN_GAME');
      // They forfeited it (away too long): the game goes on without them, and they may play elsewhere.
      rooms.unseat(userId, current);
      return ok(null);
    }
    // A leave that did not become durable (this node lost the game meanwhile) freed nothing: the
    // game's next owner still seats the user, so the create or join must not go on.
    const left = await settle(current, current.leave(userId));
    if (!left.ok) return left;
    rooms.unseat(userId, current);
    return ok(null);
  }

  #entry(room: GameRoom, userId: string): Entry {
    return { gameId: room.id, roomCode: room.roomCode, game: room.game(userId), seq: room.seq };
  }
}
