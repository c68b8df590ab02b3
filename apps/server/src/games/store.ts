/**
 * Games in the database: the row made when a room opens, the group-committed writes of live rooms
 * (row updates and command-log entries of many games in one transaction), the unfinished games to
 * rebuild at start-up, and the one statement that records a finished game — ranking, seats, replay,
 * every human's stats — and drops its log.
 */
import { MATCH_HISTORY_GAMES, medianPlayInterval, recordedPace } from '@memeslam/engine';
import { ACHIEVEMENTS } from '@memeslam/protocol';
import type { GameSetup } from '@memeslam/protocol';
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Prepared } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { gameLog, games, users } from '../db/schema.ts';
import { DELETED_USERNAME, isUuid } from '../users/repository.ts';
import { ratingsAfter } from './ratings.ts';
import {
  type FinishedGame,
  type LogEntry,
  type LoggedCommand,
  type RoomWrite,
  type StoredGame,
  type StoredHeader,
  type StoredLobby,
  sha256Hex,
} from './types.ts';

/** A batch's row changes ($1, later ones win) and log entries ($2); `owned` limits both to some games. */
const rowUpdate = (owned: string) => `
      update games as g set
        status = coalesce(v.status, g.status),
        lobby = coalesce(v.lobby, g.lobby),
        header = coalesce(v.header, g.header),
        seed_commitment = coalesce(v.seed_commitment, g.seed_commitment),
        started_at = coalesce(v.started_at, g.started_at),
        end_reason = coalesce(v.end_reason, g.end_reason),
        finished_at = coalesce(v.finished_at, g.finished_at)
      from json_to_recordset($1::json) as v(
        id uuid, status text, lobby jsonb, header jsonb, seed_commitment text, started_at timestamptz,
        end_reason text, finished_at timestamptz)
      where g.id = v.id and g.status <> 'finished'${owned ? ` and g.id in (${owned})` : ''}`;
const logInsert = (owned: string, again = true) => `
      insert into game_log (game_id, n, at, seq, command)
      select v.game_id, v.n, v.at, v.seq, v.command
      from json_to_recordset($2::json) as v(game_id uuid, n integer, at double precision, seq integer, command jsonb)
      ${owned ? `where v.game_id in (${owned})` : ''}
      ${again ? 'on conflict do nothing' : ''}`;

/**
 * The statements of the hot path are prepared (parsed and planned once per connection): planning
 * the record's CTE alone took 2.7 ms per call to plan (measured on the PGlite release).
 *
 * A batch's first attempt holds no entry already stored (a game's next batch waits for its last one),
 * so its entries go in as they are: `on conflict` inserts each row speculatively, which cost 18% more
 * WAL per row and about as much more of the database's CPU (README, "Server benchmark"). Any later
 * attempt (a retry after a lost answer may find its entries stored) skips what is there.
 */
const WRITE = {
  name: 'game-log-write',
  text: `with updated as (${rowUpdate('')}) ${logInsert('', false)}`,
};
const WRITE_AGAIN = {
  name: 'game-log-write-again',
  text: `with updated as (${rowUpdate('')}) ${logInsert('')}`,
};

/**
 * Cluster mode's write (issue 14): the same changes, made only for games this node still owns. Each
 * game's row is locked and its fencing epoch compared with the writer's ($3); a game taken over
 * since (its epoch raised by another node) gets no row change and no log entry, and its id comes
 * back. The lock orders this write against a takeover's epoch raise: whichever commits first, the
 * new owner reads every entry the old one wrote before it lost the game.
 */
const FENCED_WRITE = {
  name: 'game-log-write-fenced',
  text: `
    with owned as (
      select g.id from games as g
      join json_to_recordset($3::json) as f(id uuid, epoch integer) on f.id = g.id
      where g.owner_epoch = f.epoch
      for update of g
    ),
    updated as (${rowUpdate('select id from owned')}),
    inserted as (${logInsert('select id from owned')})
    select f.id from json_to_recordset($3::json) as f(id uuid, epoch integer)
    where f.id not in (select id from owned)`,
};

