/**
 * One game room: the lobby (seats, ready flags, host, countdown) and, once dealt, the engine's
 * state. Its state is private; the game service is its only caller. Every call is one step that runs
 * to completion in arrival order: the step changes the state, records what must be durable (the
 * lobby row, or the command-log entries of the game in play) and queues its broadcasts. The
 * broadcasts leave, in order, only once the step's writes are durable; the caller's answer waits for
 * the same moment (`Step.done`). A step that throws stops the room: the game is aborted and its
 * players told, and nothing else is touched. The room does no I/O of its own.
 */
import {
  type Command,
  type GameEvent,
  type GameResult,
  type GameState,
  DISCONNECT_GRACE_MS,
  handView,
} from '@memeslam/engine';
import {
  BOT_AUTO_START_DELAY_MS,
  COUNTDOWN_DURATION_MS,
  GAME_TEXTS,
  type GameSetup,
  LOBBY_TEXTS,
  type ServerEventName,
} from '@memeslam/protocol';
import type { Timer } from '../clock.ts';
import { socketEventsFor } from './events.ts';
import { abortedState, replayLog } from './game-log-replay.ts';
import { StepBuffer } from './step-buffer.ts';
import { type RoomFacts, botInfo, gameOf, gameStateOf, playerOf } from './present.ts';
import {
  type FinishedGame,
  type LogEntry,
  type Outcome,
  type RoomDeps,
  type RoomStatus,
  type Seat,
  type StoredGame,
  botSeats,
  fail,
  ok,
  sha256Hex,
} from './types.ts';

/** What an accepted game command did. */
export interface Applied {
  readonly events: readonly GameEvent[];
  readonly deadlockCheck: { deadlockDetected: boolean; resolved: boolean } | null;
}

/** One step's answer, and the moment its writes are durable and its broadcasts have left. */
export interface Step<T> {
  readonly outcome: Outcome<T>;
  readonly done: Promise<void>;
}

export class GameRoom {
  readonly id: string;
  readonly roomCode: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  #hostId: string;
  #hostName: string;
  #status: RoomStatus = 'waiting';
  #seats: Seat[] = [];
  #startsAt: number | null = null;
  #autoStartAt: number | null = null;
  #seed: string | null = null;
  #engine: GameState | null = null;
  #commands: { at: number; command: Command }[] = [];
  #seq = 0;
  /** Game clock = wall clock − offset; a restored game resumes its clock where its log stopped. */
  #clockOffset = 0;
  /** Entries in the game's log so far. */
  #logLength = 0;
  /** Wall time each bot last acted, for the bot-status call. */
  readonly #botActivity = new Map<string, number>();
  readonly #deps: RoomDeps;
  /** Users with a socket open; a seat whose user is not here is disconnected. */
  readonly #connected = new Set<string>();
  /** Lobby seats whose owner is away: removed when the grace runs out. */
  readonly #lobbyDisconnects = new Map<string, number>();
  #timer: Timer | null = null;
  /** The room threw: it takes no more steps. */
  #failed = false;
  readonly #steps: StepBuffer;
  /** The running step changed the lobby: its row is written with the step. */
  #lobbyChanged = false;

