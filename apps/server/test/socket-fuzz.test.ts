/**
 * Hostile sockets: over 10,000 random payloads to every event (and to made-up ones) leave the
 * server answering every one with an ack, healthy, and a game in play elsewhere untouched. Then
 * the 30 events/s budget per socket.
 */
import { POWER_UP_TYPES } from '@memeslam/engine';
import { CLIENT_EVENT_NAMES, LOBBY_TEXTS } from '@memeslam/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { type Client, connect } from './helpers/sockets.ts';

const field = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('BOMB', 'FREEZE', 'SNIPER', 'ABC234', 'bot-1', '__proto__', "' OR 1=1 --", 'x'.repeat(70)),
  fc.anything({ maxDepth: 2 }),
);
const payload = fc.oneof(
  fc.record(
    {
      roomCode: field,
      cardId: field,
      pileIndex: fc.oneof(fc.integer({ min: -3, max: 6 }), field),
      powerUpType: fc.oneof(fc.constantFrom(...POWER_UP_TYPES), field),
      targetPlayerId: field,
      targetData: fc.oneof(field, fc.record({ pileIndex: field, cardId: field }, { requiredKeys: [] })),
      isReady: fc.oneof(fc.boolean(), field),
      numberOfBots: fc.oneof(fc.integer({ min: -1, max: 7 }), field),
      maxPlayers: fc.oneof(fc.integer({ min: 0, max: 8 }), field),
      gameId: field,
      reason: fc.oneof(fc.constantFrom('playerLeft', 'returnToDashboard'), field),
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 3 }),
  fc.constant(undefined),
  fc.constant('x'.repeat(20_000)),
);
const eventName = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...CLIENT_EVENT_NAMES) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('constructor', '__proto__', 'toString')),
  },
);

describe.each(DATABASE_MODES)('hostile sockets on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, { RATE_LIMITS: 'off' }, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function person(prefix: string, env?: Booted) {
    const target = env ?? server;
    const res = await call(target.base, 'POST', '/auth/register', { body: newAccount(prefix) });
    const client = await connect(target.base, res.body.data.token);
    clients.push(client);
    return client;
  }

  it('10,000+ random events: every one acked, the server healthy, another game unchanged', async () => {
    // A game in play that nobody touches during the storm.
    const host = await person('calmhost');
    const guest = await person('calmguest');
    const created = await host.emit('createGame', { maxPlayers: 2 });
    await guest.emit('joinGame', { roomCode: created.data.roomCode });
    await host.emit('setPlayerReady', { isReady: true });
    await guest.emit('setPlayerReady', { isReady: true });
    await host.emit('startGame', {});
    clock.advance(5000);
    await host.waitFor('handDealt');
    const before = await Promise.all([host.emit('requestHand', {}), guest.emit('requestHand', {})]);

    const fuzzers = await Promise.all(Array.from({ length: 10 }, (_, i) => person(`fuzz${i}`)));
    const samples = fc.sample(fc.tuple(eventName, payload), { numRuns: 10_200, seed: 4242 });
    let acked = 0;
    await Promise.all(
      fuzzers.map(async (client, k) => {
        for (let i = k; i < samples.length; i += fuzzers.length) {
          const [event, body] = samples[i] as [string, unknown];
          const answer = await client.emit(event, body);
          expect(typeof answer.success).toBe('boolean');
          if (!answer.success) expect(typeof answer.error).toBe('string');
          acked += 1;
        }
      }),
    );
    expect(acked).toBe(samples.length);

    const health = await fetch(`${server.base}/health`);
    expect(health.status).toBe(200);
    const after = await Promise.all([host.emit('requestHand', {}), guest.emit('requestHand', {})]);
    expect(after.map((a) => a.data.hand)).toEqual(before.map((b) => b.data.hand));
    expect(after[0].data.gameState.discardPiles).toEqual(before[0].data.gameState.discardPiles);
    expect(after[0].data.gameState.players).toEqual(before[0].data.gameState.players);
    // And it still plays.
    const fresh = await person('after');
    expect((await fresh.emit('create-bot-game', { numberOfBots: 1 })).success).toBe(true);
  }, 180_000);

  it('sockets over 30 events a second are told to slow down (rate limits on)', async () => {
    const limited = await boot(mode, { RATE_LIMITS: 'on' }, { clock });
    try {
      const client = await person('spammer', limited);
      const answers = await Promise.all(Array.from({ length: 40 }, () => client.emit('getPowerUpStatus', {})));
      const refused = answers.filter((a) => a.error === LOBBY_TEXTS.tooManyEvents);
      expect(refused.length).toBeGreaterThanOrEqual(10);
      expect(answers.filter((a) => a.error === LOBBY_TEXTS.notInGame).length).toBeLessThanOrEqual(30);
      client.close();
    } finally {
      await limited.close();
    }
  });
});
