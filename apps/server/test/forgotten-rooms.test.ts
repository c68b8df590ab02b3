/**
 * A finished game's room outlives its game by a minute only (games/finished-rooms.ts): recorded, it
 * stays findable for its players' result screens, then it is forgotten — unfindable here, and no
 * socket left in its channel (each player's socket had stayed in it). Counted by the server's own
 * figures (GET /metrics `held`), on a clock moved by hand.
 */
import { TIME_CAP_MS } from '@memeslam/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { type Booted, DATABASE_MODES, boot } from './helpers/boot.ts';
import { type Client, newPerson } from './helpers/sockets.ts';

describe.each(DATABASE_MODES)('a finished room is forgotten a minute after its record (%s)', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const held = async () =>
    ((await (await fetch(`${server.base}/metrics?format=json`)).json()) as { held: Record<string, number> }).held;

  it('keeps the room and its channel a minute after the record, then neither', async () => {
    const { client } = await newPerson(server.base, 'forget', clients);
    expect((await client.emit('createGame', { withBots: true, numberOfBots: 1, maxPlayers: 2 })).success).toBe(true);
    expect((await client.emit('setPlayerReady', { isReady: true })).success).toBe(true);
    expect((await client.emit('startGame', {})).success).toBe(true);
    clock.advance(5000);
    await client.waitFor('gameStarted');
    // Nobody plays on: the time cap ends the game.
    for (let ms = 0; ms <= TIME_CAP_MS; ms += 60_000) clock.advance(60_000);
    await client.waitFor('gameEnded');
    // Recorded: the room is kept, and the socket is still in the game's channel (its own room, its
    // user's channel and the game's).
    await vi.waitFor(async () => expect(await held()).toMatchObject({ finishedRoomsKept: 1, rooms: 1 }), {
      timeout: 10_000,
    });
    expect((await held()).socketIoRooms).toBe(3);
    clock.advance(59_000);
    expect(await held()).toMatchObject({ finishedRoomsKept: 1, rooms: 1 });
    clock.advance(1000);
    await vi.waitFor(async () =>
      expect(await held()).toMatchObject({ finishedRoomsKept: 0, rooms: 0, roomCodes: 0, seats: 0, socketIoRooms: 2 }),
    );
  });
});
