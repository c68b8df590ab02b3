/**
 * One game room: the lobby (seats, ready flags, host, countdown) and, once dealt, its game
 * (played-game.ts). Its state is private; the game service is its only caller. Every call is one step that runs
 * to completion in arrival order: the step changes the state, records what must be durable (the
 * lobby row, or the command-log entries of the game in play) and queues its broadcasts. The
 * broadcasts leave, in order, only once the step's writes are durable; the caller's answer waits for
 * the same moment (`Step.done`). A step that throws stops the room: the game is aborted and its
 * players told, and nothing else is touched. The room does no I/O of its own.
 */
import { type Command, DISCONNECT_GRACE_MS } from '@memeslam/engine';
import {
  BOT_AUTO_START_DELAY_MS,
  COUNTDOWN_DURATION_MS,
  GAME_TEXTS,
  type GameSetup,
  LOBBY_TEXTS,
  type ServerEventName,
} from '@memeslam/protocol';
import type { Timer } from '../clock.ts';
import { type Applied, type GameOut, PlayedGame } from './played-game.ts';
import { type RoomFacts, botInfo, gameOf, gameStateOf, playerOf } from './present.ts';
import { StepBuffer } from './step-buffer.ts';
import {
  type FinishedGame,
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

export type { Applied };

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
  /** The game, once dealt. */
  #game: PlayedGame | null = null;
  #seq = 0;
  readonly #deps: RoomDeps;
  /** Users with a socket open; a seat whose user is not here is disconnected. */
  readonly #connected = new Set<string>();
  /** Lobby seats whose owner is away: removed when the grace runs out. */
  readonly #lobbyDisconnects = new Map<string, number>();
  #timer: Timer | null = null;
  /** The room threw: it takes no more steps. */
  #failed = false;
  #lost = false;
  readonly #steps: StepBuffer;
  /** The running step changed the lobby: its row is written with the step. */
  #lobbyChanged = false;
  /** Where the game's changes go: this room's running step. */
  readonly #out: GameOut = {
    emit: (event, payload) => this.#emit(event, payload),
    hand: (userId, event) => this.#sendHand(userId, event),
    entry: (entry) => this.#steps.entry({ ...entry, seq: this.#seq }),
    ended: () => {
      if (this.#status === 'finished') return;
      this.#status = 'finished';
      this.#steps.send(() => this.#deps.finished(this.id));
    },
  };

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
    // The game clock stood still while the server was down: play resumes where the log left it.
    const { game, seq } = PlayedGame.replayed(room.#gameDeps(), header, stored.entries);
    room.#game = game;
    room.#seq = Math.max(room.#seq, seq);
    room.#status = game.state.status === 'finished' ? 'finished' : 'active';
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

  /**
   * The humans who still sit here: a lobby's, or those of a game in play who have not forfeited
   * (left, or away too long); nobody once it is finished. They may not sit in another game.
   */
  get seatedHumanIds(): string[] {
    if (this.#status === 'finished') return [];
    const out = new Set(this.#game?.state.players.flatMap((p) => (p.left ? [p.id] : [])) ?? []);
    return this.humanIds.filter((id) => !out.has(id));
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
    const hand = this.#game?.handFor(userId);
    return hand ? { ...hand, seq: this.#seq } : null;
  }

  /** Each bot, its cards left, and whether it acted within the last `activeWithinMs` of this room's clock. */
  botStatus(activeWithinMs: number) {
    const now = this.#deps.clock.now();
    return this.#seats.flatMap((s) => {
      if (s.bot === null) return [];
      return [
        {
          userId: s.playerId,
          username: s.username,
          difficulty: s.bot,
          cardsLeft: this.#game?.cardsLeft(s.playerId) ?? this.setup.cardsPerPlayer,
          isActive: now - (this.#game?.lastActed(s.playerId) ?? Number.NEGATIVE_INFINITY) <= activeWithinMs,
        },
      ];
    });
  }

  /** What the record of a finished game needs; null before the end. */
  finishedGame(): FinishedGame | null {
    const game = this.#game;
    if (!game?.state.result) return null;
    return {
      id: this.id,
      seed: game.seed,
      state: game.state,
      seats: this.#seats,
      commands: game.commands,
      clockOffset: game.clockOffset,
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
      if (this.#status !== 'active' || !this.#game) return fail(GAME_TEXTS.gameNotActive);
      return this.#command(command);
    });
  }

  /**
   * After a restore: timers are armed again and every human counts as away until they reconnect,
   * except those `present` (cluster mode: a socket open on some node when the game was taken over).
   */
  resume(present: ReadonlySet<string> = new Set()): Step<null> {
    for (const userId of present) this.#connected.add(userId);
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

  /**
   * Cluster mode: another node took the game over. The room stops here without a word (its game goes
   * on there), and nothing of its unwritten steps is delivered.
   */
  lose(): void {
    this.#lost = true;
    this.#failed = true;
    this.#cancelTimer();
    this.#steps.discard();
    this.#lobbyChanged = false;
  }

  /** Whether the room stopped because another node took its game over. */
  get lost(): boolean {
    return this.#lost;
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
    if (wasPlaying && this.#game) {
      try {
        ended = this.#game.abort();
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
      engine: this.#game?.state ?? null,
      clockOffset: this.#game?.clockOffset ?? 0,
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

  #gameDeps() {
    return { gameId: this.id, seats: this.#seats, rules: this.#deps.rules, clock: this.#deps.clock };
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
    const seed = this.#deps.seed();
    const { game, header } = PlayedGame.deal(this.#gameDeps(), this.setup, seed);
    this.#game = game;
    this.#status = 'active';
    this.#startsAt = null;
    this.#lobbyDisconnects.clear();
    this.#steps.row({ header, seedCommitment: sha256Hex(seed), startedAt: header.config.startAt });
    this.#emit('gameStarted', {
      gameId: this.id,
      roomCode: this.roomCode,
      gameState: gameStateOf(this.#facts(), game.state),
      players: this.game().players,
      seedCommitment: sha256Hex(seed),
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
      if (this.#status === 'active' && this.#game) this.#game.advance(this.#out);
      return ok(null);
    });
    void step.done;
  }

  #isLobby(): boolean {
    return this.#status === 'waiting' || this.#status === 'starting';
  }

  #command(command: Command): Outcome<Applied> {
    if (!this.#game) return fail(GAME_TEXTS.gameNotActive);
    return this.#game.command(command, this.#out);
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
    const due = this.#status === 'active' ? this.#game?.nextDeadline() : null;
    if (due !== undefined && due !== null) times.push(due);
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
