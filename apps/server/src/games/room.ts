/**
 * One game room: the lobby (seats, ready flags, host, countdown) and, once dealt, the engine's
 * state. It is the single owner of its game: every command runs to completion on it in arrival
 * order, one timer is armed at the next deadline, and the engine's events become the spec's socket
 * events through `RoomOutput`. It does no I/O of its own, so it runs the same in tests and behind
 * socket.io.
 */
import {
  type Command,
  type GameEvent,
  type GameState,
  DISCONNECT_GRACE_MS,
  advance,
  apply,
  createGame,
  handView,
  nextDeadline,
} from '@memeslam/engine';
import {
  BOT_AUTO_START_DELAY_MS,
  COUNTDOWN_DURATION_MS,
  type GameSetup,
  LOBBY_TEXTS,
  type ServerEventName,
} from '@memeslam/protocol';
import type { Clock, Timer } from '../clock.ts';
import { socketEventsFor } from './events.ts';
import {
  type Applied,
  type Outcome,
  type RoomOutput,
  type RoomSnapshot,
  type RoomStatus,
  type Seat,
  botSeats,
  sha256Hex,
} from './types.ts';
import { botInfo, gameOf, gameStateOf, playerOf } from './present.ts';

const ok = <T>(data: T): Outcome<T> => ({ ok: true, data });
const fail = (error: string): Outcome<never> => ({ ok: false, error });

export class GameRoom {
  readonly id: string;
  readonly roomCode: string;
  hostId: string;
  hostName: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  status: RoomStatus = 'waiting';
  seats: Seat[] = [];
  startsAt: number | null = null;
  autoStartAt: number | null = null;
  seed: string | null = null;
  engine: GameState | null = null;
  commands: { at: number; command: Command }[] = [];
  seq = 0;
  /** Game clock = wall clock − offset; a restored game resumes its clock where the snapshot left it. */
  clockOffset = 0;
  /** Wall time each bot last acted, for the bot-status call. */
  readonly botActivity = new Map<string, number>();
  readonly #clock: Clock;
  readonly #out: RoomOutput;
  /** Users with a socket open; a seat whose user is not here is disconnected. */
  readonly #connected = new Set<string>();
  /** Lobby seats whose owner went away: removed when the grace runs out. */
  readonly #lobbyDisconnects = new Map<string, number>();
  #timer: Timer | null = null;

  constructor(
    init: { id: string; roomCode: string; host: { id: string; username: string }; setup: GameSetup; createdAt: number },
    clock: Clock,
    out: RoomOutput,
  ) {
    this.id = init.id;
    this.roomCode = init.roomCode;
    this.hostId = init.host.id;
    this.hostName = init.host.username;
    this.setup = init.setup;
    this.createdAt = init.createdAt;
    this.#clock = clock;
    this.#out = out;
    this.seats.push({ playerId: init.host.id, username: init.host.username, bot: null, isReady: init.setup.autoStart });
    this.seats.push(...botSeats(init.setup));
  }

  // ── queries ──

  get gameNow(): number {
    return this.#clock.now() - this.clockOffset;
  }

  isMember(userId: string): boolean {
    return this.seats.some((s) => s.playerId === userId);
  }

  isOpen(): boolean {
    return this.status === 'waiting' && this.seats.length < this.setup.maxPlayers;
  }

  isConnected(userId: string): boolean {
    return this.#connected.has(userId);
  }

  get isBotGame(): boolean {
    return this.seats.some((s) => s.bot !== null);
  }

  game(viewerId?: string) {
    return gameOf(this, viewerId);
  }

  /** The hand, view and seq a member needs to (re)draw the game; null for non-members or before the deal. */
  handFor(userId: string) {
    if (!this.engine) return null;
    const hand = handView(this.engine, userId);
    if (!hand) return null;
    const wall = (t: number | null) => (t === null ? null : t + this.clockOffset);
    return { ...hand, frozenUntil: wall(hand.frozenUntil), stuckSince: wall(hand.stuckSince), seq: this.seq };
  }

  // ── lobby ──

