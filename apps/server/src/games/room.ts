/**
 * One game room: the lobby (lobby.ts: seats, ready flags, host, countdown) and, once dealt, its game
 * (played-game.ts). Its state is private; the game service is its only caller. Every call is one step
 * (step-runner.ts) that runs to completion in arrival order: the step changes the state, records what
 * must be durable (the lobby row, or the command-log entries of the game in play) and queues its
 * broadcasts. The broadcasts leave, in order, only once the step's writes are durable; the caller's
 * answer waits for the same moment (`Step.done`). A step that throws stops the room: the game is
 * aborted and its players told, and nothing else is touched. The room does no I/O of its own.
 */
import type { Command } from '@memeslam/engine';
import type { GameSetup } from '@memeslam/protocol';
import { Lobby } from './lobby.ts';
import { type Applied, type GameOut, PlayedGame } from './played-game.ts';
import { type RoomFacts, botInfo, gameOf, gameStateOf } from './present.ts';
import { type Step, StepRunner } from './step-runner.ts';
import {
  type FinishedGame,
  type Outcome,
  type RoomDeps,
  type RoomEventName,
  type RoomPayload,
  type RematchHold,
  type RoomStatus,
  type StoredGame,
  fail,
  ok,
  sha256Hex,
} from './types.ts';

export type { Applied, Step };

export class GameRoom {
  readonly id: string;
  readonly roomCode: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  readonly #lobby: Lobby;
  /** The game, once dealt. */
  #game: PlayedGame | null = null;
  /** The game ended, the lobby closed, or the room failed. */
  #ended = false;
  readonly #deps: RoomDeps;
  /** Users with a socket open; a seat whose user is not here is disconnected. */
  readonly #connected = new Set<string>();
  readonly #steps: StepRunner;
  /** Where the game's changes go: this room's running step. */
  readonly #out: GameOut;

