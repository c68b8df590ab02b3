/**
 * The game rooms of this server: creating and finding them by id or room code, who sits where (one
 * unfinished game per user), snapshots of live rooms at least once a second, recording finished
 * games (retried until it lands), and bringing rooms back after a restart.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Command } from '@memeslam/engine';
import {
  type GameSetup,
  LOBBY_TEXTS,
  ROOM_CODE_ALPHABET,
  ROOM_CODE_LENGTH,
  type ServerEventName,
} from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { type GameRoom as Room, GameRoom } from './room.ts';
import type { Outcome, RoomOutput, RoomSnapshot } from './types.ts';
import { GameStore } from './store.ts';

/** How rooms reach sockets; the socket.io gateway implements it. */
export interface Transport {
  toRoom(gameId: string, event: ServerEventName, payload: object): void;
  toUser(userId: string, event: ServerEventName, payload: object): void;
  /** Puts every socket of the user into the game's channel (or takes them out). */
  subscribe(userId: string, gameId: string): void;
  unsubscribe(userId: string, gameId: string): void;
}

export interface User {
  readonly id: string;
  readonly username: string;
}

/** DESIGN: live games are snapshotted at least once a second while they change. */
const SNAPSHOT_EVERY_MS = 1000;
/** Rooms written per statement. */
const SNAPSHOT_BATCH = 10;
/** A finished room stays findable a while for late requests, then lives on in the database only. */
const FINISHED_ROOM_TTL_MS = 5 * 60_000;

export class GameService {
  readonly #rooms = new Map<string, Room>();
  readonly #byCode = new Map<string, Room>();
  readonly #userGame = new Map<string, Room>();
  readonly #dirty = new Set<Room>();
  /** Open sockets per user. */
  readonly #sockets = new Map<string, number>();
  readonly #store: GameStore;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  #transport: Transport | null = null;
  #flushing: Promise<void> | null = null;
  readonly #interval: NodeJS.Timeout;
  /** Finished games whose recording is under way or waiting for a retry. */
  readonly #recording = new Set<Promise<void>>();

  readonly #seeds: () => string;

  constructor(deps: { db: Db; clock: Clock; log: FastifyBaseLogger; seeds?: () => string }) {
    this.#store = new GameStore(deps.db);
    this.#clock = deps.clock;
    this.#seeds = deps.seeds ?? (() => randomBytes(16).toString('hex'));
    this.#log = deps.log;
    this.#interval = setInterval(() => void this.flush(), SNAPSHOT_EVERY_MS);
    this.#interval.unref();
  }

  set transport(transport: Transport) {
    this.#transport = transport;
  }

