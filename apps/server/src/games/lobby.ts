/**
 * A room before the deal: its seats (the host's, the bots', those who join), ready flags, the host
 * (handed on when the host leaves), the countdown and a bot game's auto-start, and the grace a seat
 * whose user went away is kept for. Its changes go through the room's running step (`LobbyRoom`),
 * which numbers its broadcasts and writes the lobby row with the step. Past the deal (or once the
 * room has finished) its steps change nothing. No I/O of its own.
 */
import { DISCONNECT_GRACE_MS } from '@memeslam/engine';
import { BOT_AUTO_START_DELAY_MS, COUNTDOWN_DURATION_MS, type GameSetup } from '@memeslam/protocol';
import type { Clock } from '../clock.ts';
import { type RoomFacts, botInfo, gameOf, playerOf } from './present.ts';
import {
  type Outcome,
  type RoomEventName,
  type RoomPayload,
  type RematchHold,
  type RoomStatus,
  type Seat,
  type StoredLobby,
  botSeats,
  fail,
  ok,
} from './types.ts';

/** Where a lobby stands: seats being taken, or the countdown to the deal running. */
export type LobbyPhase = 'waiting' | 'starting';

/** What a lobby needs of its room. */
export interface LobbyRoom {
  /** The room's status: a lobby's steps apply only while it is 'waiting' (or 'starting'). */
  status(): RoomStatus;
  /** The room as the presentation reads it (the payloads show the whole game). */
  facts(): RoomFacts;
  /** Whether the user has a socket open. */
  isConnected(userId: string): boolean;
  /** To everyone in the room, with the running step (the lobby row is written with it). */
  emit<E extends RoomEventName>(event: E, payload: RoomPayload<E>): void;
  /** The lobby row changed without a broadcast: it is written with the running step. */
  changed(): void;
  /** The last human left before the deal. */
  closed(): void;
}

export class Lobby {
  readonly #id: string;
  readonly #roomCode: string;
  readonly #setup: GameSetup;
  readonly #clock: Clock;
  readonly #room: LobbyRoom;
  #hostId: string;
  #hostName: string;
  #seats: Seat[] = [];
  #phase: LobbyPhase = 'waiting';
  #startsAt: number | null = null;
  #autoStartAt: number | null = null;
  /** Seats whose owner is away: removed when the grace runs out. */
  readonly #away = new Map<string, number>();
  /** A rematch lobby's hold for the previous game's players (docs/privacy.md). */
  #hold: RematchHold | null;

