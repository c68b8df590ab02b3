/**
 * Ratings: a finished game between people moves its players' Glicko-2 ratings, pairwise by
 * place (packages/engine/src/rating.ts). Games with a bot, or aborted, move none.
 */
import { type GameResult, INITIAL_RATING, rateGame } from '@memeslam/engine';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { isUuid } from '../users/repository.ts';

/** What the record writes for a rated player: the game_players columns and the user's new rating. */
export interface RatedSeat {
  readonly rating_before: number;
  readonly rating_after: number;
  readonly deviation_after: number;
  readonly volatility_after: number;
}

/** Whether a result moves ratings: people only (at least two), not aborted. */
export function isRated(result: GameResult): boolean {
  return (
    result.reason !== 'aborted' &&
    result.ranking.length >= 2 &&
    result.ranking.every((r) => !r.isBot && isUuid(r.playerId))
  );
}

/**
 * The players' ratings now and after the game, by player id (empty for an unrated game). A player
 * whose account is gone counts as a new player's rating for the others.
 *
 * Read here, written by the game's record: records run one at a time on a node, and a person sits
 * in one unfinished game at a time. (One who forfeited a game may sit down elsewhere while it goes
 * on: two such records landing at the same instant on two nodes could lose one update.)
 */
export async function ratingsAfter(db: Db, result: GameResult): Promise<Map<string, RatedSeat>> {
  if (!isRated(result)) return new Map();
  const ids = result.ranking.map((r) => r.playerId);
  const rows = await db
    .select({
      id: users.id,
      rating: users.rating,
      deviation: users.ratingDeviation,
      volatility: users.ratingVolatility,
    })
    .from(users)
    .where(inArray(users.id, ids));
  const before = new Map(rows.map(({ id, ...rating }) => [id, rating]));
  const after = rateGame(
    result.ranking.map((r) => ({ id: r.playerId, place: r.place, before: before.get(r.playerId) ?? INITIAL_RATING })),
  );
  return new Map(
    [...after].map(([id, rating]) => [
      id,
      {
        rating_before: (before.get(id) ?? INITIAL_RATING).rating,
        rating_after: rating.rating,
        deviation_after: rating.deviation,
        volatility_after: rating.volatility,
      },
    ]),
  );
}
