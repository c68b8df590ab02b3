// npm run audit:abuse
//
// Resource bounds and CPU exhaustion: boots a real server process (embedded database, a temporary DATA_DIR, rate
// limits on as in production) and replays the floods that were reproduced against it, from one IP
// (loopback): 60 guest accounts, 2,000 socket connects of one user, 200 sockets × 25 events of one
// user, 1,200 game creations of one guest, and 1,500 bogus password resets with a correct login timed
// while they run. Prints, per flood, what was sent, accepted and refused (by the text it was refused
// with), and the login's latency. Exits 1 when a flood got through unbounded or the login took > 1 s.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ABUSE_LIMITS, type RefusalCode } from '@memeslam/protocol';
import { type Socket, io } from 'socket.io-client';
import { stopChild } from '../../apps/server/test/helpers/children.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Runs `task` for each item with at most `width` in flight. */
async function pooled<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    range(width).map(async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index] as T);
      }
    }),
  );
  return results;
}

// ── the server ──
const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-audit-'));
let server: ChildProcess | null = null;

async function startServer(): Promise<string> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url))], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMITS: 'on',
      REQUIRE_EMAIL_VERIFICATION: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server = child;
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /MemeSlam is served on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function stopServer(): Promise<void> {
  if (server) await stopChild(server);
}

// ── clients ──
let base = '';

async function post(path: string, body?: unknown, token?: string) {
  const started = performance.now();
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { message?: string; data?: { token?: string } };
  return { status: res.status, message: json.message ?? '', token: json.data?.token, ms: performance.now() - started };
}

