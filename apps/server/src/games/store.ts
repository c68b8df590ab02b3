/**
 * Games in the database: the row made when a room opens, the group-committed writes of live rooms
 * (row updates and command-log entries of many games in one transaction), the unfinished games to
 * rebuild at start-up, and the one transaction that records a finished game — ranking, seats,
 * replay, every human's stats — and drops its log.
 */
import { achievementsFor } from '@memeslam/protocol';
import type { GameSetup } from '@memeslam/protocol';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { gameLog, gamePlayers, games, replays, users } from '../db/schema.ts';
import { DELETED_USERNAME, isUuid } from '../users/repository.ts';
import {
  type FinishedGame,
  type LogEntry,
  type RoomWrite,
  type StoredGame,
  type StoredHeader,
  type StoredLobby,
  sha256Hex,
} from './types.ts';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export class GameStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
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
    await this.#db.insert(games).values({
      id: room.id,
      roomCode: room.roomCode,
      status: room.lobby.status,
      hostId: room.hostId,
      isBotGame: room.isBotGame,
      settings: room.setup as unknown as Record<string, unknown>,
      lobby: room.lobby,
    });
  }

  /**
   * The writes of many rooms in one statement: each game's row changes (later ones win) and every
   * log entry. Entries already stored (a retry after a lost answer) are skipped, and rows of
   * recorded games are left alone, so a batch can be written again safely.
   */
  async write(batch: readonly { gameId: string; write: RoomWrite }[]): Promise<void> {
    const rows = new Map<string, Record<string, unknown>>();
    const entries: Record<string, unknown>[] = [];
    for (const { gameId, write } of batch) {
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
    await this.#db.execute(sql`
      with updated as (
        update ${games} as g set
          status = coalesce(v.status, g.status),
          lobby = coalesce(v.lobby, g.lobby),
          header = coalesce(v.header, g.header),
          seed_commitment = coalesce(v.seed_commitment, g.seed_commitment),
          started_at = coalesce(v.started_at, g.started_at),
          end_reason = coalesce(v.end_reason, g.end_reason),
          finished_at = coalesce(v.finished_at, g.finished_at)
        from json_to_recordset(${JSON.stringify([...rows.values()])}::json) as v(
          id uuid, status text, lobby jsonb, header jsonb, seed_commitment text, started_at timestamptz,
          end_reason text, finished_at timestamptz)
        where g.id = v.id and g.status <> 'finished'
      )
      insert into ${gameLog} (game_id, n, at, seq, command)
      select v.game_id, v.n, v.at, v.seq, v.command
      from json_to_recordset(${JSON.stringify(entries)}::json) as v(
        game_id uuid, n integer, at double precision, seq integer, command jsonb)
      on conflict do nothing`);
  }

  /** Games to bring back after a restart: not recorded yet and not set aside, with their logs in order. */
  async unfinished(): Promise<StoredGame[]> {
    const all = await this.#db
      .select()
      .from(games)
      .where(and(ne(games.status, 'finished'), isNull(games.restoreError)));
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
          setup: row.settings as unknown as GameSetup,
          createdAt: row.createdAt.getTime(),
          lobby: row.lobby as StoredLobby,
          header: (row.header as StoredHeader | null) ?? null,
          entries: byGame.get(row.id) ?? [],
        },
      ];
    });
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
   * One transaction: the game's result, its seats, the replay, each human's stats, points and
   * achievements, and the log dropped. Aborted games are recorded but give no stats or points
   * (DESIGN §2). A game already recorded is left as it is.
   */
  async finish(game: FinishedGame): Promise<void> {
    const { state, seed, clockOffset } = game;
    const result = state.result;
    if (!result) return;
    const durationSeconds = Math.round(result.durationMs / 1000);
    const humans = game.seats.filter((s) => s.bot === null);
    await this.#db.transaction(async (tx) => {
      const [updated] = await tx
        .update(games)
        .set({
          status: 'finished',
          winnerId: result.winnerId && isUuid(result.winnerId) ? result.winnerId : null,
          endReason: result.reason,
          durationMs: result.durationMs,
          seed,
          seedCommitment: sha256Hex(seed),
          startedAt: new Date(state.startedAt + clockOffset),
          finishedAt: new Date(result.endedAt + clockOffset),
        })
        .where(and(eq(games.id, game.id), ne(games.status, 'finished')))
        .returning({ id: games.id });
      // Already recorded (a retry after a lost answer): nothing more to do.
      if (!updated) return;
      await tx.delete(gameLog).where(eq(gameLog.gameId, game.id));

      // Accounts deleted during the game keep an anonymous seat.
      const humanIds = humans.map((h) => h.playerId).filter(isUuid);
      const living =
        humanIds.length > 0 ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, humanIds)) : [];
      const exists = new Set(living.map((u) => u.id));
      await tx.insert(gamePlayers).values(
        result.ranking.map((r) => {
          const seat = game.seats.findIndex((s) => s.playerId === r.playerId);
          const gone = !r.isBot && !exists.has(r.playerId);
          return {
            gameId: game.id,
            seat,
            playerId: gone ? `deleted-${seat}` : r.playerId,
            userId: gone || r.isBot ? null : r.playerId,
            username: gone ? DELETED_USERNAME : r.username,
            isBot: r.isBot,
            botDifficulty: r.botDifficulty,
            place: r.place,
            cardsLeft: r.cardsLeft,
            cardsPlayed: r.cardsPlayed,
            powerUpsUsed: r.powerUpsUsed,
            points: r.points,
            forfeited: r.forfeited,
          };
        }),
      );
      await tx.insert(replays).values({ gameId: game.id, config: state.config, commands: game.commands });

      if (result.reason === 'aborted') return;
      for (const r of result.ranking) {
        if (r.isBot || !exists.has(r.playerId)) continue;
        const [user] = await tx.select().from(users).where(eq(users.id, r.playerId)).for('update');
        if (!user) continue;
        const won = result.winnerId === r.playerId;
        const stats = {
          gamesPlayed: user.gamesPlayed + 1,
          gamesWon: user.gamesWon + (won ? 1 : 0),
          totalPoints: user.totalPoints + r.points,
        };
        const unlocked = new Set(user.achievements.map((a) => a.id));
        const fresh = achievementsFor(stats)
          .filter((id) => !unlocked.has(id))
          .map((id) => ({ id, unlockedAt: new Date().toISOString() }));
        await tx
          .update(users)
          .set({
            ...stats,
            fastestGame:
              won && (user.fastestGame === null || durationSeconds < user.fastestGame)
                ? durationSeconds
                : user.fastestGame,
            botGamesPlayed: user.botGamesPlayed + (game.isBotGame ? 1 : 0),
            totalGameSeconds: user.totalGameSeconds + durationSeconds,
            achievements: [...user.achievements, ...fresh],
            updatedAt: new Date(),
          })
          .where(eq(users.id, user.id));
      }
    });
  }
}
