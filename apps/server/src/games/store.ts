/**
 * Games in the database: the row made when a room opens, snapshots of live rooms, and the one
 * transaction that records a finished game — ranking, seats, replay, and every human's stats.
 */
import { achievementsFor } from '@memeslam/protocol';
import { type Card, type GameResult, type GameState, type PlayerState, cardById } from '@memeslam/engine';
import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { gamePlayers, games, replays, users } from '../db/schema.ts';
import { DELETED_USERNAME, isUuid } from '../users/repository.ts';
import type { GameRoom } from './room.ts';
import { type RoomSnapshot, sha256Hex } from './types.ts';

/** A snapshot as stored: every card of the engine state by its id, which is about a third the size. */
type StoredCard = string;
interface StoredState extends Omit<GameState, 'players' | 'piles' | 'stock'> {
  players: (Omit<PlayerState, 'hand' | 'deck'> & { hand: StoredCard[]; deck: StoredCard[] })[];
  piles: StoredCard[][];
  stock: StoredCard[];
}

const ids = (cards: readonly Card[]) => cards.map((c) => c.id);
function cards(stored: readonly StoredCard[]): Card[] {
  return stored.map((id) => {
    const card = cardById(id);
    if (!card) throw new Error(`snapshot holds an unknown card ${id}`);
    return card;
  });
}

export function compactSnapshot(snapshot: RoomSnapshot): object {
  const state = snapshot.engine;
  if (!state) return snapshot;
  const engine: StoredState = {
    ...state,
    players: state.players.map((p) => ({ ...p, hand: ids(p.hand), deck: ids(p.deck) })),
    piles: state.piles.map(ids),
    stock: ids(state.stock),
  };
  return { ...snapshot, engine };
}

export function expandSnapshot(stored: object): RoomSnapshot {
  const snapshot = stored as Omit<RoomSnapshot, 'engine'> & { engine: StoredState | null };
  const state = snapshot.engine;
  if (!state) return snapshot as RoomSnapshot;
  return {
    ...snapshot,
    engine: {
      ...state,
      players: state.players.map((p) => ({ ...p, hand: cards(p.hand), deck: cards(p.deck) })),
      piles: state.piles.map(cards),
      stock: cards(state.stock),
    },
  };
}

export class GameStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async insert(room: GameRoom): Promise<void> {
    await this.#db.insert(games).values({
      id: room.id,
      roomCode: room.roomCode,
      status: room.status,
      hostId: room.hostId,
      isBotGame: room.isBotGame,
      settings: room.setup as unknown as Record<string, unknown>,
      snapshot: compactSnapshot(room.snapshot()),
      snapshotAt: new Date(),
    });
  }

  async saveSnapshot(room: GameRoom): Promise<void> {
    await this.saveSnapshots([room]);
  }

  /**
   * Many rooms' snapshots in one statement: the embedded database pays its per-statement cost once
   * per batch rather than once per room. Rows of finished games are left alone.
   */
  async saveSnapshots(rooms: readonly GameRoom[]): Promise<void> {
    if (rooms.length === 0) return;
    const rows = rooms.map((room) => {
      const snapshot = room.snapshot();
      const startedAt = snapshot.engine
        ? new Date(snapshot.engine.startedAt + snapshot.clockOffset).toISOString()
        : null;
      return sql`(${room.id}::uuid, ${snapshot.status}, ${JSON.stringify(compactSnapshot(snapshot))}::json,
        ${new Date(snapshot.savedAt).toISOString()}::timestamptz, ${isUuid(snapshot.hostId) ? snapshot.hostId : null}::uuid,
        ${snapshot.seed ? sha256Hex(snapshot.seed) : null}::text, ${startedAt}::timestamptz)`;
    });
    await this.#db.execute(sql`
      update ${games} as g set
        status = v.status, snapshot = v.snapshot, snapshot_at = v.snapshot_at, host_id = v.host_id,
        seed_commitment = v.seed_commitment, started_at = v.started_at
      from (values ${sql.join(rows, sql`, `)}) as v(id, status, snapshot, snapshot_at, host_id, seed_commitment, started_at)
      where g.id = v.id and g.status <> 'finished'`);
  }

  /** A lobby that emptied before the deal: kept as an aborted game of nobody. */
  async close(room: GameRoom): Promise<void> {
    await this.#db
      .update(games)
      .set({ status: 'finished', endReason: 'aborted', snapshot: null, finishedAt: new Date() })
      .where(eq(games.id, room.id));
  }

  /** Rooms to bring back after a restart. */
  async unfinished(): Promise<RoomSnapshot[]> {
    const rows = await this.#db
      .select({ snapshot: games.snapshot })
      .from(games)
      // A finished game's snapshot is cleared by the transaction that records it: any left is pending.
      .where(isNotNull(games.snapshot));
    return rows.map((r) => expandSnapshot(r.snapshot as object));
  }

  /**
   * One transaction: the game's result, its seats, the replay, and each human's stats, points and
   * achievements. Aborted games are recorded but give no stats or points (DESIGN §2).
   */
  async finish(room: GameRoom): Promise<void> {
    const state = room.engine;
    const result = state?.result as GameResult | undefined;
    if (!state || !result || !room.seed) return;
    const durationSeconds = Math.round(result.durationMs / 1000);
    const humans = room.seats.filter((s) => s.bot === null);
    await this.#db.transaction(async (tx) => {
      const [updated] = await tx
        .update(games)
        .set({
          status: 'finished',
          winnerId: result.winnerId && isUuid(result.winnerId) ? result.winnerId : null,
          endReason: result.reason,
          durationMs: result.durationMs,
          seed: room.seed,
          seedCommitment: sha256Hex(room.seed as string),
          snapshot: null,
          startedAt: new Date(state.startedAt + room.clockOffset),
          finishedAt: new Date(result.endedAt + room.clockOffset),
        })
        .where(and(eq(games.id, room.id), ne(games.status, 'finished')))
        .returning({ id: games.id });
      // Already recorded (a retry after a lost answer): nothing more to do.
      if (!updated) return;

      // Accounts deleted during the game keep an anonymous seat.
      const humanIds = humans.map((h) => h.playerId).filter(isUuid);
      const living =
        humanIds.length > 0 ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, humanIds)) : [];
      const exists = new Set(living.map((u) => u.id));
      await tx.insert(gamePlayers).values(
        result.ranking.map((r) => {
          const seat = room.seats.findIndex((s) => s.playerId === r.playerId);
          const gone = !r.isBot && !exists.has(r.playerId);
          return {
            gameId: room.id,
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
      await tx.insert(replays).values({ gameId: room.id, config: state.config, commands: room.commands });

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
            botGamesPlayed: user.botGamesPlayed + (room.isBotGame ? 1 : 0),
            totalGameSeconds: user.totalGameSeconds + durationSeconds,
            achievements: [...user.achievements, ...fresh],
            updatedAt: new Date(),
          })
          .where(eq(users.id, user.id));
      }
    });
  }
}
