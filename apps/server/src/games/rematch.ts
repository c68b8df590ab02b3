/**
 * A rematch: a player of a finished game opens a new lobby with the same settings and bots, and
 * every other person of that game is offered a seat in it (`rematchOffered`, to their sockets on
 * any node). Joining it is an ordinary join, but for its first REMATCH_HOLD_MS the lobby is held for
 * the previous game's players: anyone else is refused (REMATCH_HELD). A game may be offered for a
 * rematch within REMATCH_OFFER_WINDOW_MS of its end and at most REMATCH_OFFERS_MAX times, counted in
 * `games.rematch_offers` by one conditional UPDATE, so two nodes cannot both pass the last one
 * (docs/privacy.md).
 */
import { type GameSetup, REMATCH_OFFERS_MAX, REMATCH_OFFER_WINDOW_MS } from '@memeslam/protocol';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { games } from '../db/schema.ts';
import { finishedGame } from './records.ts';
import type { Entry, GameRequest, Transport, User } from './requests.ts';
import { type Outcome, fail, ok } from './types.ts';

export interface RematchDeps {
  readonly db: Db;
  /** The game clock's time: the one `games.finished_at` is written with. */
  now(): number;
  /** The games' one door (a rematch's lobby is created like any other). */
  handle(user: User, request: GameRequest & { type: 'create' }): Promise<Outcome<Entry>>;
  readonly transport: () => Transport | null;
}

export async function offerRematch(deps: RematchDeps, user: User, gameId: string): Promise<Outcome<Entry>> {
  const stored = await finishedGame(deps.db, gameId);
  // Someone who did not play it is told what anyone is told of a game they cannot see.
  if (!stored || stored.game.status !== 'finished' || !stored.seats.some((s) => !s.isBot && s.userId === user.id)) {
    return fail('GAME_NOT_FOUND');
  }
  const id = stored.game.id;
  const since = new Date(deps.now() - REMATCH_OFFER_WINDOW_MS);
  // One statement decides: within the window and under the count, or refused (no new offer is sent).
  const [counted] = await deps.db
    .update(games)
    .set({ rematchOffers: sql`${games.rematchOffers} + 1` })
    .where(
      and(
        eq(games.id, id),
        eq(games.status, 'finished'),
        lt(games.rematchOffers, REMATCH_OFFERS_MAX),
        gt(games.finishedAt, since),
      ),
    )
    .returning({ offers: games.rematchOffers });
  if (!counted) {
    const finishedAt = stored.game.finishedAt;
    return fail(!finishedAt || finishedAt <= since ? 'REMATCH_EXPIRED' : 'REMATCH_LIMIT');
  }
  const previous = stored.seats.flatMap((s) => (!s.isBot && s.userId ? [s.userId] : []));
  const created = await deps.handle(user, {
    type: 'create',
    setup: stored.game.settings as GameSetup,
    holdFor: previous,
  });
  if (!created.ok) {
    // No lobby, no offer: the count is given back.
    await deps.db
      .update(games)
      .set({ rematchOffers: sql`${games.rematchOffers} - 1` })
      .where(and(eq(games.id, id), gt(games.rematchOffers, 0)));
    return created;
  }
  const offer = {
    gameId: id,
    roomCode: created.data.roomCode,
    by: { userId: user.id, username: user.username },
  };
  for (const userId of previous) {
    if (userId !== user.id) deps.transport()?.toUser(userId, 'rematchOffered', offer);
  }
  return ok(created.data);
}
