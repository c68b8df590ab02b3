/**
 * Games in the database: the row made when a room opens, the group-committed writes of live rooms
 * (row updates and command-log entries of many games in one transaction), the unfinished games to
 * rebuild at start-up, and the one statement that records a finished game — ranking, seats, replay,
 * every human's stats — and drops its log.
 */
import { medianPlayInterval, recordedPace } from '@memeslam/engine';
import { ACHIEVEMENTS } from '@memeslam/protocol';
import type { GameSetup } from '@memeslam/protocol';
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Prepared } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { gameLog, games, users } from '../db/schema.ts';
import { DELETED_USERNAME, isUuid } from '../users/repository.ts';
import { ratingsAfter } from './ratings.ts';
import { FENCED_WRITE, FINISH, WRITE, WRITE_AGAIN } from './store-statements.ts';
import {
  type FinishedGame,
  type LogEntry,
  type LoggedCommand,
  type RoomWrite,
  type StoredGame,
  type StoredLobby,
  sha256Hex,
} from './types.ts';

const ACHIEVEMENT_RULES = ACHIEVEMENTS.map(({ id, stat, threshold }, n) => ({ id, stat, threshold, n }));

/** A person's median time per play in this game (rounded ms), from their accepted card plays; null if too few. */
export function paceOf(commands: readonly LoggedCommand[], playerId: string): number | null {
  const times = commands.flatMap((c) =>
    c.command.type === 'playCard' && c.command.playerId === playerId ? [c.at] : [],
  );
  const median = medianPlayInterval(times);
  return median === null ? null : Math.round(median);
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export class GameStore {
  readonly #db: Db;
  readonly #prepared: Prepared;
  readonly #logPrepared: Prepared;
  /** Cluster mode: the epoch this node holds each game at, null once it no longer holds it (one node: no fencing). */
  readonly #epochOf: ((gameId: string) => number | null) | null;

  constructor(
    db: Db,
    prepared: Prepared,
    epochOf: ((gameId: string) => number | null) | null = null,
    /** Where the live games' log is written (the database's `logPrepared`); `prepared` by default. */
    logPrepared: Prepared = prepared,
  ) {
    this.#db = db;
    this.#prepared = prepared;
    this.#logPrepared = logPrepared;
    this.#epochOf = epochOf;
  }

  #run(statement: { name: string; text: string }, values: unknown[], on = this.#prepared): Promise<unknown> {
    return on({ ...statement, values });
  }

  /**
   * Cluster mode: this node takes the game over, raising its fencing epoch (every write of the node
   * that held it is refused from now on). Null if the game is recorded or set aside.
   */
  async raiseEpoch(gameId: string): Promise<number | null> {
    const rows = await this.#db
      .update(games)
      .set({ ownerEpoch: sql`${games.ownerEpoch} + 1` })
      .where(and(eq(games.id, gameId), ne(games.status, 'finished'), isNull(games.restoreError)))
      .returning({ epoch: games.ownerEpoch });
    return rows[0]?.epoch ?? null;
  }

  /** Unfinished games that are not set aside (ids only, for the cluster's ownership scan). */
  async unfinishedIds(): Promise<string[]> {
    const rows = await this.#db
      .select({ id: games.id })
      .from(games)
      .where(and(ne(games.status, 'finished'), isNull(games.restoreError)));
    return rows.map((row) => row.id);
  }

  /**
   * The unfinished games whose seats hold the user: a lobby's seats, or the dealt game's (forfeited
   * players included: their game's owner knows whether they still sit in it). The database's own
   * answer, for when Redis's registry of seats has been lost (Redis restarted empty).
   */
  async seatedIn(userId: string): Promise<string[]> {
    const rows = await this.#db
      .select({ id: games.id })
      .from(games)
      .where(
        and(
          ne(games.status, 'finished'),
          isNull(games.restoreError),
          sql`(${games.lobby}->'seats' @> ${JSON.stringify([{ playerId: userId }])}::jsonb
            or ${games.header}->'config'->'seats' @> ${JSON.stringify([{ id: userId }])}::jsonb)`,
        ),
      );
    return rows.map((row) => row.id);
  }

  /** The unfinished game holding a room code, if any (cluster mode: the room may live on another node). */
  async unfinishedIdByCode(roomCode: string): Promise<string | null> {
    const [row] = await this.#db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.roomCode, roomCode.toUpperCase()), ne(games.status, 'finished'), isNull(games.restoreError)));
    return row?.id ?? null;
  }

  /** A new lobby's row; fails when an unfinished game holds the room code. */
  async insert(room: {
    id: string;
    roomCode: string;
    hostId: string;
    isBotGame: boolean;
    setup: GameSetup;
    lobby: StoredLobby;
  }): Promise<void> {
    const insert = prepared(this.#db, 'insert_game', (db) =>
      db.insert(games).values({
        id: sql.placeholder('id'),
        roomCode: sql.placeholder('roomCode'),
        status: sql.placeholder('status'),
        hostId: sql.placeholder('hostId'),
        isBotGame: sql.placeholder('isBotGame'),
        settings: sql.placeholder('settings'),
        lobby: sql.placeholder('lobby'),
        ownerEpoch: sql.placeholder('ownerEpoch'),
      }),
    );
    await insert.execute({
      id: room.id,
      roomCode: room.roomCode,
      status: room.lobby.status,
      hostId: room.hostId,
      isBotGame: room.isBotGame,
      settings: room.setup,
      lobby: room.lobby,
      ownerEpoch: this.#epochOf ? 1 : 0,
    });
  }

  /**
   * The writes of many rooms in one statement: each game's row changes (later ones win) and every
   * log entry. Unless the batch is `fresh` (its first attempt: none of its entries can be stored
   * yet), entries already stored (a retry after a lost answer) are skipped; rows of recorded games
   * are left alone. So a batch can be written again safely.
   */
  async write(
    batch: readonly { gameId: string; write: RoomWrite }[],
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<readonly string[]> {
    // Cluster mode: a game whose lease this node lost (another node took it, or may) is fenced off
    // here, before any statement: its writes are dropped, and the others of the batch go on.
    const epochOf = this.#epochOf;
    const epochs = new Map<string, number | null>();
    if (epochOf) for (const { gameId } of batch) if (!epochs.has(gameId)) epochs.set(gameId, epochOf(gameId));
    const lost = [...epochs].flatMap(([id, epoch]) => (epoch === null ? [id] : []));
    const rows = new Map<string, Record<string, unknown>>();
    const entries: Record<string, unknown>[] = [];
    for (const { gameId, write } of batch) {
      if (epochs.get(gameId) === null) continue;
      if (write.row) {
        const { row } = write;
        const merged = rows.get(gameId) ?? { id: gameId };
        rows.set(gameId, {
          ...merged,
          ...(row.status !== undefined ? { status: row.status } : {}),
          ...(row.lobby !== undefined ? { lobby: row.lobby } : {}),
          ...(row.header !== undefined ? { header: row.header } : {}),
          ...(row.seedCommitment !== undefined ? { seed_commitment: row.seedCommitment } : {}),
          ...(row.startedAt !== undefined ? { started_at: iso(row.startedAt) } : {}),
          ...(row.endReason !== undefined ? { end_reason: row.endReason } : {}),
          ...(row.finishedAt !== undefined ? { finished_at: iso(row.finishedAt) } : {}),
        });
      }
      for (const e of write.entries)
        entries.push({ game_id: gameId, n: e.n, at: e.at, seq: e.seq, command: e.command });
    }
    // One statement (atomic on its own): a round trip per batch, not four.
    const values = [JSON.stringify([...rows.values()]), JSON.stringify(entries), [...rows.keys()]];
    if (!epochOf) {
      await this.#run(fresh ? WRITE : WRITE_AGAIN, values, this.#logPrepared);
      return [];
    }
    const fences = [...epochs].flatMap(([id, epoch]) => (epoch === null ? [] : [{ id, epoch }]));
    if (fences.length === 0) return lost;
    const fencedIds = fences.map((f) => f.id);
    const result = (await this.#run(
      FENCED_WRITE,
      [...values, JSON.stringify(fences), fencedIds],
      this.#logPrepared,
    )) as {
      rows: { id: string }[];
    };
    return [...lost, ...result.rows.map((row) => row.id)];
  }

  /** Games to bring back after a restart: not recorded yet and not set aside, with their logs in order. */
  async unfinished(onlyId?: string): Promise<StoredGame[]> {
    const all = await this.#db
      .select()
      .from(games)
      .where(
        and(
          ne(games.status, 'finished'),
          isNull(games.restoreError),
          onlyId === undefined ? undefined : eq(games.id, onlyId),
        ),
      );
    if (all.length === 0) return [];
    const logs = await this.#db
      .select()
      .from(gameLog)
      .where(
        inArray(
          gameLog.gameId,
          all.map((row) => row.id),
        ),
      )
      .orderBy(asc(gameLog.gameId), asc(gameLog.n));
    const byGame = new Map<string, LogEntry[]>();
    for (const e of logs) {
      const list = byGame.get(e.gameId) ?? [];
      list.push({ n: e.n, at: e.at, seq: e.seq, command: e.command });
      byGame.set(e.gameId, list);
    }
    return all.flatMap((row) => {
      if (row.lobby === null) return [];
      return [
        {
          id: row.id,
          roomCode: row.roomCode,
          setup: row.settings,
          createdAt: row.createdAt.getTime(),
          lobby: row.lobby,
          header: row.header,
          entries: byGame.get(row.id) ?? [],
        },
      ];
    });
  }

  /** A person's recorded pace for "Match me": the median of their last games' medians, or the default. */
  async recordedPaceOf(userId: string): Promise<number> {
    const [row] = await this.#db.select({ paces: users.playPaces }).from(users).where(eq(users.id, userId));
    return recordedPace(row?.paces ?? []);
  }

  /** A game whose log would not replay: kept for inspection, never loaded again. */
  async setAside(gameId: string, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.#db
      .update(games)
      .set({ restoreError: message.slice(0, 2000) })
      .where(eq(games.id, gameId));
  }

  /**
   * The commands a game's log holds, in order, as its replay keeps them. Empty once the game is
   * recorded: the record's statement drops the log (a retried record then changes nothing).
   */
  async #loggedCommands(gameId: string): Promise<LoggedCommand[]> {
    const rows = await this.#db
      .select({ at: gameLog.at, command: gameLog.command })
      .from(gameLog)
      .where(and(eq(gameLog.gameId, gameId), isNotNull(gameLog.command)))
      .orderBy(asc(gameLog.n));
    return rows as LoggedCommand[];
  }

  /**
   * The game's commands are read back from its log (the room does not keep them, to keep the live heap small).
   * Then one statement (atomic on its own): the game's result, its seats, the replay, each human's stats, points and
   * achievements, and the log dropped. Aborted games are recorded but give no points
   * and no stats, except to a person who left it in play: leaving counts as a loss, also when it
   * left no human and so aborted the game. A game already recorded is left as it is. Stats are
   * added to the stored values in the statement itself and achievements judged on the sums
   * (ACHIEVEMENTS passed as data), so two records touching one account never lose an update.
   */
  async finish(game: FinishedGame): Promise<void> {
    const { state, seed, clockOffset } = game;
    const result = state.result;
    if (!result) return;
    const commands = await this.#loggedCommands(game.id);
    // Whole seconds are rounded down everywhere (the game screens' clocks, the result, the replay).
    const durationSeconds = Math.floor(result.durationMs / 1000);
    const ratings = await ratingsAfter(this.#db, result);
    const seats = result.ranking.map((r) => {
      const seat = game.seats.findIndex((s) => s.playerId === r.playerId);
      return {
        seat,
        player_id: r.playerId,
        user_id: !r.isBot && isUuid(r.playerId) ? r.playerId : null,
        username: r.username,
        is_bot: r.isBot,
        bot_difficulty: r.botDifficulty,
        place: r.place,
        cards_left: r.cardsLeft,
        cards_played: r.cardsPlayed,
        power_ups_used: r.powerUpsUsed,
        points: r.points,
        forfeited: r.forfeited,
        won: result.winnerId === r.playerId,
        pace_ms: r.isBot ? null : paceOf(commands, r.playerId),
        // docs/fair-play.md: the network the seat was taken from (was_guest is read from the account).
        address_key: r.isBot ? null : (game.seats[seat]?.addressKey ?? null),
        ...ratings.get(r.playerId),
      };
    });
    await this.#run(FINISH, [
      game.id,
      result.winnerId && isUuid(result.winnerId) ? result.winnerId : null,
      result.reason,
      result.durationMs,
      seed,
      sha256Hex(seed),
      iso(state.startedAt + clockOffset),
      iso(result.endedAt + clockOffset),
      JSON.stringify(seats),
      DELETED_USERNAME,
      JSON.stringify(state.config),
      JSON.stringify(commands),
      durationSeconds,
      game.isBotGame ? 1 : 0,
      new Date().toISOString(),
      JSON.stringify(ACHIEVEMENT_RULES),
      result.reason !== 'aborted',
      // A game this node no longer holds is recorded by its new owner: -1 matches no row.
      this.#epochOf ? (this.#epochOf(game.id) ?? -1) : null,
      seats.flatMap((s) => (s.user_id ? [s.user_id] : [])),
    ]);
  }
}
