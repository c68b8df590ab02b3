/**
 * A rematch: a player of a finished game opens a new lobby with the same settings and bots, and
 * every other person of that game is offered a seat in it (`rematchOffered`, to their sockets on
 * any node). The offer lives as long as the lobby: joining it is an ordinary join.
 */
import type { GameSetup } from '@memeslam/protocol';
import type { Db } from '../db/client.ts';
import { finishedGame } from './records.ts';
import type { Entry, GameRequest, Transport, User } from './requests.ts';
import { type Outcome, fail, ok } from './types.ts';

export interface RematchDeps {
  readonly db: Db;
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
  const created = await deps.handle(user, { type: 'create', setup: stored.game.settings as GameSetup });
  if (!created.ok) return created;
  const offer = {
    gameId: stored.game.id,
    roomCode: created.data.roomCode,
    by: { userId: user.id, username: user.username },
  };
  for (const seat of stored.seats) {
    if (!seat.isBot && seat.userId && seat.userId !== user.id)
      deps.transport()?.toUser(seat.userId, 'rematchOffered', offer);
  }
  return ok(created.data);
}
