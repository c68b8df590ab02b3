/**
 * One game room: the lobby (seats, ready flags, host, countdown) and, once dealt, the engine's
 * state. It is the single owner of its game: every command runs to completion on it in arrival
 * order, one timer is armed at the next deadline, and the engine's events become the spec's socket
 * events through `RoomOutput`. It does no I/O of its own, so it runs the same in tests and behind
 * socket.io.
 */
import { createHash } from 'node:crypto';
import {
  BOT_DIFFICULTIES,
  type BotDifficulty,
  type Command,
  type DeadlockCheck,
  type GameEvent,
  type GameResult,
  type GameState,
  type PowerUpEffect,
  type PowerUpType,
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
  POWER_UP_EFFECT_TEXTS,
  type ServerEventName,
} from '@memeslam/protocol';
import type { Clock, Timer } from '../clock.ts';
import { botInfo, gameOf, gameStateOf, playerOf } from './present.ts';

export type RoomStatus = 'waiting' | 'starting' | 'active' | 'finished';

export interface Seat {
  /** The user's id, or `bot-{n}` for a bot. */
  readonly playerId: string;
  readonly username: string;
  readonly bot: BotDifficulty | null;
  isReady: boolean;
}

export interface RoomOutput {
  /** A new game's seed: 32 random hex characters (DESIGN §2 Fairness). */
  seed(): string;
  /** To everyone in the room, spectators included. */
  toRoom(gameId: string, event: ServerEventName, payload: object): void;
  /** To one user's sockets only (hands). */
  toUser(userId: string, event: ServerEventName, payload: object): void;
  /** The room changed: snapshot it soon. */
  changed(room: GameRoom): void;
  /** The game is over: record it. */
  finished(room: GameRoom): void;
  /** The lobby emptied before a deal: forget the room. */
  closed(room: GameRoom): void;
}

/** What an accepted command did. */
export interface Applied {
  readonly events: readonly GameEvent[];
  readonly deadlockCheck: DeadlockCheck | null;
}

export type Outcome<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: string };
const ok = <T>(data: T): Outcome<T> => ({ ok: true, data });
const fail = (error: string): Outcome<never> => ({ ok: false, error });

/** What a snapshot keeps: enough to rebuild the room after a restart. */
export interface RoomSnapshot {
  readonly id: string;
  readonly roomCode: string;
  readonly hostId: string;
  readonly hostName: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  readonly status: RoomStatus;
  readonly seats: readonly Seat[];
  readonly startsAt: number | null;
  readonly autoStartAt: number | null;
  readonly seed: string | null;
  readonly engine: GameState | null;
  readonly commands: readonly { at: number; command: Command }[];
  readonly seq: number;
  readonly clockOffset: number;
  /** Wall time of the snapshot, to resume the game clock where it stopped. */
  readonly savedAt: number;
}

const BOT_NAMES = ['Satoshi', 'Vitalik', 'Moonboy', 'Diamond', 'Degen'];

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

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
    this.#seatBots();
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

  static restore(snapshot: RoomSnapshot, clock: Clock, out: RoomOutput): GameRoom {
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

  // ── internals ──

  #seatBots(): void {
    const bots = this.setup.bots;
    if (!bots) return;
    const base = BOT_DIFFICULTIES.indexOf(bots.difficulty);
    const spread = [0, -1, 1, -2, 2];
    for (let k = 0; k < bots.numberOfBots; k += 1) {
      const index = bots.mixedDifficulties
        ? Math.min(BOT_DIFFICULTIES.length - 1, Math.max(0, base + (spread[k] ?? 0)))
        : base;
      this.seats.push({
        playerId: `bot-${k + 1}`,
        username: bots.personalities[k] ?? BOT_NAMES[k % BOT_NAMES.length] ?? `Bot ${k + 1}`,
        bot: BOT_DIFFICULTIES[index] as BotDifficulty,
        isReady: true,
      });
    }
  }

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
    if (events.length === 0 || !this.engine) return;
    const state = this.engine;
    const gameState = gameStateOf(this, state);
    const seat = (id: string) => this.seats.find((s) => s.playerId === id);
    const hands = new Set<string>();
    const now = this.#clock.now();
    for (const event of events) {
      switch (event.type) {
        case 'cardPlayed': {
          const s = seat(event.playerId);
          if (s?.bot) this.botActivity.set(s.playerId, now);
          this.#emit('cardPlayed', {
            playerId: event.playerId,
            username: this.#name(event.playerId),
            cardId: event.card.id,
            card: event.card,
            pileIndex: event.pileIndex,
            isBot: s?.bot != null,
            difficulty: s?.bot ?? null,
            gameState,
          });
          break;
        }
        case 'handChanged':
          hands.add(event.playerId);
          break;
        case 'powerUpUsed': {
          const s = seat(event.playerId);
          if (s?.bot) this.botActivity.set(s.playerId, now);
          const type: PowerUpType = event.effect.powerUpType;
          this.#emit('powerUpUsed', {
            playerId: event.playerId,
            username: this.#name(event.playerId),
            powerUpType: type,
            effect: POWER_UP_EFFECT_TEXTS[type],
            data: event.effect satisfies PowerUpEffect,
            gameState,
            isBot: s?.bot != null,
          });
          break;
        }
        case 'playerFrozen':
          this.#emit('playerFrozen', {
            playerId: event.playerId,
            playerName: this.#name(event.playerId),
            frozenBy: this.#name(event.frozenBy),
            frozenById: event.frozenBy,
            frozenByBot: seat(event.frozenBy)?.bot != null,
            duration: event.duration,
          });
          break;
        case 'playerUnfrozen':
          this.#emit('playerUnfrozen', { playerId: event.playerId, playerName: this.#name(event.playerId) });
          break;
        case 'deadlockDetected':
          break;
        case 'deadlockResolved':
          this.#emit('deadlockResolved', {
            newDiscardPiles: gameState.discardPiles,
            gameState,
            automatic: event.mode === 'automatic',
            manual: event.mode === 'manual',
            forced: event.mode === 'forced',
            cardsFlipped: event.cardsFlipped,
          });
          break;
        case 'deadlockUnresolvable':
          this.#emit('deadlockUnresolvable', {
            reason: event.reason,
            consecutiveDeadlocks: event.consecutiveDeadlocks,
          });
          break;
        case 'playerDisconnected':
          this.#emit('playerDisconnected', { userId: event.playerId, username: this.#name(event.playerId) });
          break;
        case 'playerReconnected':
          this.#emit('playerReconnected', { userId: event.playerId, username: this.#name(event.playerId) });
          break;
        case 'playerLeft':
          this.#emit('playerLeft', {
            userId: event.playerId,
            username: this.#name(event.playerId),
            isBot: seat(event.playerId)?.bot != null,
          });
          break;
        case 'gameEnded':
          this.#emit('gameEnded', this.#endPayload(event.result, gameState));
          this.#emit('gameStateChanged', { status: 'finished', gameStatus: 'finished' });
          break;
      }
    }
    for (const playerId of hands) if (seat(playerId)?.bot === null) this.#sendHand(playerId, 'handUpdated');
  }

  #endPayload(result: GameResult, gameState: ReturnType<typeof gameStateOf>) {
    return {
      gameId: this.id,
      winner: gameState.winner,
      duration: Math.round(result.durationMs / 1000),
      durationMs: result.durationMs,
      results: result.ranking,
      seed: this.seed as string,
      reason: result.reason,
      gameState,
    };
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