  constructor(
    init: { id: string; roomCode: string; host: { id: string; username: string }; setup: GameSetup; createdAt: number },
    deps: RoomDeps,
  ) {
    this.id = init.id;
    this.roomCode = init.roomCode;
    this.#hostId = init.host.id;
    this.#hostName = init.host.username;
    this.setup = init.setup;
    this.createdAt = init.createdAt;
    this.#deps = deps;
    this.#steps = new StepBuffer((write) => deps.persist(init.id, write));
    this.#seats.push({
      playerId: init.host.id,
      username: init.host.username,
      bot: null,
      isReady: init.setup.autoStart,
    });
    this.#seats.push(...botSeats(init.setup));
  }

  /**
   * A room rebuilt from its stored row and log: the lobby as it was written, or the game replayed
   * command by command through the engine. Throws when the log does not replay (the caller sets the
   * game aside). Call `resume()` next.
   */
  static restore(stored: StoredGame, deps: RoomDeps): GameRoom {
    const { lobby, header } = stored;
    const room = new GameRoom(
      {
        id: stored.id,
        roomCode: stored.roomCode,
        host: { id: lobby.hostId, username: lobby.hostName },
        setup: stored.setup,
        createdAt: stored.createdAt,
      },
      deps,
    );
    const now = deps.clock.now();
    room.#seats = lobby.seats.map((s) => ({ ...s }));
    room.#seq = lobby.seq;
    room.#status = lobby.status;
    if (!header) {
      if (lobby.status === 'active' || lobby.status === 'finished') throw new Error('a dealt game has no header');
      const downtime = Math.max(0, now - lobby.savedAt);
      room.#startsAt = lobby.startsAt === null ? null : lobby.startsAt + downtime;
      room.#autoStartAt = lobby.autoStartAt === null ? null : lobby.autoStartAt + downtime;
      return room;
    }
    const replayed = replayLog(header, stored.entries, deps.rules);
    const state = replayed.state;
    room.#commands = replayed.commands;
    room.#logLength = replayed.length;
    room.#seq = Math.max(room.#seq, replayed.seq);
    room.#seed = header.config.seed;
    room.#engine = state;
    room.#status = state.status === 'finished' ? 'finished' : 'active';
    // The game clock stood still while the server was down: play resumes where the log left it.
    room.#clockOffset = now - replayed.lastAt;
    return room;
  }

  // ── queries ──

  get status(): RoomStatus {
    return this.#status;
  }

  get seq(): number {
    return this.#seq;
  }

  /** The room threw and was stopped. */
  get failed(): boolean {
    return this.#failed;
  }

  get hostId(): string {
    return this.#hostId;
  }

  get isBotGame(): boolean {
    return this.#seats.some((s) => s.bot !== null);
  }

  /** The humans seated here. */
  get humanIds(): string[] {
    return this.#seats.flatMap((s) => (s.bot === null ? [s.playerId] : []));
  }

  isMember(userId: string): boolean {
    return this.#seats.some((s) => s.playerId === userId);
  }

  isOpen(): boolean {
    return this.#status === 'waiting' && this.#seats.length < this.setup.maxPlayers;
  }

  game(viewerId?: string) {
    return gameOf(this.#facts(), viewerId);
  }

  /** The hand, view and seq a member needs to (re)draw the game; null for non-members or before the deal. */
  handFor(userId: string) {
    if (!this.#engine) return null;
    const hand = handView(this.#engine, userId);
    if (!hand) return null;
    const wall = (t: number | null) => (t === null ? null : t + this.#clockOffset);
    return { ...hand, frozenUntil: wall(hand.frozenUntil), stuckSince: wall(hand.stuckSince), seq: this.#seq };
  }

  /** Each bot, its cards left, and whether it acted within the last `activeWithinMs` of this room's clock. */
  botStatus(activeWithinMs: number) {
    const now = this.#deps.clock.now();
    return this.#seats.flatMap((s) => {
      if (s.bot === null) return [];
      const engine = this.#engine?.players.find((p) => p.id === s.playerId);
      return [
        {
          userId: s.playerId,
          username: s.username,
          difficulty: s.bot,
          cardsLeft: engine ? engine.hand.length + engine.deck.length : this.setup.cardsPerPlayer,
          isActive: now - (this.#botActivity.get(s.playerId) ?? Number.NEGATIVE_INFINITY) <= activeWithinMs,
        },
      ];
    });
  }

  /** What the record of a finished game needs; null before the end. */
  finishedGame(): FinishedGame | null {
    const state = this.#engine;
    if (!state?.result || this.#seed === null) return null;
    return {
      id: this.id,
      seed: this.#seed,
      state,
      seats: this.#seats,
      commands: this.#commands,
      clockOffset: this.#clockOffset,
      isBotGame: this.isBotGame,
    };
  }

  // ── steps ──

  /** A new room announces readiness (a bot game's host is ready at once) and arms auto-start. */
  open(): Step<null> {
    return this.#run(() => {
      this.#awayUnlessConnected(this.#hostId);
      this.#lobbyUpdated();
      return ok(null);
    });
  }

  join(user: { id: string; username: string }): Step<null> {
    return this.#run(() => {
      if (this.isMember(user.id)) return ok(null);
      if (this.#status !== 'waiting') return fail(LOBBY_TEXTS.gameAlreadyStarted);
      if (this.#seats.length >= this.setup.maxPlayers) return fail(LOBBY_TEXTS.gameFull);
      const seat: Seat = { playerId: user.id, username: user.username, bot: null, isReady: false };
      this.#seats.push(seat);
      // A seat taken without a socket (over HTTP) is kept only for the usual grace.
      this.#awayUnlessConnected(user.id);
      this.#emit('playerJoined', { player: playerOf(this.#facts(), seat, this.#seats.length - 1), game: this.game() });
      this.#lobbyUpdated();
      return ok(null);
    });
  }

  setReady(userId: string, isReady: boolean): Step<{ isReady: boolean }> {
    return this.#run(() => {
      const seat = this.#seats.find((s) => s.playerId === userId);
      if (!seat) return fail(LOBBY_TEXTS.notInGame);
      if (this.#status !== 'waiting') return ok({ isReady: true });
      if (seat.isReady !== isReady) {
        seat.isReady = isReady;
        this.#emit('playerReadyChanged', { userId, username: seat.username, isReady, isBot: false });
        this.#lobbyUpdated();
      }
      return ok({ isReady });
    });
  }

  /** Host only, at least 2 players, all ready; idempotent once the countdown runs. */
  start(userId: string): Step<{ status: RoomStatus }> {
    return this.#run(() => {
      if (this.#status !== 'waiting') return ok({ status: this.#status as RoomStatus });
      if (!this.isMember(userId)) return fail(LOBBY_TEXTS.notInGame);
      if (userId !== this.#hostId) return fail(LOBBY_TEXTS.onlyHostCanStart);
      if (this.#seats.length < 2) return fail(LOBBY_TEXTS.notEnoughPlayers);
      if (!this.#allReady()) return fail(LOBBY_TEXTS.allPlayersMustBeReady);
      this.#beginCountdown();
      return ok({ status: this.#status as RoomStatus });
    });
  }

  /** The user now has a socket open (the service counts them; this sees only the change). */
  connect(userId: string): Step<null> {
    return this.#run(() => {
      if (this.#connected.has(userId)) return ok(null);
      this.#connected.add(userId);
      if (!this.isMember(userId)) return ok(null);
      this.#lobbyDisconnects.delete(userId);
      if (this.#status === 'active') this.#command({ type: 'reconnect', playerId: userId });
      return ok(null);
    });
  }

  /** The user's last socket closed. */
  disconnect(userId: string): Step<null> {
    return this.#run(() => {
      if (!this.#connected.delete(userId) || !this.isMember(userId)) return ok(null);
      if (this.#status === 'active') {
        this.#command({ type: 'disconnect', playerId: userId });
      } else if (this.#status === 'waiting' || this.#status === 'starting') {
        // A lobby does not wait for ever for someone who closed the tab.
        this.#lobbyDisconnects.set(userId, this.#deps.clock.now() + DISCONNECT_GRACE_MS);
        this.#emit('playerDisconnected', { userId, username: this.#name(userId) });
      }
      return ok(null);
    });
  }

  /** leaveGame / stopAllBots: out of the lobby, or a forfeit of a game in play. */
  leave(userId: string): Step<null> {
    return this.#run(() => this.#leave(userId));
  }

  /** A player's game command, checked by the engine against the state it meets. */
  play(userId: string, command: Command): Step<Applied> {
    return this.#run(() => {
      if (!this.isMember(userId)) return fail(LOBBY_TEXTS.notInGame);
      if (this.#status !== 'active' || !this.#engine) return fail(GAME_TEXTS.gameNotActive);
      return this.#command(command);
    });
  }

  /** After a restore: timers are armed again and every human counts as away until they reconnect. */
  resume(): Step<null> {
    return this.#run(() => {
      if (this.#status === 'finished') {
        this.#steps.send(() => this.#deps.finished(this.id));
        return ok(null);
      }
      for (const seat of this.#seats) {
        if (seat.bot !== null || this.#connected.has(seat.playerId)) continue;
        if (this.#status === 'active') this.#command({ type: 'disconnect', playerId: seat.playerId });
        else this.#lobbyDisconnects.set(seat.playerId, this.#deps.clock.now() + DISCONNECT_GRACE_MS);
      }
      return ok(null);
    });
  }

  /** Stops the timer; the room takes no more timed steps. */
  dispose(): void {
    this.#cancelTimer();
  }

  /** Every step so far is durable and delivered. */
  settled(): Promise<void> {
    return this.#steps.settled;
  }

  /** Stops the room from outside (its writes could not be made durable): the game is aborted. */
  abort(error: unknown): void {
    if (!this.#failed) this.#fail(error);
  }

  // ── the step machinery ──

  #run<T>(action: () => Outcome<T>): Step<T> {
    if (this.#failed) return { outcome: fail(GAME_TEXTS.gameStopped), done: this.#steps.settled };
    let outcome: Outcome<T>;
    try {
      outcome = action();
      this.#rearm();
    } catch (error) {
      this.#fail(error);
      return { outcome: fail(GAME_TEXTS.gameStopped), done: this.#steps.settled };
    }
    return { outcome, done: this.#seal() };
  }

  /** Hands the step's writes to storage and queues its broadcasts behind them. */
  #seal(): Promise<void> {
    if (this.#lobbyChanged) {
      this.#steps.row({ status: this.#status, lobby: this.#lobbyRecord() });
      this.#lobbyChanged = false;
    }
    return this.#steps.seal((sends) => {
      if (!this.#failed) this.#deliver(sends);
    });
  }

  #deliver(outbox: readonly (() => void)[]): void {
    for (const send of outbox) {
      try {
        send();
      } catch (error) {
        this.#fail(error);
        return;
      }
    }
  }

  /** The room threw: stop it, tell its players, and let the service record the game as aborted. */
  #fail(error: unknown): void {
    this.#failed = true;
    this.#cancelTimer();
    this.#steps.discard();
    this.#lobbyChanged = false;
    const wasPlaying = this.#status === 'active' || this.#status === 'finished';
    this.#status = 'finished';
    let ended: object | null = null;
    if (wasPlaying && this.#engine && this.#seed !== null && !this.#engine.result) {
      try {
        this.#engine = abortedState(this.#engine);
        const result = this.#engine.result as GameResult;
        ended = socketEventsFor([{ type: 'gameEnded', result }], this.#mapping()).broadcasts[0]?.payload ?? null;
      } catch {
        ended = null;
      }
    }
    const { toRoom } = this.#deps;
    this.#steps.after(() => {
      this.#seq += 1;
      toRoom(this.id, 'gameError', { message: GAME_TEXTS.gameStopped, seq: this.#seq });
      if (ended) {
        this.#seq += 1;
        toRoom(this.id, 'gameEnded', { ...ended, seq: this.#seq });
      }
    });
    this.#deps.failed(this.id, error);
  }

  // ── internals ──

  #facts(): RoomFacts {
    return {
      id: this.id,
      roomCode: this.roomCode,
      hostId: this.#hostId,
      hostName: this.#hostName,
      setup: this.setup,
      createdAt: this.createdAt,
      status: this.#status,
      seats: this.#seats,
      startsAt: this.#status === 'starting' ? this.#startsAt : null,
      engine: this.#engine,
      clockOffset: this.#clockOffset,
      isOpen: this.isOpen(),
      isConnected: (userId) => this.#connected.has(userId),
    };
  }

  #lobbyRecord() {
    return {
      hostId: this.#hostId,
      hostName: this.#hostName,
      status: this.#status,
      seats: this.#seats.map((s) => ({ ...s })),
      startsAt: this.#startsAt,
      autoStartAt: this.#autoStartAt,
      seq: this.#seq,
      savedAt: this.#deps.clock.now(),
    };
  }

  get #gameNow(): number {
    return this.#deps.clock.now() - this.#clockOffset;
  }

  #allReady(): boolean {
    return this.#seats.every((s) => s.bot !== null || s.isReady);
  }

  #name(playerId: string): string {
    return this.#seats.find((s) => s.playerId === playerId)?.username ?? playerId;
  }

  #awayUnlessConnected(userId: string): void {
    if (!this.#connected.has(userId)) {
      this.#lobbyDisconnects.set(userId, this.#deps.clock.now() + DISCONNECT_GRACE_MS);
    }
  }

  #leave(userId: string): Outcome<null> {
    const seat = this.#seats.find((s) => s.playerId === userId);
    if (!seat) return fail(LOBBY_TEXTS.notInGame);
    if (this.#status === 'active') {
      const result = this.#command({ type: 'leave', playerId: userId });
      return result.ok ? ok(null) : fail(result.error);
    }
    if (this.#status === 'finished') return ok(null);
    this.#seats = this.#seats.filter((s) => s !== seat);
    this.#lobbyDisconnects.delete(userId);
    this.#emit('playerLeft', { userId, username: seat.username, isBot: false });
    const humans = this.#seats.filter((s) => s.bot === null);
    if (humans.length === 0) {
      this.#close();
      return ok(null);
    }
    if (userId === this.#hostId) {
      const next = humans[0] as Seat;
      this.#hostId = next.playerId;
      this.#hostName = next.username;
    }
    if (this.#status === 'starting' && this.#seats.length < 2) this.#status = 'waiting';
    if (this.#status !== 'starting') this.#startsAt = null;
    this.#emit('gameUpdated', this.game());
    this.#lobbyUpdated();
    return ok(null);
  }

  /** A lobby nobody will play in: kept as an aborted game of nobody. */
  #close(): void {
    this.#status = 'finished';
    this.#lobbyChanged = false;
    const now = this.#deps.clock.now();
    this.#steps.row({ status: 'finished', endReason: 'aborted', finishedAt: now });
    this.#steps.send(() => this.#deps.closed(this.id));
  }

  #lobbyUpdated(): void {
    if (this.#status === 'waiting' && this.#allReady() && this.#seats.length >= 2) {
      this.#emit('allPlayersReady', { gameId: this.id });
      if (this.setup.autoStart && this.#autoStartAt === null)
        this.#autoStartAt = this.#deps.clock.now() + BOT_AUTO_START_DELAY_MS;
    } else {
      this.#autoStartAt = null;
    }
    this.#lobbyChanged = true;
  }

  #beginCountdown(): void {
    this.#status = 'starting';
    this.#autoStartAt = null;
    this.#startsAt = this.#deps.clock.now() + COUNTDOWN_DURATION_MS;
    this.#emit('gameStarting', {
      gameId: this.id,
      roomCode: this.roomCode,
      countdownDuration: COUNTDOWN_DURATION_MS,
      startsAt: this.#startsAt,
      isBotGame: this.isBotGame,
      botSettings: botInfo(this.#facts()),
      players: this.game().players,
    });
    this.#emit('gameStateChanged', { status: 'starting', gameStatus: 'starting' });
    this.#lobbyChanged = true;
  }

  #deal(): void {
    this.#seed = this.#deps.seed();
    this.#clockOffset = 0;
    const config = {
      seed: this.#seed,
      seats: this.#seats.map((s) => ({ id: s.playerId, username: s.username, bot: s.bot })),
      cardsPerPlayer: this.setup.cardsPerPlayer,
      speed: this.setup.gameSpeed,
      startAt: this.#gameNow,
    };
    this.#engine = this.#deps.rules.createGame(config);
    this.#status = 'active';
    this.#startsAt = null;
    this.#lobbyDisconnects.clear();
    this.#steps.row({
      header: { config, clockOffset: this.#clockOffset },
      seedCommitment: sha256Hex(this.#seed),
      startedAt: config.startAt + this.#clockOffset,
    });
    this.#emit('gameStarted', {
      gameId: this.id,
      roomCode: this.roomCode,
      gameState: gameStateOf(this.#facts(), this.#engine),
      players: this.game().players,
      seedCommitment: sha256Hex(this.#seed),
      isBotGame: this.isBotGame,
      botSettings: botInfo(this.#facts()),
    });
    this.#emit('gameStateChanged', { status: 'active', gameStatus: 'active' });
    this.#lobbyChanged = true;
    for (const seat of this.#seats) {
      if (seat.bot === null) this.#sendHand(seat.playerId, 'handDealt');
      // Someone who went away during the countdown starts the game disconnected.
      if (seat.bot === null && !this.#connected.has(seat.playerId)) {
        this.#command({ type: 'disconnect', playerId: seat.playerId });
      }
    }
  }

  /** Runs what is due: countdown end, auto-start, lobby disconnects, the engine's deadlines. */
  #tick(): void {
    this.#timer = null;
    const step = this.#run(() => {
      const now = this.#deps.clock.now();
      for (const [userId, until] of [...this.#lobbyDisconnects]) {
        if (until <= now && (this.#status === 'waiting' || this.#status === 'starting')) this.#leave(userId);
      }
      if (this.#status === 'waiting' && this.#autoStartAt !== null && this.#autoStartAt <= now) {
        this.#autoStartAt = null;
        this.#lobbyChanged = true;
        if (this.#allReady() && this.#seats.length >= 2) this.#beginCountdown();
      }
      if (this.#status === 'starting' && this.#startsAt !== null && this.#startsAt <= now) this.#deal();
      if (this.#status === 'active' && this.#engine) this.#advanceTo(this.#gameNow);
      return ok(null);
    });
    void step.done;
  }

  #isLobby(): boolean {
    return this.#status === 'waiting' || this.#status === 'starting';
  }

  /** Advances the engine to `now`; a change is logged as a timer step. */
  #advanceTo(now: number): void {
    const engine = this.#engine as GameState;
    const due = this.#deps.rules.advance(engine, now);
    if (due.state === engine && due.events.length === 0) return;
    this.#commit(due.state, due.events);
    this.#append(now, null);
  }

  /** Advances to now, applies the command, logs it, queues what happened. */
  #command(command: Command): Outcome<Applied> {
    if (!this.#engine) return fail(GAME_TEXTS.gameNotActive);
    const now = this.#gameNow;
    this.#advanceTo(now);
    if (this.#status !== 'active' || !this.#engine) return fail(GAME_TEXTS.gameNotActive);
    const result = this.#deps.rules.apply(this.#engine, command, now);
    if (!result.ok) return fail(result.error.message);
    this.#commands.push({ at: now, command });
    this.#commit(result.state, result.events);
    this.#append(now, command);
    return ok({ events: result.events, deadlockCheck: result.deadlockCheck ?? null });
  }

  #append(at: number, command: Command | null): void {
    this.#logLength += 1;
    const entry: LogEntry = { n: this.#logLength, at, seq: this.#seq, command };
    this.#steps.entry(entry);
  }

  #commit(state: GameState, events: readonly GameEvent[]): void {
    this.#engine = state;
    this.#broadcast(events);
    if (state.status === 'finished' && this.#status !== 'finished') {
      this.#status = 'finished';
      this.#steps.send(() => this.#deps.finished(this.id));
    }
  }

  #mapping() {
    return {
      gameId: this.id,
      seed: this.#seed as string,
      seats: this.#seats,
      gameState: gameStateOf(this.#facts(), this.#engine as GameState),
    };
  }

  /** The engine's events as the spec's socket events; changed hands go to their owners once. */
  #broadcast(events: readonly GameEvent[]): void {
    if (events.length === 0 || !this.#engine || this.#seed === null) return;
    const out = socketEventsFor(events, this.#mapping());
    const now = this.#deps.clock.now();
    for (const botId of out.botsActed) this.#botActivity.set(botId, now);
    for (const { event, payload } of out.broadcasts) this.#emit(event, payload);
    for (const playerId of out.hands) this.#sendHand(playerId, 'handUpdated');
  }

  #sendHand(userId: string, event: 'handDealt' | 'handUpdated'): void {
    const hand = this.handFor(userId);
    const { toUser } = this.#deps;
    if (hand) this.#steps.send(() => toUser(userId, event, hand));
  }

  #emit(event: ServerEventName, payload: object): void {
    this.#seq += 1;
    const message = { ...payload, seq: this.#seq };
    const { toRoom } = this.#deps;
    this.#steps.send(() => toRoom(this.id, event, message));
    if (this.#isLobby()) this.#lobbyChanged = true;
  }

  #nextWallDeadline(): number | null {
    const times: number[] = [...this.#lobbyDisconnects.values()];
    if (this.#autoStartAt !== null) times.push(this.#autoStartAt);
    if (this.#status === 'starting' && this.#startsAt !== null) times.push(this.#startsAt);
    if (this.#status === 'active' && this.#engine) {
      const due = this.#deps.rules.nextDeadline(this.#engine);
      if (due !== null) times.push(due + this.#clockOffset);
    }
    return times.length > 0 ? Math.min(...times) : null;
  }

  #rearm(): void {
    this.#cancelTimer();
    if (this.#status === 'finished' || this.#failed) return;
    const at = this.#nextWallDeadline();
    if (at !== null) this.#timer = this.#deps.clock.at(at, () => this.#tick());
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }
}