/** A connected socket, or the connect_error's message. */
function connectSocket(token: string): Promise<Socket | string> {
  const socket = io(base, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}

interface Ack {
  success: boolean;
  error?: string;
  code?: RefusalCode;
}

async function emit(socket: Socket, event: string, payload: unknown, timeoutMs = 5000): Promise<Ack | string> {
  if (!socket.connected) return 'socket closed by the server';
  try {
    return (await socket.timeout(timeoutMs).emitWithAck(event, payload)) as Ack;
  } catch {
    return socket.connected ? 'no answer' : 'socket closed by the server';
  }
}

// ── the report ──
interface Row {
  flood: string;
  sent: number;
  accepted: number;
  refused: Map<string, number>;
  ms: number;
  note: string;
}
const rows: Row[] = [];
const problems: string[] = [];

function tally(outcomes: readonly (string | null)[]): { accepted: number; refused: Map<string, number> } {
  const refused = new Map<string, number>();
  let accepted = 0;
  for (const outcome of outcomes) {
    if (outcome === null) accepted += 1;
    else refused.set(outcome, (refused.get(outcome) ?? 0) + 1);
  }
  return { accepted, refused };
}

async function flood(
  name: string,
  run: () => Promise<{ outcomes: (string | null)[]; note?: string }>,
  check: (accepted: number) => string | null,
): Promise<void> {
  const started = performance.now();
  const { outcomes, note = '' } = await run();
  const ms = performance.now() - started;
  const { accepted, refused } = tally(outcomes);
  rows.push({ flood: name, sent: outcomes.length, accepted, refused, ms, note });
  const problem = check(accepted);
  if (problem) problems.push(`${name}: ${problem}`);
}

async function main(): Promise<void> {
  base = await startServer();
  console.log(`server: ${base} (embedded database, RATE_LIMITS=on)\n`);

  // 1. Guest accounts from one IP.
  const guests: string[] = [];
  await flood(
    '60 guest accounts (POST /auth/demo)',
    async () => ({
      outcomes: await pooled(range(60), 10, async () => {
        const res = await post('/auth/demo');
        if (res.status === 201 && res.token) guests.push(res.token);
        return res.status === 201 ? null : `${res.status} ${res.message}`;
      }),
    }),
    (accepted) =>
      accepted > ABUSE_LIMITS.guestsPerIpPerHour ? `more than ${ABUSE_LIMITS.guestsPerIpPerHour} guests` : null,
  );
  if (guests.length < 3) throw new Error('the audit needs three guest accounts');
  const [connector, eventer, creator] = guests as [string, string, string];

  // 2. Socket connects of one user.
  await flood(
    '2,000 socket connects of one user',
    async () => {
      const sockets: Socket[] = [];
      const outcomes = await pooled(range(2000), 50, async () => {
        const result = await connectSocket(connector);
        if (typeof result === 'string') return `connect_error: ${result}`;
        sockets.push(result);
        return null;
      });
      // Let the server's closes of the oldest arrive.
      const deadline = Date.now() + 5000;
      while (sockets.filter((s) => s.connected).length > ABUSE_LIMITS.socketsPerUser && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const stillOpen = sockets.filter((s) => s.connected).length;
      for (const socket of sockets) socket.close();
      return { outcomes, note: `${stillOpen} still open at the end (the newest win)` };
    },
    () => null,
  );
  const openAfter = Number(/^(\d+)/.exec(rows.at(-1)?.note ?? '')?.[1]);
  if (openAfter > ABUSE_LIMITS.socketsPerUser) problems.push(`sockets: ${openAfter} open for one user`);

  // 3. 200 sockets × 25 events of one user.
  await flood(
    '200 sockets × 25 events of one user',
    async () => {
      const sockets: Socket[] = [];
      for (const _ of range(200)) {
        const result = await connectSocket(eventer);
        if (typeof result !== 'string') sockets.push(result);
      }
      const outcomes = (
        await Promise.all(
          sockets.map((socket) =>
            Promise.all(
              range(25).map(async () => {
                const ack = await emit(socket, 'getPowerUpStatus', {});
                if (typeof ack === 'string') return ack;
                // "Not in a game" is an event handled: the refusal is the rate limit's.
                return ack.success || ack.code === 'NOT_IN_GAME' ? null : (ack.error ?? 'refused');
              }),
            ),
          ),
        )
      ).flat();
      for (const socket of sockets) socket.close();
      return { outcomes, note: `${sockets.length} sockets connected, the server kept ${ABUSE_LIMITS.socketsPerUser}` };
    },
    (accepted) => (accepted > ABUSE_LIMITS.userEventBurst * 3 ? `${accepted} events handled in one burst` : null),
  );

  // 4. Game creations of one guest.
  await flood(
    '1,200 game creations of one guest',
    async () => {
      const socket = await connectSocket(creator);
      if (typeof socket === 'string') throw new Error(`could not connect: ${socket}`);
      const outcomes: (string | null)[] = [];
      for (const _ of range(1200)) {
        const ack = await emit(socket, 'createGame', {});
        outcomes.push(typeof ack === 'string' ? ack : ack.success ? null : (ack.error ?? 'refused'));
      }
      socket.close();
      return { outcomes };
    },
    (accepted) =>
      accepted > ABUSE_LIMITS.gamesCreatedPerUserPerMinute
        ? `more than ${ABUSE_LIMITS.gamesCreatedPerUserPerMinute} games created`
        : null,
  );

  // 5. Bogus password resets, and a correct login while they run.
  const tag = `audit${Date.now().toString(36)}`.slice(0, 20);
  const account = { username: tag, email: `${tag}@example.com`, password: 'correct horse battery 1' };
  const registered = await post('/auth/register', account);
  if (registered.status !== 201) throw new Error(`could not register: ${registered.status} ${registered.message}`);
  let loginMs = Number.NaN;
  let loginStatus = 0;
  await flood(
    '1,500 bogus password resets (one IP)',
    async () => {
      const bogus = { token: 'f'.repeat(64), password: 'a new password 1' };
      const resets = pooled(range(1500), 50, async () => {
        const res = await post('/auth/reset-password', bogus);
        return `${res.status} ${res.message}`;
      });
      // The login starts once the flood is under way.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const login = await post('/auth/login', { email: account.email, password: account.password });
      loginMs = login.ms;
      loginStatus = login.status;
      return { outcomes: await resets, note: `correct login meanwhile: ${login.status} in ${Math.round(login.ms)} ms` };
    },
    // A bogus reset is never accepted: every answer is a refusal.
    (accepted) => (accepted > 0 ? `${accepted} resets accepted` : null),
  );
  if (loginStatus !== 200) problems.push(`the login during the reset flood answered ${loginStatus}`);
  if (!(loginMs <= 1000)) problems.push(`the login during the reset flood took ${Math.round(loginMs)} ms`);

  console.log('| flood | sent | accepted | refused (count × answer) | took ms | note |');
  console.log('| --- | ---: | ---: | --- | ---: | --- |');
  for (const row of rows) {
    const refused = [...row.refused].map(([answer, count]) => `${count} × ${answer}`).join('; ') || '—';
    console.log(`| ${row.flood} | ${row.sent} | ${row.accepted} | ${refused} | ${Math.round(row.ms)} | ${row.note} |`);
  }
  console.log(`\nlogin during the reset flood: ${loginStatus} in ${Math.round(loginMs)} ms (limit 1000 ms)`);
  if (problems.length > 0) {
    console.log(`\nUNBOUNDED:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    process.exitCode = 1;
  } else console.log('\nEvery flood was bounded.');
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
}
