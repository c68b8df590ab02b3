/**
 * Headers, origins and observability over real HTTP and sockets: helmet's
 * Content-Security-Policy, nosniff, frame-ancestors 'none' and Referrer-Policy on a page and on an
 * API answer; CORS and socket.io accept PUBLIC_URL's origin (or ALLOWED_ORIGINS) and refuse others;
 * TRUST_PROXY makes X-Forwarded-For the address rate limits and /metrics see; /metrics speaks
 * Prometheus' text format to loopback or a METRICS_TOKEN bearer only; request lines carry a request
 * id and a game's lines its game id.
 */
import { GAME_TEXTS, REFUSAL_TEXTS } from '@memeslam/protocol';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { ENGINE_RULES, type Rules } from '../src/games/types.ts';
import { type Booted, boot, call, newAccount } from './helpers/boot.ts';
import { type Client, connect } from './helpers/sockets.ts';

const PUBLIC_ORIGIN = 'http://memeslam.test';
const FOREIGN = 'https://evil.example';
const TOKEN = 'metrics-token-0123456789abcdef';

/**
 * A socket.io handshake sent with this Origin header: resolves to whether it connected. One that does
 * neither within 15 s fails with what its connection went through (a CI run once saw one hang).
 */
function handshake(base: string, token: string, origin: string, transport: 'websocket' | 'polling') {
  const socket = io(base, {
    auth: { token },
    transports: [transport],
    reconnection: false,
    forceNew: true,
    extraHeaders: { origin },
  });
  const seen: string[] = [];
  for (const event of ['open', 'error', 'close', 'packet'] as const) {
    socket.io.on(event, (detail?: unknown) =>
      seen.push(`${event}${event === 'packet' ? ` ${JSON.stringify(detail)}` : ''}`),
    );
  }
  let stuck: ReturnType<typeof setTimeout> | undefined;
  return new Promise<boolean>((resolve, reject) => {
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', () => resolve(false));
    stuck = setTimeout(() => {
      const state = `manager ${socket.io._readyState}, engine ${socket.io.engine?.readyState ?? 'none'}`;
      reject(
        new Error(
          `a ${transport} handshake from ${origin} did not end in 15 s (${state}; saw: ${seen.join(', ') || 'nothing'})`,
        ),
      );
    }, 15_000);
  }).finally(() => {
    clearTimeout(stuck);
    socket.disconnect();
  });
}

/** Prometheus text: every sample line parsed as name, labels and value. */
function parsePrometheus(text: string): { name: string; labels: string; value: number }[] {
  const samples: { name: string; labels: string; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.push({ name: match[1] as string, labels: match[2] ?? '', value: Number(match[3]) });
  }
  return samples;
}

