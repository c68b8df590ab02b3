/**
 * A room's end. A finished game is recorded into the history once its end is durable in the log
 * (retried until it lands), then its room stays findable a while before it lives on in the database
 * only. A room that threw (or whose writes were refused) is stopped alone: its game is recorded as
 * aborted, or a lobby closed as an aborted game of nobody.
 */
import type { Timer } from '../clock.ts';
import type { GamesContext } from './context.ts';
import type { GameLog } from './log.ts';
import type { GameRecorder } from './recorder.ts';
import type { GameRoom } from './room.ts';

/**
 * A finished room stays findable a minute after it is recorded (its players' result screens and
 * reloads read it), then lives on in the database only (GET /game/:id reads it there). Kept five minutes, a
 * server at 1,000 live games held about 3,850 finished rooms beside them (bench:soak, docs/capacity.md).
 */
const FINISHED_ROOM_TTL_MS = 60_000;

export class FinishedRooms {
  readonly #games: GamesContext;
  readonly #recorder: GameRecorder;
  readonly #gameLog: GameLog;
  readonly #timers = new Set<Timer>();

  constructor(games: GamesContext, recorder: GameRecorder, gameLog: GameLog) {
    this.#games = games;
    this.#recorder = recorder;
    this.#gameLog = gameLog;
  }

  /** Finished rooms waiting for their time to be forgotten (GET /metrics). */
  get pending(): number {
    return this.#timers.size;
  }

  /** The game is over (its end is durable): its players sit nowhere, and it is recorded. */
  finished(gameId: string): void {
    const { rooms, ownership } = this.#games;
    const room = rooms.get(gameId);
    if (!room) return;
    for (const id of room.humanIds) {
      rooms.free(id, room);
      ownership.unseat(id, room.id);
    }
    void this.#record(room);
  }

  /** A room threw (or its writes were refused): it is stopped; its game is recorded as aborted. */
  failed(gameId: string, error: unknown): void {
    const { rooms, clock, log } = this.#games;
    const room = rooms.get(gameId);
    log.child({ gameId }).error({ err: error }, 'a game room failed; its game is aborted');
    if (!room) return;
    for (const id of room.humanIds) rooms.free(id, room);
    if (room.finishedGame()) {
      void this.#record(room);
    } else {
      // A lobby: closed as an aborted game of nobody.
      const now = clock.now();
      void this.#gameLog
        .append(gameId, { row: { status: 'finished', endReason: 'aborted', finishedAt: now }, entries: [] })
        .then(() => rooms.forget(room));
    }
  }

  /** Shutdown: rooms waiting to be forgotten are left as they are. */
  close(): void {
    for (const pending of this.#timers) pending.cancel();
  }

  /** Records the game (retried until it lands), then keeps its room findable a while. */
  async #record(room: GameRoom): Promise<void> {
    const game = room.finishedGame();
    if (!game) return;
    // The end must be durable in the log before the record (a restart would otherwise replay past it).
    await room.settled();
    if (await this.#recorder.record(game)) this.#later(FINISHED_ROOM_TTL_MS, () => this.#games.rooms.forget(room));
  }

  /** On the games' clock (tests move it by hand); `close` cancels what is left. */
  #later(ms: number, run: () => void): void {
    const { clock } = this.#games;
    const timer = clock.at(clock.now() + ms, () => {
      this.#timers.delete(timer);
      run();
    });
    this.#timers.add(timer);
  }
}