  constructor(
    init: {
      id: string;
      roomCode: string;
      host: { id: string; username: string; addressKey?: string | null | undefined };
      setup: GameSetup;
      createdAt: number;
      /** A rematch lobby's hold for the previous game's players (docs/privacy.md). */
      hold?: RematchHold | null;
    },
    deps: RoomDeps,
  ) {
    this.id = init.id;
    this.roomCode = init.roomCode;
    this.setup = init.setup;
    this.createdAt = init.createdAt;
    this.#deps = deps;
    this.#steps = new StepRunner(init.id, deps, {
      lobbyRow: () => ({ status: this.status, lobby: this.#lobby.record(this.status, this.#steps.seq) }),
      nextDeadline: () => this.#nextDeadline(),
      due: () => this.#due(),
      halt: () => this.#halt(),
    });
    this.#out = this.#steps.gameOut({
      handFor: (userId) => this.handFor(userId),
      ended: () => {
        if (this.#ended) return;
        this.#ended = true;
        this.#steps.send(() => this.#deps.finished(this.id));
      },
    });
    this.#lobby = new Lobby(init, deps.clock, {
      status: () => this.status,
      facts: () => this.#facts(),
      isConnected: (userId) => this.#connected.has(userId),
      emit: (event, payload) => this.#emit(event, payload),
      changed: () => (this.#steps.lobbyChanged = true),
      closed: () => this.#close(),
    });
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
    room.#steps.seq = lobby.seq;
    if (!header) {
      if (lobby.status === 'active' || lobby.status === 'finished') throw new Error('a dealt game has no header');
      room.#lobby.restore(lobby, Math.max(0, now - lobby.savedAt));
      return room;
    }
    room.#lobby.restore(lobby, null);
    // The game clock stood still while the server was down: play resumes where the log left it.
    const { game, seq } = PlayedGame.replayed(room.#gameDeps(), header, stored.entries);
    room.#game = game;
    room.#steps.seq = Math.max(room.#steps.seq, seq);
    room.#ended = game.state.status === 'finished';
    return room;
  }

  // ── queries ──

  get status(): RoomStatus {
    if (this.#ended) return 'finished';
    return this.#game ? 'active' : this.#lobby.phase;
  }

  get seq(): number {
    return this.#steps.seq;
  }

  /** When play began (epoch ms), or null before the deal. */
  get startedAt(): number | null {
    return this.#game ? this.#game.state.startedAt + this.#game.clockOffset : null;
  }

  /** The room threw and was stopped. */
  get failed(): boolean {
    return this.#steps.failed;
  }

  get hostId(): string {
    return this.#lobby.hostId;
  }

  get isBotGame(): boolean {
    return this.#lobby.isBotGame;
  }

  /** The humans seated here. */
  get humanIds(): string[] {
    return this.#lobby.seats.flatMap((s) => (s.bot === null ? [s.playerId] : []));
  }

  /**
   * The humans who still sit here: a lobby's, or those of a game in play who have not forfeited
   * (left, or away too long); nobody once it is finished. They may not sit in another game.
   */
  get seatedHumanIds(): string[] {
    if (this.status === 'finished') return [];
    const out = new Set(this.#game?.state.players.flatMap((p) => (p.left ? [p.id] : [])) ?? []);
    return this.humanIds.filter((id) => !out.has(id));
  }

  isMember(userId: string): boolean {
    return this.#lobby.isMember(userId);
  }

  /** A rematch lobby still held for the previous game's players, and this user is not one of them. */
  heldFrom(userId: string): boolean {
    return this.#lobby.heldFrom(userId);
  }

  isOpen(): boolean {
    return this.status === 'waiting' && this.#lobby.seats.length < this.setup.maxPlayers;
  }

  game(viewerId?: string) {
    return gameOf(this.#facts(), viewerId);
  }

  /** The hand, view and seq a member needs to (re)draw the game; null for non-members or before the deal. */
  handFor(userId: string) {
    const hand = this.#game?.handFor(userId);
    return hand ? { ...hand, seq: this.#steps.seq } : null;
  }

  /** Each bot, its cards left, and whether it acted within the last `activeWithinMs` of this room's clock. */
  botStatus(activeWithinMs: number) {
    const now = this.#deps.clock.now();
    return this.#lobby.seats.flatMap((s) => {
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
      seats: this.#lobby.seats,
      clockOffset: game.clockOffset,
      isBotGame: this.isBotGame,
    };
  }

  // ── steps ──

  /** A new room announces readiness (a bot game's host is ready at once) and arms auto-start. */
  open(): Step<null> {
    return this.#steps.run(() => this.#lobby.open());
  }

  join(user: { id: string; username: string; addressKey?: string | null | undefined }): Step<null> {
    return this.#steps.run(() => this.#lobby.join(user));
  }

  setReady(userId: string, isReady: boolean): Step<{ isReady: boolean }> {
    return this.#steps.run(() => this.#lobby.setReady(userId, isReady));
  }

  /** Host only, at least 2 players, all ready; idempotent once the countdown runs. */
  start(userId: string): Step<{ status: RoomStatus }> {
    return this.#steps.run(() => this.#lobby.start(userId));
  }

  /** The user now has a socket open (the service counts them; this sees only the change). */
  connect(userId: string): Step<null> {
    return this.#steps.run(() => {
      if (this.#connected.has(userId)) return ok(null);
      this.#connected.add(userId);
      if (!this.isMember(userId)) return ok(null);
      this.#lobby.back(userId);
      if (this.status === 'active') this.#command({ type: 'reconnect', playerId: userId });
      return ok(null);
    });
  }

  /** The user's last socket closed. */
  disconnect(userId: string): Step<null> {
    return this.#steps.run(() => {
      if (!this.#connected.delete(userId) || !this.isMember(userId)) return ok(null);
      if (this.status === 'active') this.#command({ type: 'disconnect', playerId: userId });
      else this.#lobby.disconnected(userId);
      return ok(null);
    });
  }

  /** leaveGame / stopAllBots: out of the lobby, or a forfeit of a game in play. */
  leave(userId: string): Step<null> {
    return this.#steps.run(() => {
      if (!this.isMember(userId)) return fail('NOT_IN_GAME');
      if (this.status === 'active') {
        const result = this.#command({ type: 'leave', playerId: userId });
        return result.ok ? ok(null) : result;
      }
      if (this.status !== 'finished') this.#lobby.leave(userId);
      return ok(null);
    });
  }

  /** A player's game command, checked by the engine against the state it meets. */
  play(userId: string, command: Command): Step<Applied> {
    return this.#steps.run(() => {
      if (!this.isMember(userId)) return fail('NOT_IN_GAME');
      if (this.status !== 'active' || !this.#game) return fail('GAME_NOT_ACTIVE');
      return this.#command(command);
    });
  }

  /**
   * After a restore: timers are armed again and every human counts as away until they reconnect,
   * except those `present` (cluster mode: a socket open on some node when the game was taken over).
   */
  resume(present: ReadonlySet<string> = new Set()): Step<null> {
    for (const userId of present) this.#connected.add(userId);
    return this.#steps.run(() => {
      if (this.status === 'finished') {
        this.#steps.send(() => this.#deps.finished(this.id));
        return ok(null);
      }
      for (const seat of this.#lobby.seats) {
        if (seat.bot !== null || this.#connected.has(seat.playerId)) continue;
        if (this.status === 'active') this.#command({ type: 'disconnect', playerId: seat.playerId });
        else this.#lobby.away(seat.playerId);
      }
      return ok(null);
    });
  }

  /** Stops the timer; the room takes no more timed steps. */
  dispose(): void {
    this.#steps.dispose();
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
    this.#steps.lose();
  }

  /** Whether the room stopped because another node took its game over. */
  get lost(): boolean {
    return this.#steps.lost;
  }

  /** Stops the room from outside (its writes could not be made durable): the game is aborted. */
  abort(error: unknown): void {
    this.#steps.abort(error);
  }

  // ── internals ──

  #facts(): RoomFacts {
    const status = this.status;
    return {
      id: this.id,
      roomCode: this.roomCode,
      hostId: this.#lobby.hostId,
      hostName: this.#lobby.hostName,
      setup: this.setup,
      createdAt: this.createdAt,
      status,
      seats: this.#lobby.seats,
      startsAt: status === 'starting' ? this.#lobby.startsAt : null,
      engine: this.#game?.state ?? null,
      clockOffset: this.#game?.clockOffset ?? 0,
      isOpen: this.isOpen(),
      isConnected: (userId) => this.#connected.has(userId),
    };
  }

  #gameDeps() {
    return { gameId: this.id, seats: this.#lobby.seats, rules: this.#deps.rules, clock: this.#deps.clock };
  }

  #isLobby(): boolean {
    return !this.#ended && !this.#game;
  }

  /** A lobby nobody will play in: kept as an aborted game of nobody. */
  #close(): void {
    this.#ended = true;
    this.#steps.lobbyChanged = false;
    const now = this.#deps.clock.now();
    this.#steps.row({ status: 'finished', endReason: 'aborted', finishedAt: now });
    this.#steps.send(() => this.#deps.closed(this.id));
  }

  #deal(): void {
    const seed = this.#deps.seed();
    const { game, header } = PlayedGame.deal(this.#gameDeps(), this.setup, seed);
    this.#game = game;
    this.#lobby.dealt();
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
    this.#steps.lobbyChanged = true;
    for (const seat of this.#lobby.seats) {
      if (seat.bot === null) this.#out.hand(seat.playerId, 'handDealt');
      // Someone who went away during the countdown starts the game disconnected.
      if (seat.bot === null && !this.#connected.has(seat.playerId)) {
        this.#command({ type: 'disconnect', playerId: seat.playerId });
      }
    }
  }

  /** Runs what is due: countdown end, auto-start, lobby disconnects, the engine's deadlines. */
  #due(): void {
    const now = this.#deps.clock.now();
    this.#lobby.due(now);
    if (this.status === 'starting' && this.#lobby.countdownOver(now)) this.#deal();
    if (this.status === 'active' && this.#game) this.#game.advance(this.#out);
  }

  #nextDeadline(): number | null {
    if (this.#ended) return null;
    const times = this.#lobby.deadlines();
    const due = this.#game?.nextDeadline();
    if (due !== undefined && due !== null) times.push(due);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** The room threw: it is finished, and a game in play is aborted (its end announced). */
  #halt(): RoomPayload<'gameEnded'> | null {
    this.#ended = true;
    if (!this.#game) return null;
    try {
      return this.#game.abort();
    } catch {
      return null;
    }
  }

  #command(command: Command): Outcome<Applied> {
    if (!this.#game) return fail('GAME_NOT_ACTIVE');
    return this.#game.command(command, this.#out);
  }

  #emit<E extends RoomEventName>(event: E, payload: RoomPayload<E>): void {
    this.#steps.emit(event, payload);
    if (this.#isLobby()) this.#steps.lobbyChanged = true;
  }
}
