/**
 * Bounded resources, over real HTTP and sockets against a booted server. The per-IP
 * and per-user caps follow RATE_LIMITS, so they are tested with it on; the server's ceilings are always
 * on and tested with lowered values. No anonymous CPU exhaustion (timed) is tested in abuse-cpu.test.ts.
 */
import { ABUSE_LIMITS, LOBBY_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { pooled, range } from './helpers/pool.ts';
import { type Client, connect } from './helpers/sockets.ts';

async function guest(base: string): Promise<string> {
  const res = await call(base, 'POST', '/auth/demo');
  expect(res.status).toBe(201);
  return res.body.data.token as string;
}

/** A connect attempt: the client, or the connect_error's message. */
async function tryConnect(base: string, token: string): Promise<Client | string> {
  return connect(base, token).catch((error: Error) => error.message);
}

describe.each(DATABASE_MODES)('per-IP and per-user caps (RATE_LIMITS on) on %s', (mode) => {
  let server: Booted;
  const open: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, { RATE_LIMITS: 'on' });
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(() => server.close());

  const keep = (client: Client | string) => {
    if (typeof client === 'string') throw new Error(`refused: ${client}`);
    open.push(client);
    return client;
  };

  // The guests made here serve the socket tests below (the cap leaves no others for this IP).
  const tokens: string[] = [];

  it(`guest accounts: ${ABUSE_LIMITS.guestsPerIpPerHour} an hour per IP, then 429 with a clear text (a flood of 60)`, async () => {
    const answers = await pooled(range(60), 10, () => call(server.base, 'POST', '/auth/demo'));
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(created).toHaveLength(ABUSE_LIMITS.guestsPerIpPerHour);
    expect(refused).toHaveLength(60 - ABUSE_LIMITS.guestsPerIpPerHour);
    expect(refused[0]?.body).toEqual({ success: false, message: SERVER_TEXTS.tooManyGuests });
    // When to come back: within the hour (docs/limits.md).
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await server.app.db.select().from(users)).toHaveLength(ABUSE_LIMITS.guestsPerIpPerHour);
    tokens.push(...created.map((a) => a.body.data.token as string));
  });

  it(`sockets per user: ${ABUSE_LIMITS.socketsPerUser}; the newest wins and the oldest is told why`, async () => {
    const token = tokens[0] as string;
    const first = range(ABUSE_LIMITS.socketsPerUser);
    const clients: Client[] = [];
    for (const _ of first) clients.push(keep(await tryConnect(server.base, token)));
    const oldest = clients[0] as Client;
    const told = oldest.waitFor('error');
    const gone = new Promise<string>((resolve) => oldest.socket.once('disconnect', resolve));
    // A reloaded tab: one more connection is let in, never locked out.
    const newest = keep(await tryConnect(server.base, token));
    expect(await told).toEqual({ message: SERVER_TEXTS.replacedByNewerConnection });
    expect(await gone).toBe('io server disconnect');
    expect(newest.socket.connected).toBe(true);
    expect(clients.slice(1).every((c) => c.socket.connected)).toBe(true);
    expect((await newest.emit('getPowerUpStatus', {})).error).toBe(LOBBY_TEXTS.notInGame);
  });

  it('a flood of connects from one user leaves that user with the cap, all others closed', async () => {
    const token = tokens[1] as string;
    const attempts = await pooled(range(60), 20, () => tryConnect(server.base, token));
    const clients = attempts.filter((a): a is Client => typeof a !== 'string');
    open.push(...clients);
    await vi.waitFor(
      () => expect(clients.filter((c) => c.socket.connected)).toHaveLength(ABUSE_LIMITS.socketsPerUser),
      {
        timeout: 10_000,
      },
    );
  });

  it(`sockets per IP: ${ABUSE_LIMITS.socketsPerIp}, one more is refused at connect; a freed place is taken again`, async () => {
    const perUser = ABUSE_LIMITS.socketsPerUser;
    const needed = Math.ceil(ABUSE_LIMITS.socketsPerIp / perUser);
    expect(tokens.length).toBeGreaterThanOrEqual(needed);
    const clients: Client[] = [];
    for (let i = 0; i < ABUSE_LIMITS.socketsPerIp; i += 1) {
      clients.push(keep(await tryConnect(server.base, tokens[Math.floor(i / perUser)] as string)));
    }
    const other = await call(server.base, 'POST', '/auth/register', { body: newAccount('ipcap') });
    const otherToken = other.body.data.token as string;
    expect(await tryConnect(server.base, otherToken)).toBe(SERVER_TEXTS.tooManyConnections);
    (clients[0] as Client).close();
    await vi.waitFor(
      async () => {
        const again = await tryConnect(server.base, otherToken);
        expect(typeof again).not.toBe('string');
        keep(again);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('one event budget per user across their sockets: many sockets give no more events', async () => {
    const token = tokens[2] as string;
    const clients: Client[] = [];
    for (const _ of range(ABUSE_LIMITS.socketsPerUser)) clients.push(keep(await tryConnect(server.base, token)));
    // 20 each: every socket stays under its own 30 a second, the user does not.
    const answers = (
      await Promise.all(clients.map((c) => Promise.all(range(20).map(() => c.emit('getPowerUpStatus', {})))))
    ).flat();
    const handled = answers.filter((a) => a.error === LOBBY_TEXTS.notInGame).length;
    const refused = answers.filter((a) => a.error === LOBBY_TEXTS.tooManyEvents).length;
    expect(handled + refused).toBe(100);
    // The bucket's burst, and what it refills while the 100 are read (well under a second).
    expect(handled).toBeGreaterThanOrEqual(ABUSE_LIMITS.userEventBurst);
    expect(handled).toBeLessThan(ABUSE_LIMITS.userEventBurst + 15);
  });

  it(`games: ${ABUSE_LIMITS.gamesCreatedPerUserPerMinute} created a minute per user, over sockets and HTTP alike`, async () => {
    const token = tokens[3] as string;
    const client = keep(await tryConnect(server.base, token));
    const answers = [];
    for (const _ of range(ABUSE_LIMITS.gamesCreatedPerUserPerMinute + 5))
      answers.push(await client.emit('createGame', {}));
    const created = answers.filter((a) => a.success).length;
    expect(created).toBe(ABUSE_LIMITS.gamesCreatedPerUserPerMinute);
    expect(answers.at(-1)).toMatchObject({
      success: false,
      error: SERVER_TEXTS.tooManyGamesCreated,
      code: 'TOO_MANY_GAMES',
    });
    const http = await call(server.base, 'POST', '/game/create', { token, body: { settings: {} } });
    expect(http.status).toBe(429);
    expect(http.body).toEqual({ success: false, message: SERVER_TEXTS.tooManyGamesCreated });
    // Another user is not held back by this one.
    const fresh = keep(await tryConnect(server.base, tokens[4] as string));
    expect((await fresh.emit('createGame', {})).success).toBe(true);
  });

  it('reset, forgot and resend: limited per IP, whatever the address', async () => {
    for (const path of ['/auth/forgot-password', '/auth/resend-verification']) {
      const statuses = await pooled(range(ABUSE_LIMITS.mailsPerIpPerHour + 3), 4, (i) =>
        call(server.base, 'POST', path, { body: { email: `someone${i}@example.com` } }).then((r) => r.status),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(ABUSE_LIMITS.mailsPerIpPerHour);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    }
  });
});

describe.each(DATABASE_MODES)('server busy: the ceilings (always on) on %s', (mode) => {
  it('live rooms: beyond the ceiling, creating a game answers "Server busy" (socket ack, HTTP 503)', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' }, { ceilings: { maxLiveRooms: 2 } });
    const clients: Client[] = [];
    try {
      for (const _ of range(2)) {
        const client = await connect(server.base, await guest(server.base));
        clients.push(client);
        expect((await client.emit('createGame', {})).success).toBe(true);
      }
      const third = await guest(server.base);
      const client = await connect(server.base, third);
      clients.push(client);
      expect(await client.emit('createGame', {})).toMatchObject({
        success: false,
        error: SERVER_TEXTS.serverBusy,
        code: 'SERVER_BUSY',
      });
      const http = await call(server.base, 'POST', '/game/create', { token: third, body: { settings: {} } });
      expect(http.status).toBe(503);
      expect(http.body).toEqual({ success: false, message: SERVER_TEXTS.serverBusy });
      // Joining a room that exists is not creating one.
      const code = (clients[0]?.frames.find((f) => f.event === 'gameCreated')?.payload as { roomCode: string })
        .roomCode;
      expect((await client.emit('joinGame', { roomCode: code })).success).toBe(true);
    } finally {
      for (const client of clients) client.close();
      await server.close();
    }
  });

  it('sockets: beyond the ceiling, connect_error "Server busy…"; a freed place is taken again', async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' }, { ceilings: { maxSockets: 3 } });
    const clients: Client[] = [];
    try {
      const token = await guest(server.base);
      for (const _ of range(3)) clients.push(await connect(server.base, token));
      expect(await tryConnect(server.base, token)).toBe(SERVER_TEXTS.serverBusy);
      clients.shift()?.close();
      await vi.waitFor(
        async () => {
          const again = await tryConnect(server.base, token);
          expect(typeof again).not.toBe('string');
          clients.push(again as Client);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      for (const client of clients) client.close();
      await server.close();
    }
  });

  it("HTTP: while the event loop lags past the ceiling, API requests get 503 in the envelope (the web app's files still go out), then recover", async () => {
    const server = await boot(mode, { RATE_LIMITS: 'off' }, { ceilings: { maxEventLoopDelayMs: 50 } });
    // Busy-wait 150 ms out of every 200 (the test and the server share this process).
    const blocker = setInterval(() => {
      const until = performance.now() + 150;
      while (performance.now() < until);
    }, 50);
    try {
      let busy: { status: number; body: unknown } | null = null;
      await vi.waitFor(
        async () => {
          const res = await call(server.base, 'GET', '/auth/leaderboard');
          expect(res.status).toBe(503);
          busy = res;
          // Meanwhile the web app's page and files are still sent, so a page loads and can say so.
          const page = await fetch(`${server.base}/dashboard`);
          expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('MemeSlam')]);
          expect((await fetch(`${server.base}/assets/app.js`)).status).toBe(200);
          expect((await fetch(`${server.base}/health`)).status).toBe(503);
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(busy).toMatchObject({ body: { success: false, message: SERVER_TEXTS.serverBusy } });
      clearInterval(blocker);
      await vi.waitFor(async () => expect((await call(server.base, 'GET', '/auth/leaderboard')).status).toBe(200), {
        timeout: 15_000,
        interval: 200,
      });
    } finally {
      clearInterval(blocker);
      await server.close();
    }
  }, 60_000);
});
