/** A game's row as a new lobby writes it, for the suites that test GameStore's statements directly. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import type { GameStore } from '../../src/games/store.ts';

/** A user to host games (a bare account row named `name`); its id. */
export async function newHost(db: Db, name: string): Promise<string> {
  const { rows } = (await db.execute(
    sql`insert into users (username, email, password_hash) values (${name}, ${`${name}@example.com`}, 'x') returning id`,
  )) as unknown as { rows: { id: string }[] };
  return (rows[0] as { id: string }).id;
}

/** Writes an active lobby's row for a game hosted by `hostId`; its id (`id` or a new one). */
export async function insertGameRow(
  store: GameStore,
  game: { roomCode: string; hostId: string; hostName: string; id?: string },
): Promise<string> {
  const id = game.id ?? randomUUID();
  await store.insert({
    id,
    roomCode: game.roomCode,
    hostId: game.hostId,
    isBotGame: false,
    setup: {} as never,
    lobby: {
      hostId: game.hostId,
      hostName: game.hostName,
      status: 'active',
      seats: [],
      startsAt: null,
      autoStartAt: null,
      seq: 0,
      savedAt: 0,
    },
  });
  return id;
}