describe('headers and origins', () => {
  let server: Booted;
  let token: string;
  beforeAll(async () => {
    server = await boot('embedded');
    token = (await call(server.base, 'POST', '/auth/register', { body: newAccount('origin') })).body.data.token;
  });
  afterAll(() => server.close());

  it('a page and an API answer carry the CSP, nosniff, frame-ancestors none and a Referrer-Policy', async () => {
    for (const res of [await fetch(`${server.base}/dashboard`), await fetch(`${server.base}/api/tournaments`)]) {
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
      );
      expect(directives).toMatchObject({
        'default-src': "'self'",
        'script-src': "'self'",
        'script-src-attr': "'none'",
        'object-src': "'none'",
        'frame-ancestors': "'none'",
        'base-uri': "'self'",
        'connect-src': "'self'",
        'worker-src': "'self' blob:",
      });
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // Plain-HTTP PUBLIC_URL: no HSTS (an install on http must stay reachable).
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it("CORS: PUBLIC_URL's origin is allowed, a foreign one gets no CORS headers", async () => {
    const allowed = await call(server.base, 'GET', '/tournaments', { headers: { origin: PUBLIC_ORIGIN } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PUBLIC_ORIGIN);
    const foreign = await call(server.base, 'GET', '/tournaments', { headers: { origin: FOREIGN } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const preflight = (origin: string) =>
      fetch(`${server.base}/api/auth/login`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
    const ok = await preflight(PUBLIC_ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(PUBLIC_ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    const refused = await preflight(FOREIGN);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("socket.io: a handshake from a foreign Origin is refused; PUBLIC_URL's and the page's own are accepted", async () => {
    for (const transport of ['websocket', 'polling'] as const) {
      expect(await handshake(server.base, token, FOREIGN, transport)).toBe(false);
      expect(await handshake(server.base, token, PUBLIC_ORIGIN, transport)).toBe(true);
      // A page served by this server itself (its Origin names the host it talks to).
      expect(await handshake(server.base, token, server.base, transport)).toBe(true);
    }
    // Clients that send no Origin at all (no browser: bots, scripts) still connect.
    const plain: Client = await connect(server.base, token);
    plain.close();
  });
});

describe('ALLOWED_ORIGINS and TRUST_PROXY', () => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot('embedded', {
      ALLOWED_ORIGINS: 'https://play.example, https://beta.play.example/',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMITS: 'on',
    });
  });
  afterAll(() => server.close());

  it('the configured list replaces the default', async () => {
    const token = (await call(server.base, 'POST', '/auth/register', { body: newAccount('listed') })).body.data.token;
    const origin = async (value: string) =>
      (await call(server.base, 'GET', '/tournaments', { headers: { origin: value } })).headers.get(
        'access-control-allow-origin',
      );
    expect(await origin('https://beta.play.example')).toBe('https://beta.play.example');
    expect(await origin('https://play.example')).toBe('https://play.example');
    expect(await origin(PUBLIC_ORIGIN)).toBeNull();
    expect(await handshake(server.base, token, 'https://play.example', 'websocket')).toBe(true);
    expect(await handshake(server.base, token, FOREIGN, 'websocket')).toBe(false);
  });

  it('behind the trusted proxy, rate limits count per X-Forwarded-For client', async () => {
    const register = (client: string) =>
      call(server.base, 'POST', '/auth/register', {
        body: newAccount('proxied'),
        headers: { 'x-forwarded-for': client },
      });
    const first = '203.0.113.10';
    let refusedAt = 0;
    for (let n = 1; n <= 20 && refusedAt === 0; n += 1) {
      if ((await register(first)).status === 429) refusedAt = n;
    }
    expect(refusedAt).toBeGreaterThan(1);
    expect((await register(first)).status).toBe(429);
    // Another client behind the same proxy has its own count.
    expect((await register('203.0.113.11')).status).toBe(201);
    // The refusals are counted on /metrics (the proxy's loopback address is not the client's: a token
    // is not configured here, so /metrics is closed to the forwarded client).
    expect((await fetch(`${server.base}/metrics`, { headers: { 'x-forwarded-for': first } })).status).toBe(404);
    const text = await (await fetch(`${server.base}/metrics`)).text();
    const refusals = parsePrometheus(text).find(
      (s) => s.name === 'memeslam_rate_limit_refusals_total' && s.labels === '{scope="http"}',
    );
    expect(refusals?.value).toBeGreaterThanOrEqual(2);
  });
});

describe('without TRUST_PROXY', () => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot('embedded', { RATE_LIMITS: 'on' });
  });
  afterAll(() => server.close());

  it('X-Forwarded-For is ignored: every request is the connecting address', async () => {
    const register = (client: string) =>
      call(server.base, 'POST', '/auth/register', {
        body: newAccount('direct'),
        headers: { 'x-forwarded-for': client },
      });
    let refused = false;
    for (let n = 1; n <= 20 && !refused; n += 1) refused = (await register(`203.0.113.${n}`)).status === 429;
    expect(refused).toBe(true);
    expect((await fetch(`${server.base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(200);
  });
});

describe('/metrics', () => {
  let server: Booted;
  const clock = new ManualClock();
  const lines: Record<string, unknown>[] = [];
  const faulty = 'fa17'.padEnd(32, '2');
  let drawn = 0;
  /** Once set, the faulty game's commands throw. */
  let faultOn = false;
  const rules: Rules = {
    ...ENGINE_RULES,
    apply: (state, command, now) => {
      if (faultOn && state.config.seed === faulty) throw new Error('injected fault in apply');
      return ENGINE_RULES.apply(state, command, now);
    },
  };
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(
      'embedded',
      { TRUST_PROXY: 'loopback', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'debug' },
      {
        clock,
        rules,
        seeds: () => ((drawn += 1) === 1 ? faulty : drawn.toString(16).padStart(32, 'b')),
        logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) },
      },
    );
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  it('Prometheus text with every listed figure; loopback or the bearer token only', async () => {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount('metric') });
    const client = await connect(server.base, res.body.data.token as string);
    clients.push(client);
    // One command answered (an ack) so that the latency histogram has a sample: a refusal, as this
    // account sits in no game.
    expect(await client.emit('getPowerUpStatus')).toMatchObject({
      success: false,
      code: 'NOT_IN_GAME',
      error: REFUSAL_TEXTS.NOT_IN_GAME,
    });

    const local = await fetch(`${server.base}/metrics`);
    expect(local.status).toBe(200);
    expect(local.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(await local.text());
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'memeslam_socket_ack_seconds_bucket',
      'memeslam_socket_ack_seconds_count',
      'memeslam_event_loop_delay_p99_seconds',
      'memeslam_event_loop_delay_max_seconds',
      'memeslam_live_rooms',
      'memeslam_sockets',
      'memeslam_games_recorded_total',
      'memeslam_tournament_payouts_total',
      'memeslam_rate_limit_refusals_total',
      'memeslam_heap_used_bytes',
      'memeslam_cpu_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
    const value = (name: string, labels = '') => samples.find((s) => s.name === name && s.labels === labels)?.value;
    expect(value('memeslam_sockets')).toBe(1);
    expect(value('memeslam_socket_ack_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value('memeslam_socket_ack_seconds_bucket', '{le="+Inf"}')).toBe(value('memeslam_socket_ack_seconds_count'));
    expect(value('memeslam_tournament_payouts_total', '{result="failed"}')).toBe(0);

    // From elsewhere (X-Forwarded-For through the trusted proxy): refused without the token.
    const remote = { 'x-forwarded-for': '198.51.100.7' };
    expect((await fetch(`${server.base}/metrics`, { headers: remote })).status).toBe(404);
    expect(
      (await fetch(`${server.base}/metrics`, { headers: { ...remote, authorization: `Bearer ${TOKEN}x` } })).status,
    ).toBe(404);
    expect((await fetch(`${server.base}/metrics`, { headers: { ...remote, authorization: TOKEN } })).status).toBe(404);
    const withToken = await fetch(`${server.base}/metrics`, {
      headers: { ...remote, authorization: `Bearer ${TOKEN}` },
    });
    expect(withToken.status).toBe(200);
    expect(parsePrometheus(await withToken.text()).length).toBeGreaterThan(10);
    // The benchmark's windowed figures, under the same rule.
    expect((await fetch(`${server.base}/metrics?format=json`, { headers: remote })).status).toBe(404);
    const json = (await (await fetch(`${server.base}/metrics?format=json`)).json()) as Record<string, unknown>;
    expect(json).toMatchObject({ sockets: 1, rooms: 0, commands: { count: expect.any(Number) } });
  });

  it("request lines carry the request id (the proxy's or a new one, also in the answer)", async () => {
    const given = await fetch(`${server.base}/api/tournaments`, { headers: { 'x-request-id': 'nginx-req-42' } });
    expect(given.headers.get('x-request-id')).toBe('nginx-req-42');
    const fresh = await fetch(`${server.base}/api/tournaments`);
    const id = fresh.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // An id that is not one (too long, odd characters) is replaced.
    const odd = await fetch(`${server.base}/health`, { headers: { 'x-request-id': 'a b'.repeat(40) } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const reqId of ['nginx-req-42', id]) {
      await expect
        .poll(() => lines.filter((l) => l.reqId === reqId).map((l) => l.msg))
        .toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    }
  });

  it("a game's lines carry its game id; recorded games are counted", async () => {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount('logged') });
    const client = await connect(server.base, res.body.data.token as string);
    clients.push(client);
    const created = await client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'fast',
      autoStart: true,
      cardsPerPlayer: 20,
    });
    expect(created.success).toBe(true);
    const gameId = created.data.gameId as string;
    clock.advance(1000);
    await client.waitFor('gameStarting', (p) => p.gameId === gameId);
    clock.advance(5000);
    await client.waitFor('gameStarted', (p) => p.gameId === gameId);
    // The first seed drawn is the faulty one: its next command throws and the game is stopped.
    faultOn = true;
    expect(await client.emit('checkDeadlock', {})).toEqual({
      success: false,
      error: GAME_TEXTS.gameStopped,
      code: 'GAME_STOPPED',
    });
    await expect
      .poll(() => lines.find((l) => l.msg === 'a game room failed; its game is aborted'))
      .toMatchObject({ gameId, level: 50 });
    await expect
      .poll(async () => {
        const text = await (await fetch(`${server.base}/metrics`)).text();
        return parsePrometheus(text).find((s) => s.name === 'memeslam_games_recorded_total')?.value;
      })
      .toBe(1);
  });
});
