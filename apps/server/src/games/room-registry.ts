/**
 * The rooms this node runs, found by id or room code, and the seat registry: the room each user sits
 * in here (one unfinished game per user). Seating a user puts their sockets in the room's channel,
 * counts them as back if they are here, and in cluster mode registers the seat in Redis too (in the
 * background; Redis's registry says where a user sits for the other nodes).
 */
import { randomInt } from 'node:crypto';
import { ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '@memeslam/protocol';
import type { Ownership } from './ownership.ts';
import type { Transport } from './requests.ts';
import type { GameRoom } from './room.ts';

export class RoomRegistry {
  readonly #rooms = new Map<string, GameRoom>();
  readonly #byCode = new Map<string, GameRoom>();
  readonly #userGame = new Map<string, GameRoom>();
  readonly #ownership: Ownership;
  readonly #transport: () => Transport | null;
  /** Whether the user has a socket open, here or (as far as this node heard) on another node. */
  readonly #here: (userId: string) => boolean;

  constructor(deps: { ownership: Ownership; transport: () => Transport | null; here: (userId: string) => boolean }) {
    this.#ownership = deps.ownership;
    this.#transport = deps.transport;
    this.#here = deps.here;
  }

  // ── rooms ──

  find(idOrCode: string): GameRoom | undefined {
    return this.#rooms.get(idOrCode) ?? this.#byCode.get(idOrCode.toUpperCase());
  }

  /** The room of this id (room codes are not looked at). */
  get(gameId: string): GameRoom | undefined {
    return this.#rooms.get(gameId);
  }

  has(gameId: string): boolean {
    return this.#rooms.has(gameId);
  }

  /** The room last given this code here (perhaps finished since). */
  byCode(roomCode: string): GameRoom | undefined {
    return this.#byCode.get(roomCode.toUpperCase());
  }

  get size(): number {
    return this.#rooms.size;
  }

  /** What the registry holds (GET /metrics: a soak checks nothing outlives its game). */
  held(): { rooms: number; roomCodes: number; seats: number } {
    return { rooms: this.#rooms.size, roomCodes: this.#byCode.size, seats: this.#userGame.size };
  }

  all(): GameRoom[] {
    return [...this.#rooms.values()];
  }

  get live(): GameRoom[] {
    return this.all().filter((r) => r.status !== 'finished');
  }

  /**
   * How many rooms are not finished, counted without a list: admission control asks at every new
   * game, and the list of a few thousand rooms was 1 % of the main thread at 2,000 games (bench:server).
   */
  liveCount(): number {
    let count = 0;
    for (const room of this.#rooms.values()) if (room.status !== 'finished') count += 1;
    return count;
  }

  add(room: GameRoom): void {
    this.#rooms.set(room.id, room);
    this.#byCode.set(room.roomCode, room);
  }

  /**
   * The room is gone from this node: disposed, unfindable, nobody sits in it here or (cluster mode) in
   * Redis, and no socket is left in its channel (its players stay in a finished game's channel until then).
   */
  forget(room: GameRoom): void {
    room.dispose();
    this.#remove(room);
    this.#transport()?.close(room.id);
    for (const userId of room.humanIds) this.#ownership.unseat(userId, room.id);
    this.#ownership.release(room.id);
  }

  /** Another node runs the room now: it is dropped here, and Redis (the new owner's) is left as it is. */
  drop(room: GameRoom): void {
    this.#remove(room);
  }

  /** A code no unfinished room here holds (the database refuses one an unfinished game holds elsewhere). */
  newRoomCode(): string {
    for (;;) {
      let code = '';
      for (let i = 0; i < ROOM_CODE_LENGTH; i += 1) code += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
      const existing = this.#byCode.get(code);
      if (!existing || existing.status === 'finished') return code;
    }
  }

  // ── seats ──

  /** The room the user sits in here. */
  seatOf(userId: string): GameRoom | undefined {
    return this.#userGame.get(userId);
  }

  /** Every user seated here and their game (registered in Redis again after it restarted). */
  seatings(): [userId: string, gameId: string][] {
    return [...this.#userGame].map(([userId, room]) => [userId, room.id]);
  }

  /** The user sits in this room again (a room rebuilt here); nothing else is told. */
  place(userId: string, room: GameRoom): void {
    this.#userGame.set(userId, room);
  }

  /** The user no longer sits in this room here (if they did); nothing else is told. */
  free(userId: string, room: GameRoom): void {
    if (this.#userGame.get(userId) === room) this.#userGame.delete(userId);
  }

  /** The user takes their seat: their sockets hear the room, which counts them back if they are here. */
  seat(userId: string, room: GameRoom): void {
    this.#userGame.set(userId, room);
    this.#transport()?.subscribe(userId, room.id);
    if (this.#here(userId)) void room.connect(userId).done;
    this.#ownership.seat(userId, room.id);
  }

  unseat(userId: string, room: GameRoom): void {
    this.free(userId, room);
    this.#transport()?.unsubscribe(userId, room.id);
    this.#ownership.unseat(userId, room.id);
  }

  #remove(room: GameRoom): void {
    if (this.#rooms.get(room.id) === room) this.#rooms.delete(room.id);
    if (this.#byCode.get(room.roomCode) === room) this.#byCode.delete(room.roomCode);
    for (const [userId, seated] of this.#userGame) if (seated === room) this.#userGame.delete(userId);
  }
}