  /** A new room announces readiness (a bot game's host is ready at once) and arms auto-start. */
  open(): void {
    this.#lobbyChanged();
  }

  join(user: { id: string; username: string }): Outcome<null> {
    if (this.isMember(user.id)) return ok(null);
    if (this.status !== 'waiting') return fail(LOBBY_TEXTS.gameAlreadyStarted);
    if (this.seats.length >= this.setup.maxPlayers) return fail(LOBBY_TEXTS.gameFull);
    const seat: Seat = { playerId: user.id, username: user.username, bot: null, isReady: false };
    this.seats.push(seat);
    this.#emit('playerJoined', { player: playerOf(this, seat, this.seats.length - 1), game: this.game() });
    this.#lobbyChanged();
    return ok(null);
  }

  setReady(userId: string, isReady: boolean): Outcome<{ isReady: boolean }> {
    const seat = this.seats.find((s) => s.playerId === userId);
    if (!seat) return fail(LOBBY_TEXTS.notInGame);
    if (this.status !== 'waiting') return ok({ isReady: true });
    if (seat.isReady !== isReady) {
      seat.isReady = isReady;
      this.#emit('playerReadyChanged', { userId, username: seat.username, isReady, isBot: false });
      this.#lobbyChanged();
    }
    return ok({ isReady });
  }