const FINISH = {
  name: 'game-record',
  text: `
    with fin as (
      update games set
        status = 'finished', winner_id = $2::uuid, end_reason = $3, duration_ms = $4, seed = $5,
        seed_commitment = $6, started_at = $7::timestamptz, finished_at = $8::timestamptz
      where id = $1::uuid and status <> 'finished' and ($18::integer is null or owner_epoch = $18::integer)
      returning id
    ),
    dropped as (delete from game_log where game_id in (select id from fin)),
    -- A human whose account was deleted during the game keeps an anonymous seat.
    seat as (
      select v.*, (v.is_bot or u.id is not null) as kept
      from json_to_recordset($9::json) as v(
        seat integer, player_id text, user_id uuid, username text, is_bot boolean, bot_difficulty text,
        place integer, cards_left integer, cards_played integer, power_ups_used integer, points integer,
        forfeited boolean, won boolean, pace_ms integer, rating_before double precision,
        rating_after double precision, deviation_after double precision, volatility_after double precision)
      left join users u on u.id = v.user_id
    ),
    seated as (
      insert into game_players (game_id, seat, player_id, user_id, username, is_bot, bot_difficulty, place,
        cards_left, cards_played, power_ups_used, points, forfeited, rating_before, rating_after, deviation_after)
      select fin.id, seat.seat, case when kept then player_id else 'deleted-' || seat.seat end,
        case when kept then user_id end, case when kept then username else $10::text end, is_bot,
        bot_difficulty, place, cards_left, cards_played, power_ups_used, points, forfeited,
        case when kept then rating_before end, case when kept then rating_after end,
        case when kept then deviation_after end
      from seat, fin
    ),
    replayed as (insert into replays (game_id, config, commands) select id, $11::jsonb, $12::jsonb from fin)
    update users as u set
      games_played = u.games_played + 1,
      games_won = u.games_won + seat.won::integer,
      total_points = u.total_points + seat.points,
      fastest_game = case
        when seat.won and (u.fastest_game is null or $13::integer < u.fastest_game) then $13::integer
        else u.fastest_game end,
      bot_games_played = u.bot_games_played + $14::integer,
      total_game_seconds = u.total_game_seconds + $13::integer,
      -- "Match me": this game's median time per play joins the person's last ${MATCH_HISTORY_GAMES}.
      play_paces = case when seat.pace_ms is null then u.play_paces else (
        select coalesce(jsonb_agg(recent.value order by recent.n), '[]'::jsonb) from (
          select value, n from jsonb_array_elements(u.play_paces || to_jsonb(seat.pace_ms))
            with ordinality as e(value, n)
          order by n desc limit ${MATCH_HISTORY_GAMES}
        ) as recent) end,
      achievements = u.achievements || coalesce((
        select jsonb_agg(jsonb_build_object('id', a.id, 'unlockedAt', $15::text) order by a.n)
        from json_to_recordset($16::json) as a(id text, stat text, threshold integer, n integer)
        where case a.stat
            when 'gamesPlayed' then u.games_played + 1
            when 'gamesWon' then u.games_won + seat.won::integer
            when 'totalPoints' then u.total_points + seat.points
          end >= a.threshold
          and not u.achievements @> jsonb_build_array(jsonb_build_object('id', a.id))
      ), '[]'::jsonb),
      rating = coalesce(seat.rating_after, u.rating),
      rating_deviation = coalesce(seat.deviation_after, u.rating_deviation),
      rating_volatility = coalesce(seat.volatility_after, u.rating_volatility),
      rated_games = u.rated_games + (seat.rating_after is not null)::integer,
      updated_at = now()
    from seat, fin
    where u.id = seat.user_id and not seat.is_bot and ($17::boolean or seat.forfeited)`,
};
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
    const values = [JSON.stringify([...rows.values()]), JSON.stringify(entries)];
    if (!epochOf) {
      await this.#run(fresh ? WRITE : WRITE_AGAIN, values, this.#logPrepared);
      return [];
    }
    const fences = [...epochs].flatMap(([id, epoch]) => (epoch === null ? [] : [{ id, epoch }]));
    if (fences.length === 0) return lost;
    const result = (await this.#run(FENCED_WRITE, [...values, JSON.stringify(fences)], this.#logPrepared)) as {
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
      list.push({ n: e.n, at: e.at, seq: e.seq, command: e.command as LogEntry['command'] });
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
          lobby: row.lobby as StoredLobby,
          header: (row.header as StoredHeader | null) ?? null,
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
   * The game's commands are read back from its log (the room does not keep them: issue 24's live heap).
   * Then one statement (atomic on its own): the game's result, its seats, the replay, each human's stats, points and
   * achievements, and the log dropped. Aborted games are recorded but give no points (DESIGN §2)
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
    ]);
  }
}