  get liveRooms(): readonly Room[] {
    return [...this.#rooms.values()].filter((r) => r.status !== 'finished');
  }

  /** Users with at least one socket open on this server (players online). */
  onlineUserIds(): ReadonlySet<string> {
    return new Set(this.#sockets.keys());
  }

  find(idOrCode: string): Room | undefined {
    return this.#rooms.get(idOrCode) ?? this.#byCode.get(idOrCode.toUpperCase());
  }

  currentGameOf(userId: string): Room | undefined {
    return this.#userGame.get(userId);
  }

  async create(user: User, setup: GameSetup): Promise<Outcome<Room>> {
    const free = this.#freeSeatFor(user.id);
    if (!free.ok) return free;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const roomCode = this.#newRoomCode();
      const room = new GameRoom(
        { id: randomUUID(), roomCode, host: user, setup, createdAt: this.#clock.now() },
        this.#clock,
        this.#output(),
      );
      try {
        await this.#store.insert(room);
      } catch (error) {
        // Another node took the code meanwhile (unique among unfinished games): draw again.
        this.#log.warn({ err: error, roomCode }, 'room code taken, drawing another');
        continue;
      }
      this.#add(room);
      this.#seat(user.id, room);
      room.open();
      return { ok: true, data: room };
    }
    return { ok: false, error: LOBBY_TEXTS.failedToCreateGame };
  }

  join(user: User, roomCode: string): Outcome<Room> {
    const room = this.#byCode.get(roomCode.toUpperCase());
    if (!room || room.status === 'finished') return { ok: false, error: LOBBY_TEXTS.gameNotFound };
    if (room.isMember(user.id)) {
      this.#seat(user.id, room);
      return { ok: true, data: room };
    }
    if (room.status !== 'waiting') return { ok: false, error: LOBBY_TEXTS.gameAlreadyStarted };
    if (!room.isOpen()) return { ok: false, error: LOBBY_TEXTS.gameFull };
    const free = this.#freeSeatFor(user.id);
    if (!free.ok) return free;
    const joined = room.join(user);
    if (!joined.ok) return joined;
    this.#seat(user.id, room);
    return { ok: true, data: room };
  }

  /** Leaves the user's game (or the named one): the lobby, or a forfeit of a game in play. */
  leave(userId: string, idOrCode?: string): Outcome<null> {
    const room = idOrCode ? this.find(idOrCode) : this.#userGame.get(userId);
    if (!room || !room.isMember(userId)) return { ok: false, error: LOBBY_TEXTS.notInGame };
    const result = room.leave(userId);
    if (result.ok) this.#unseat(userId, room);
    return result;
  }

  play(userId: string, command: Command) {
    const room = this.#userGame.get(userId);
    if (!room) return { ok: false as const, error: LOBBY_TEXTS.notInGame };
    return room.play(userId, command);
  }

  /**
   * An account is being deleted: it leaves the game it sits in (a forfeit if in play), and finished
   * rooms still showing its name are forgotten, so lookups read the anonymised record instead.
   */
  removeUser(userId: string): void {
    if (this.#userGame.has(userId)) this.leave(userId);
    for (const room of [...this.#rooms.values()]) {
      if (room.status === 'finished' && room.isMember(userId)) this.#forget(room);
    }
  }

  /** A socket of the user opened; returns the game they sit in. */
  connected(userId: string): Room | undefined {
    this.#sockets.set(userId, (this.#sockets.get(userId) ?? 0) + 1);
    const room = this.#userGame.get(userId);
    room?.connect(userId);
    return room;
  }

  /** A socket of the user closed; their seat counts as away once the last one has. */
  disconnected(userId: string): void {
    const open = (this.#sockets.get(userId) ?? 1) - 1;
    if (open > 0) {
      this.#sockets.set(userId, open);
      return;
    }
    this.#sockets.delete(userId);
    this.#userGame.get(userId)?.disconnect(userId);
  }

  /** Rebuilds the rooms of the last snapshots; their players get the usual grace to come back. */
  async recover(): Promise<number> {
    const snapshots = await this.#store.unfinished();
    for (const snapshot of snapshots) {
      const room = restoreRoom(snapshot, this.#clock, this.#output());
      this.#add(room);
      if (room.engine?.result) {
        // It ended before the crash but was not recorded yet.
        room.status = 'finished';
        this.#finished(room);
        continue;
      }
      for (const seat of room.seats) if (seat.bot === null) this.#userGame.set(seat.playerId, room);
      room.resume();
    }
    return snapshots.length;
  }

  /** Writes the snapshots of rooms that changed since the last flush (one flush at a time). */
  flush(): Promise<void> {
    // `.finally` always runs later, so the slot is cleared only after it was taken.
    this.#flushing ??= this.#writeDirty().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #writeDirty(): Promise<void> {
    const rooms = [...this.#dirty].filter((room) => room.status !== 'finished');
    this.#dirty.clear();
    for (let i = 0; i < rooms.length; i += SNAPSHOT_BATCH) {
      const batch = rooms.slice(i, i + SNAPSHOT_BATCH);
      // A turn of the event loop between batches: an embedded database runs on this thread, and
      // sockets must not wait for a thousand snapshots in a row.
      await new Promise((resolve) => setImmediate(resolve));
      await this.#store.saveSnapshots(batch).catch((error: unknown) => {
        this.#log.error({ err: error, rooms: batch.length }, 'snapshot failed; will retry');
        for (const room of batch) this.#dirty.add(room);
      });
    }
  }

  /** Stops timers, writes the last snapshots, and waits for results still being recorded. */
  async close(): Promise<void> {
    clearInterval(this.#interval);
    for (const room of this.#rooms.values()) room.dispose();
    await this.flush();
    await Promise.allSettled([...this.#recording]);
  }

  #output(): RoomOutput {
    return {
      seed: () => this.#seeds(),
      toRoom: (gameId, event, payload) => this.#transport?.toRoom(gameId, event, payload),
      toUser: (userId, event, payload) => this.#transport?.toUser(userId, event, payload),
      changed: (room) => this.#dirty.add(room),
      finished: (room) => this.#finished(room),
      closed: (room) => {
        this.#dirty.delete(room);
        this.#forget(room);
        void this.#store.close(room).catch((error: unknown) => this.#log.error({ err: error }, 'closing lobby failed'));
      },
    };
  }

  #finished(room: Room): void {
    this.#dirty.delete(room);
    for (const seat of room.seats) if (this.#userGame.get(seat.playerId) === room) this.#userGame.delete(seat.playerId);
    const recording = this.#record(room).finally(() => this.#recording.delete(recording));
    this.#recording.add(recording);
    const timer = setTimeout(() => this.#forget(room), FINISHED_ROOM_TTL_MS);
    timer.unref();
  }

  /** No finished game's result is lost: the write is retried with backoff until it lands. */
  async #record(room: Room): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#store.finish(room);
        return;
      } catch (error) {
        this.#log.error({ err: error, gameId: room.id, attempt }, 'recording a finished game failed; retrying');
        if (attempt >= 8) {
          // The last snapshot still holds the game; a restart records it from there.
          await this.#store.saveSnapshot(room).catch(() => {});
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 250 * 2 ** attempt)));
      }
    }
  }

  #add(room: Room): void {
    this.#rooms.set(room.id, room);
    this.#byCode.set(room.roomCode, room);
  }

  #forget(room: Room): void {
    room.dispose();
    if (this.#rooms.get(room.id) === room) this.#rooms.delete(room.id);
    if (this.#byCode.get(room.roomCode) === room) this.#byCode.delete(room.roomCode);
    for (const [userId, seated] of this.#userGame) if (seated === room) this.#userGame.delete(userId);
  }

  #seat(userId: string, room: Room): void {
    this.#userGame.set(userId, room);
    this.#transport?.subscribe(userId, room.id);
    if ((this.#sockets.get(userId) ?? 0) > 0) room.connect(userId);
  }

  #unseat(userId: string, room: Room): void {
    if (this.#userGame.get(userId) === room) this.#userGame.delete(userId);
    this.#transport?.unsubscribe(userId, room.id);
  }

  /** One unfinished game per user: a lobby they sit in is left for the new one; a game in play is not. */
  #freeSeatFor(userId: string): Outcome<null> {
    const current = this.#userGame.get(userId);
    if (!current || current.status === 'finished') return { ok: true, data: null };
    if (current.status === 'active') return { ok: false, error: LOBBY_TEXTS.alreadyInGame };
    current.leave(userId);
    this.#unseat(userId, current);
    return { ok: true, data: null };
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

/** A room as its snapshot left it; its players get the usual grace to come back (see `resume`). */
function restoreRoom(snapshot: RoomSnapshot, clock: Clock, out: RoomOutput): Room {
  const room = new GameRoom(
    {
      id: snapshot.id,
      roomCode: snapshot.roomCode,
      host: { id: snapshot.hostId, username: snapshot.hostName },
      setup: snapshot.setup,
      createdAt: snapshot.createdAt,
    },
    clock,
    out,
  );
  const downtime = Math.max(0, clock.now() - snapshot.savedAt);
  room.status = snapshot.status;
  room.seats = snapshot.seats.map((s) => ({ ...s }));
  room.seed = snapshot.seed;
  room.engine = snapshot.engine;
  room.commands = [...snapshot.commands];
  room.seq = snapshot.seq;
  // The game clock stood still while the server was down: play resumes where the snapshot left it.
  room.clockOffset = snapshot.clockOffset + (snapshot.status === 'active' ? downtime : 0);
  room.startsAt = snapshot.startsAt === null ? null : snapshot.startsAt + downtime;
  room.autoStartAt = snapshot.autoStartAt === null ? null : snapshot.autoStartAt + downtime;
  return room;
}