  constructor(
    init: {
      id: string;
      roomCode: string;
      host: { id: string; username: string; addressKey?: string | null | undefined };
      setup: GameSetup;
      hold?: RematchHold | null;
    },
    clock: Clock,
    room: LobbyRoom,
  ) {
    this.#id = init.id;
    this.#roomCode = init.roomCode;
    this.#setup = init.setup;
    this.#clock = clock;
    this.#room = room;
    this.#hostId = init.host.id;
    this.#hostName = init.host.username;
    this.#hold = init.hold ?? null;
    this.#seats.push({
      playerId: init.host.id,
      username: init.host.username,
      bot: null,
      // docs/fair-play.md: the network the seat was taken from, recorded with the game.
      ...(init.host.addressKey ? { addressKey: init.host.addressKey } : {}),
      isReady: init.setup.autoStart,
    });
    this.#seats.push(...botSeats(init.setup));
  }

  /**
   * The seats as stored. A lobby not dealt yet (`downtime` given) also resumes its countdown and
   * auto-start, moved on by the time the server was down.
   */
  restore(stored: StoredLobby, downtime: number | null): void {
    this.#seats = stored.seats.map((s) => ({ ...s }));
    // The hold ends when it would have (a rematch is for the players who just played, not later).
    this.#hold = stored.hold ?? null;
    if (downtime === null || (stored.status !== 'waiting' && stored.status !== 'starting')) return;
    this.#phase = stored.status;
    this.#startsAt = stored.startsAt === null ? null : stored.startsAt + downtime;
    this.#autoStartAt = stored.autoStartAt === null ? null : stored.autoStartAt + downtime;
  }

  // ── queries ──

  get hostId(): string {
    return this.#hostId;
  }

  get hostName(): string {
    return this.#hostName;
  }

  /** Every seat in order; from the deal on, the game's players. */
  get seats(): readonly Seat[] {
    return this.#seats;
  }

  get phase(): LobbyPhase {
    return this.#phase;
  }

  /** The countdown's end, once it was started (cleared at the deal). */
  get startsAt(): number | null {
    return this.#startsAt;
  }

  get isBotGame(): boolean {
    return this.#seats.some((s) => s.bot !== null);
  }

  isMember(userId: string): boolean {
    return this.#seats.some((s) => s.playerId === userId);
  }

  /** Whether a seat here is still held from this user: a rematch lobby's first minute, for others. */
  heldFrom(userId: string): boolean {
    const hold = this.#hold;
    return hold !== null && this.#clock.now() < hold.until && !hold.userIds.includes(userId);
  }

  name(playerId: string): string {
    return this.#seats.find((s) => s.playerId === playerId)?.username ?? playerId;
  }

  /** The lobby as its row stores it (kept after the deal, for the host's name and the room's seq). */
  record(status: RoomStatus, seq: number): StoredLobby {
    return {
      hostId: this.#hostId,
      hostName: this.#hostName,
      status,
      seats: this.#seats.map((s) => ({ ...s })),
      startsAt: this.#startsAt,
      autoStartAt: this.#autoStartAt,
      seq,
      savedAt: this.#clock.now(),
      hold: this.#hold,
    };
  }

  /** When the lobby next has something to do: a grace running out, auto-start, the countdown's end. */
  deadlines(): number[] {
    const times: number[] = [...this.#away.values()];
    if (this.#autoStartAt !== null) times.push(this.#autoStartAt);
    if (this.#phase === 'starting' && this.#startsAt !== null) times.push(this.#startsAt);
    return times;
  }

  // ── changes, each within the room's running step ──

  /** A new room announces readiness (a bot game's host is ready at once) and arms auto-start. */
  open(): Outcome<null> {
    this.#awayUnlessConnected(this.#hostId);
    this.#updated();
    return ok(null);
  }

  join(user: { id: string; username: string; addressKey?: string | null | undefined }): Outcome<null> {
    if (this.isMember(user.id)) return ok(null);
    if (this.#room.status() !== 'waiting') return fail('GAME_ALREADY_STARTED');
    if (this.heldFrom(user.id)) return fail('REMATCH_HELD');
    if (this.#seats.length >= this.#setup.maxPlayers) return fail('GAME_FULL');
    const seat: Seat = {
      playerId: user.id,
      username: user.username,
      bot: null,
      ...(user.addressKey ? { addressKey: user.addressKey } : {}),
      isReady: false,
    };
    this.#seats.push(seat);
    // A seat taken without a socket (over HTTP) is kept only for the usual grace.
    this.#awayUnlessConnected(user.id);
    const facts = this.#room.facts();
    this.#room.emit('playerJoined', { player: playerOf(facts, seat, this.#seats.length - 1), game: gameOf(facts) });
    this.#updated();
    return ok(null);
  }

  setReady(userId: string, isReady: boolean): Outcome<{ isReady: boolean }> {
    const seat = this.#seats.find((s) => s.playerId === userId);
    if (!seat) return fail('NOT_IN_GAME');
    if (this.#room.status() !== 'waiting') return ok({ isReady: true });
    if (seat.isReady !== isReady) {
      seat.isReady = isReady;
      this.#room.emit('playerReadyChanged', { userId, username: seat.username, isReady, isBot: false });
      this.#updated();
    }
    return ok({ isReady });
  }

  /** Host only, at least 2 players, all ready; idempotent once the countdown runs. */
  start(userId: string): Outcome<{ status: RoomStatus }> {
    const status = this.#room.status();
    if (status !== 'waiting') return ok({ status });
    if (!this.isMember(userId)) return fail('NOT_IN_GAME');
    if (userId !== this.#hostId) return fail('NOT_HOST');
    if (this.#seats.length < 2) return fail('NOT_ENOUGH_PLAYERS');
    if (!this.#allReady()) return fail('PLAYERS_NOT_READY');
    this.#beginCountdown();
    return ok({ status: this.#phase });
  }

  /** The user is back: their seat is no longer in its grace. */
  back(userId: string): void {
    this.#away.delete(userId);
  }

  /** The user is away: their seat is kept for the usual grace. */
  away(userId: string): void {
    this.#away.set(userId, this.#clock.now() + DISCONNECT_GRACE_MS);
  }

  /** A member's last socket closed: a lobby does not wait for ever for someone who closed the tab. */
  disconnected(userId: string): void {
    if (!this.#isLobby()) return;
    this.away(userId);
    this.#room.emit('playerDisconnected', { userId, username: this.name(userId) });
  }

  /** A member leaves: the host's part passes on, a countdown short of players stops, an empty lobby closes. */
  leave(userId: string): void {
    const seat = this.#seats.find((s) => s.playerId === userId);
    if (!seat) return;
    this.#seats = this.#seats.filter((s) => s !== seat);
    this.#away.delete(userId);
    this.#room.emit('playerLeft', { userId, username: seat.username, isBot: false });
    const humans = this.#seats.filter((s) => s.bot === null);
    if (humans.length === 0) {
      this.#room.closed();
      return;
    }
    if (userId === this.#hostId) {
      const next = humans[0] as Seat;
      this.#hostId = next.playerId;
      this.#hostName = next.username;
    }
    if (this.#phase === 'starting' && this.#seats.length < 2) this.#phase = 'waiting';
    if (this.#phase !== 'starting') this.#startsAt = null;
    this.#room.emit('gameUpdated', gameOf(this.#room.facts()));
    this.#updated();
  }

  /**
   * The timer's part for the lobby: members whose grace has run out leave, and a waiting lobby's
   * auto-start, once due, begins the countdown if everyone is still ready.
   */
  due(now: number): void {
    for (const [userId, until] of [...this.#away]) {
      if (until <= now && this.#isLobby()) this.leave(userId);
    }
    if (this.#room.status() === 'waiting' && this.#autoStartAt !== null && this.#autoStartAt <= now) {
      this.#autoStartAt = null;
      this.#room.changed();
      if (this.#allReady() && this.#seats.length >= 2) this.#beginCountdown();
    }
  }

  /** Whether the countdown has run out by `now` (the room deals). */
  countdownOver(now: number): boolean {
    return this.#phase === 'starting' && this.#startsAt !== null && this.#startsAt <= now;
  }

  /** The cards are dealt: the countdown and every grace end here (the game has its own). */
  dealt(): void {
    this.#startsAt = null;
    this.#away.clear();
  }

  // ── internals ──

  #isLobby(): boolean {
    const status = this.#room.status();
    return status === 'waiting' || status === 'starting';
  }

  #allReady(): boolean {
    return this.#seats.every((s) => s.bot !== null || s.isReady);
  }

  #awayUnlessConnected(userId: string): void {
    if (!this.#room.isConnected(userId)) this.away(userId);
  }

  #updated(): void {
    if (this.#phase === 'waiting' && this.#allReady() && this.#seats.length >= 2) {
      this.#room.emit('allPlayersReady', { gameId: this.#id });
      if (this.#setup.autoStart && this.#autoStartAt === null)
        this.#autoStartAt = this.#clock.now() + BOT_AUTO_START_DELAY_MS;
    } else {
      this.#autoStartAt = null;
    }
    this.#room.changed();
  }

  #beginCountdown(): void {
    this.#phase = 'starting';
    this.#autoStartAt = null;
    this.#startsAt = this.#clock.now() + COUNTDOWN_DURATION_MS;
    const facts = this.#room.facts();
    this.#room.emit('gameStarting', {
      gameId: this.#id,
      roomCode: this.#roomCode,
      countdownDuration: COUNTDOWN_DURATION_MS,
      startsAt: this.#startsAt,
      isBotGame: this.isBotGame,
      botSettings: botInfo(facts),
      players: gameOf(facts).players,
    });
    this.#room.emit('gameStateChanged', { status: 'starting', gameStatus: 'starting' });
    this.#room.changed();
  }
}