  /** Host only, at least 2 players, all ready; idempotent once the countdown runs. */
  start(userId: string): Outcome<{ status: RoomStatus }> {
    if (this.status !== 'waiting') return ok({ status: this.status });
    if (!this.isMember(userId)) return fail(LOBBY_TEXTS.notInGame);
    if (userId !== this.hostId) return fail(LOBBY_TEXTS.onlyHostCanStart);
    if (this.seats.length < 2) return fail(LOBBY_TEXTS.notEnoughPlayers);
    if (!this.#allReady()) return fail(LOBBY_TEXTS.allPlayersMustBeReady);
    this.#beginCountdown();
    return ok({ status: this.status });
  }

  // ── connections ──

  /** The user now has a socket open (the service counts them; this sees only the change). */
  connect(userId: string): void {
    if (this.#connected.has(userId)) return;
    this.#connected.add(userId);
    if (!this.isMember(userId)) return;
    this.#lobbyDisconnects.delete(userId);
    if (this.status === 'active') this.#command({ type: 'reconnect', playerId: userId });
    this.#rearm();
  }

  /** The user's last socket closed. */
  disconnect(userId: string): void {
    if (!this.#connected.delete(userId) || !this.isMember(userId)) return;
    if (this.status === 'active') {
      this.#command({ type: 'disconnect', playerId: userId });
    } else if (this.status === 'waiting' || this.status === 'starting') {
      // A lobby does not wait for ever for someone who closed the tab.
      this.#lobbyDisconnects.set(userId, this.#clock.now() + DISCONNECT_GRACE_MS);
      this.#emit('playerDisconnected', { userId, username: this.#name(userId) });
    }
    this.#rearm();
  }

  /** leaveGame / stopAllBots: out of the lobby, or a forfeit of a game in play. */
  leave(userId: string): Outcome<null> {
    const seat = this.seats.find((s) => s.playerId === userId);
    if (!seat) return fail(LOBBY_TEXTS.notInGame);
    if (this.status === 'active') {
      const result = this.#command({ type: 'leave', playerId: userId });
      return result.ok ? ok(null) : fail(result.error);
    }
    if (this.status === 'finished') return ok(null);
    this.seats = this.seats.filter((s) => s !== seat);
    this.#lobbyDisconnects.delete(userId);
    this.#emit('playerLeft', { userId, username: seat.username, isBot: false });
    const humans = this.seats.filter((s) => s.bot === null);
    if (humans.length === 0) {
      this.status = 'finished';
      this.#cancelTimer();
      this.#out.closed(this);
      return ok(null);
    }
    if (userId === this.hostId) {
      const next = humans[0] as Seat;
      this.hostId = next.playerId;
      this.hostName = next.username;
    }
    if (this.status === 'starting' && this.seats.length < 2) this.status = 'waiting';
    this.startsAt = this.status === 'starting' ? this.startsAt : null;
    this.#emit('gameUpdated', this.game());
    this.#lobbyChanged();
    return ok(null);
  }

  // ── play ──

  /** A player's game command, checked by the engine against the state it meets. */
  play(userId: string, command: Command): Outcome<Applied> {
    if (!this.isMember(userId)) return fail(LOBBY_TEXTS.notInGame);
    if (this.status !== 'active' || !this.engine) return fail('Game not active');
    return this.#command(command);
  }

  /** Runs what is due: countdown end, auto-start, lobby disconnects, and the engine's deadlines. */
  tick(): void {
    this.#timer = null;
    const now = this.#clock.now();
    for (const [userId, until] of [...this.#lobbyDisconnects]) {
      if (until <= now && this.status !== 'active' && this.status !== 'finished') this.leave(userId);
    }
    if (this.status === 'waiting' && this.autoStartAt !== null && this.autoStartAt <= now) {
      this.autoStartAt = null;
      if (this.#allReady() && this.seats.length >= 2) this.#beginCountdown();
    }
    if (this.status === 'starting' && this.startsAt !== null && this.startsAt <= now) this.#deal();
    if (this.status === 'active' && this.engine) {
      const { state, events } = advance(this.engine, this.gameNow);
      this.#commit(state, events);
    }
    this.#rearm();
  }

  /** After a restore: timers are armed again and every human counts as away until they reconnect. */
  resume(): void {
    if (this.status === 'active' && this.engine) {
      for (const seat of this.seats) {
        if (seat.bot === null && !this.isConnected(seat.playerId)) {
          this.#command({ type: 'disconnect', playerId: seat.playerId });
        }
      }
    } else if (this.status === 'waiting' || this.status === 'starting') {
      for (const seat of this.seats) {
        if (seat.bot === null && !this.isConnected(seat.playerId)) {
          this.#lobbyDisconnects.set(seat.playerId, this.#clock.now() + DISCONNECT_GRACE_MS);
        }
      }
    }
    this.#rearm();
  }

  dispose(): void {
    this.#cancelTimer();
  }

  snapshot(): RoomSnapshot {
    return {
      id: this.id,
      roomCode: this.roomCode,
      hostId: this.hostId,
      hostName: this.hostName,
      setup: this.setup,
      createdAt: this.createdAt,
      status: this.status,
      seats: this.seats.map((s) => ({ ...s })),
      startsAt: this.startsAt,
      autoStartAt: this.autoStartAt,
      seed: this.seed,
      engine: this.engine,
      commands: this.commands,
      seq: this.seq,
      clockOffset: this.clockOffset,
      savedAt: this.#clock.now(),
    };
  }

  // ── internals ──

  #allReady(): boolean {
    return this.seats.every((s) => s.bot !== null || s.isReady);
  }

  #name(playerId: string): string {
    return this.seats.find((s) => s.playerId === playerId)?.username ?? playerId;
  }

  #lobbyChanged(): void {
    if (this.status === 'waiting' && this.#allReady() && this.seats.length >= 2) {
      this.#emit('allPlayersReady', { gameId: this.id });
      if (this.setup.autoStart && this.autoStartAt === null)
        this.autoStartAt = this.#clock.now() + BOT_AUTO_START_DELAY_MS;
    } else {
      this.autoStartAt = null;
    }
    this.#out.changed(this);
    this.#rearm();
  }

  #beginCountdown(): void {
    this.status = 'starting';
    this.autoStartAt = null;
    this.startsAt = this.#clock.now() + COUNTDOWN_DURATION_MS;
    this.#emit('gameStarting', {
      gameId: this.id,
      roomCode: this.roomCode,
      countdownDuration: COUNTDOWN_DURATION_MS,
      startsAt: this.startsAt,
      isBotGame: this.isBotGame,
      botSettings: botInfo(this),
      players: this.game().players,
    });
    this.#emit('gameStateChanged', { status: 'starting', gameStatus: 'starting' });
    this.#out.changed(this);
    this.#rearm();
  }

  #deal(): void {
    this.seed = this.#out.seed();
    this.clockOffset = 0;
    this.engine = createGame({
      seed: this.seed,
      seats: this.seats.map((s) => ({ id: s.playerId, username: s.username, bot: s.bot })),
      cardsPerPlayer: this.setup.cardsPerPlayer,
      speed: this.setup.gameSpeed,
      startAt: this.gameNow,
    });
    this.status = 'active';
    this.startsAt = null;
    const gameState = gameStateOf(this, this.engine);
    this.#emit('gameStarted', {
      gameId: this.id,
      roomCode: this.roomCode,
      gameState,
      players: this.game().players,
      seedCommitment: sha256Hex(this.seed),
      isBotGame: this.isBotGame,
      botSettings: botInfo(this),
    });
    this.#emit('gameStateChanged', { status: 'active', gameStatus: 'active' });
    for (const seat of this.seats) {
      if (seat.bot === null) this.#sendHand(seat.playerId, 'handDealt');
      // Someone who went away during the countdown starts the game disconnected.
      if (seat.bot === null && !this.isConnected(seat.playerId)) {
        this.#command({ type: 'disconnect', playerId: seat.playerId });
      }
    }
    this.#lobbyDisconnects.clear();
    this.#out.changed(this);
  }

  /** Advances to now, applies the command, broadcasts what happened. */
  #command(command: Command): Outcome<Applied> {
    if (!this.engine) return fail('Game not active');
    const now = this.gameNow;
    const due = advance(this.engine, now);
    this.#commit(due.state, due.events);
    if (this.status !== 'active' || !this.engine) return fail('Game not active');
    const result = apply(this.engine, command, now);
    if (!result.ok) return fail(result.error.message);
    this.commands.push({ at: now, command });
    this.#commit(result.state, result.events);
    this.#rearm();
    return ok({ events: result.events, deadlockCheck: result.deadlockCheck ?? null });
  }

  #commit(state: GameState, events: readonly GameEvent[]): void {
    if (state === this.engine && events.length === 0) return;
    this.engine = state;
    this.#broadcast(events);
    this.#out.changed(this);
    if (state.status === 'finished' && this.status !== 'finished') {
      this.status = 'finished';
      this.#cancelTimer();
      this.#out.finished(this);
    }
  }

  /** The engine's events as the spec's socket events; changed hands go to their owners once. */
  #broadcast(events: readonly GameEvent[]): void {
    if (events.length === 0 || !this.engine || this.seed === null) return;
    const out = socketEventsFor(events, {
      gameId: this.id,
      seed: this.seed,
      seats: this.seats,
      gameState: gameStateOf(this, this.engine),
    });
    const now = this.#clock.now();
    for (const botId of out.botsActed) this.botActivity.set(botId, now);
    for (const { event, payload } of out.broadcasts) this.#emit(event, payload);
    for (const playerId of out.hands) this.#sendHand(playerId, 'handUpdated');
  }

  #sendHand(userId: string, event: 'handDealt' | 'handUpdated'): void {
    const hand = this.handFor(userId);
    if (hand) this.#out.toUser(userId, event, hand);
  }

  #emit(event: ServerEventName, payload: object): void {
    this.seq += 1;
    this.#out.toRoom(this.id, event, { ...payload, seq: this.seq });
  }

  #nextWallDeadline(): number | null {
    const times: number[] = [...this.#lobbyDisconnects.values()];
    if (this.autoStartAt !== null) times.push(this.autoStartAt);
    if (this.status === 'starting' && this.startsAt !== null) times.push(this.startsAt);
    if (this.status === 'active' && this.engine) {
      const due = nextDeadline(this.engine);
      if (due !== null) times.push(due + this.clockOffset);
    }
    return times.length > 0 ? Math.min(...times) : null;
  }

  #rearm(): void {
    this.#cancelTimer();
    if (this.status === 'finished') return;
    const at = this.#nextWallDeadline();
    if (at !== null) this.#timer = this.#clock.at(at, () => this.tick());
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }
}
