// npm run bench:flash [-- --json --registrations 500 --guests 2000 --seconds 10 --verify-email]
//
// A flash crowd (docs/benchmarks.md, Flash crowd): a real server process as `npm start` runs it (embedded
// PostgreSQL under a temporary DATA_DIR, rate limits on as in production), and this process sending
// 500 registrations and 2,000 guest sign-ins spread evenly over 10 s, every fifth a registration.
// Each client has an address of its own: the server trusts loopback as its proxy (TRUST_PROXY=loopback)
// and each client names its address in X-Forwarded-For (198.18.0.0/15, the benchmarking range), so
// the per-network limits see 2,500 networks — they are not what is measured. A client answered 503
// waits the answer's Retry-After (and up to a second more, at random) and asks again, as the web app
// does, until it succeeds (or 2 minutes pass, the web app's cap). Meanwhile an existing user signs in
// with the right password every 500 ms, each time from another address (with --verify-email its
// address is verified first, by the link the dev outbox prints).
//
// Time to a session: from a client's first request to its success answer (a session's token; with
// --verify-email, REQUIRE_EMAIL_VERIFICATION=true, a registration answers 201 "check your email" with no
// session, and that answer is the measure). Targets: every client succeeds, p99 ≤ 15 s, and every
// sign-in meanwhile answered in ≤ 1 s. Prints the figures, or with --json one JSON object; exits 1
// when a target is missed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUSY_RETRY_MAX_WAIT_MS } from '@memeslam/protocol';
import { metrics, startServerProcess, stopServerProcess } from './server-process.ts';
import { parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const registrations = Number(args.get('registrations') ?? '500');
const guests = Number(args.get('guests') ?? '2000');
const spreadMs = Number(args.get('seconds') ?? '10') * 1000;
const verifyEmail = args.has('verify-email');
const json = args.has('json');
const LOGIN_EVERY_MS = 500;
const TARGET_P99_MS = 15_000;
const TARGET_LOGIN_MS = 1000;
const PASSWORD = 'flash crowd secret 7';

const log = (line: string) => {
  if (!json) console.log(line);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The n-th address of a /15 of the benchmarking range: 198.18.0.0 onwards, then 198.19.…. */
const address = (n: number) => `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;

type Kind = 'register' | 'demo';

interface Outcome {
  readonly kind: Kind;
  readonly ok: boolean;
  /** From the first request to the success answer (or to giving up). */
  readonly ms: number;
  readonly busy: number;
  readonly limited: number;
  readonly errors: number;
  readonly last: string;
}

let base = '';

/**
 * The kernel's count of connections dropped because a listening socket's accept queue was full
 * (TcpExt ListenOverflows, Linux; null elsewhere): a client whose SYN is dropped waits 1, 3, 7… s.
 */
function listenOverflows(): number | null {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const names = lines.find((line) => line.startsWith('TcpExt:'))?.split(' ') ?? [];
    const values = lines.filter((line) => line.startsWith('TcpExt:'))[1]?.split(' ') ?? [];
    const at = names.indexOf('ListenOverflows');
    return at > 0 ? Number(values[at]) : null;
  } catch {
    return null;
  }
}

async function post(path: string, from: string, body?: unknown): Promise<Response> {
  return fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': from, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/** Whether the answer is the client's success: a session, or with verification a registration's "check your email". */
function succeeded(
  kind: Kind,
  status: number,
  body: { success?: boolean; requiresEmailVerification?: boolean; data?: { token?: string } },
) {
  if (status >= 300 || body.success !== true) return false;
  if (kind === 'register' && verifyEmail) return body.requiresEmailVerification === true;
  return typeof body.data?.token === 'string';
}

/** One client: asks until it succeeds, waiting each 503's (and 429's) Retry-After; gives up after the web app's cap. */
async function client(kind: Kind, index: number, tag: string): Promise<Outcome> {
  const from = address(index);
  const username = `fc${tag}${index}`;
  const body = kind === 'register' ? { username, email: `${username}@example.com`, password: PASSWORD } : undefined;
  const started = performance.now();
  let busy = 0;
  let limited = 0;
  let errors = 0;
  let last = '';
  while (performance.now() - started < BUSY_RETRY_MAX_WAIT_MS) {
    let waitMs: number;
    try {
      const response = await post(kind === 'register' ? '/auth/register' : '/auth/demo', from, body);
      const answer = (await response.json()) as Parameters<typeof succeeded>[2] & { message?: string };
      if (succeeded(kind, response.status, answer)) {
        return { kind, ok: true, ms: performance.now() - started, busy, limited, errors, last };
      }
      last = `${response.status} ${answer.message ?? ''}`;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (response.status === 503) busy += 1;
      else if (response.status === 429) limited += 1;
      // Anything else (a 409, a 5xx without Retry-After) is this client's answer: it does not succeed.
      else return { kind, ok: false, ms: performance.now() - started, busy, limited, errors, last };
      if (!(retryAfter > 0)) return { kind, ok: false, ms: performance.now() - started, busy, limited, errors, last };
      waitMs = retryAfter * 1000;
    } catch (error) {
      // No answer at all (a reset connection): counted, and asked again a second later.
      errors += 1;
      last = String(error);
      waitMs = 1000;
    }
    // As the web app (apps/web/src/api/busy.ts): up to a second more at random, so that the clients
    // told the same Retry-After do not come back in the same instant.
    await sleep(waitMs + Math.random() * Math.min(1000, waitMs));
  }
  return { kind, ok: false, ms: performance.now() - started, busy, limited, errors, last };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-flash-'));
  // The server's output, where the dev outbox prints each mail's link (the existing user's, below).
  const stdoutFile = join(dataDir, 'server.out');
  const server = await startServerProcess({
    stdoutFile,
    env: {
      DATA_DIR: dataDir,
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'loopback',
      SMTP_URL: '',
      REQUIRE_EMAIL_VERIFICATION: verifyEmail ? 'true' : 'false',
    },
  });
  base = server.base;
  try {
    const tag = Math.random().toString(36).slice(2, 6);
    const total = registrations + guests;
    // The existing user, registered before the crowd (from an address of its own, past the crowd's).
    const owner = { username: `fcowner${tag}`, email: `fcowner${tag}@example.com`, password: PASSWORD };
    const made = await post('/auth/register', address(total), owner);
    if (made.status !== 201) throw new Error(`the existing user could not register: ${made.status}`);
    // With verification required it signs in only once its address is verified: its mailed link, as
    // the dev outbox printed it.
    if (verifyEmail) {
      const mailed = new RegExp(`Mail to ${owner.email}:.*verify-email\\?token=([^\\s"]+)`);
      const mailedAt = performance.now();
      const link = () => mailed.exec(readFileSync(stdoutFile, 'utf8'))?.[1];
      let token = link();
      while (token === undefined) {
        if (performance.now() - mailedAt > 10_000) throw new Error('no verification mail for the existing user');
        await sleep(50);
        token = link();
      }
      const verified = await post('/auth/verify-email', address(total), { token: decodeURIComponent(token) });
      if (verified.status !== 200) throw new Error(`the existing user could not verify: ${verified.status}`);
    }
    await metrics(base, '?reset=1');
    log(
      `flash crowd: ${registrations} registrations + ${guests} guest sign-ins over ${spreadMs / 1000} s, ` +
        `each from its own address${verifyEmail ? ', e-mail verification required' : ''}; a sign-in every ${LOGIN_EVERY_MS} ms`,
    );

    // Every fifth (of 500 in 2,500) a registration: the kinds spread evenly over the window.
    const every = Math.max(1, Math.round(total / Math.max(1, registrations)));
    const kinds: Kind[] = [];
    for (let i = 0, left = registrations; i < total; i += 1) {
      const register = left > 0 && (i % every === 0 || total - i <= left);
      kinds.push(register ? 'register' : 'demo');
      if (register) left -= 1;
    }
    const overflowsBefore = listenOverflows();
    const began = performance.now();
    let crowdDone = false;
    const logins: { ms: number; status: number }[] = [];
    const signingIn = (async () => {
      for (let n = 0; !crowdDone; n += 1) {
        const next = began + n * LOGIN_EVERY_MS;
        await sleep(Math.max(0, next - performance.now()));
        if (crowdDone) break;
        const at = performance.now();
        const response = await post('/auth/login', address(total + 1 + n), {
          email: owner.email,
          password: owner.password,
        });
        await response.arrayBuffer();
        logins.push({ ms: performance.now() - at, status: response.status });
      }
    })();
    const outcomes = await Promise.all(
      kinds.map(async (kind, i) => {
        await sleep(Math.max(0, began + (i * spreadMs) / total - performance.now()));
        return client(kind, i, tag);
      }),
    );
    crowdDone = true;
    await signingIn;
    const wallMs = performance.now() - began;
    const overflowsAfter = listenOverflows();
    const server_ = await metrics(base);

    const times = outcomes.filter((o) => o.ok).map((o) => o.ms);
    times.sort((a, b) => a - b);
    const loginTimes = logins.map((l) => l.ms).sort((a, b) => a - b);
    const sum = (pick: (o: Outcome) => number) => outcomes.reduce((n, o) => n + pick(o), 0);
    const of = (kind: Kind) => outcomes.filter((o) => o.kind === kind);
    const seconds = (ms: number) => round(ms / 1000, 3);
    const failures = outcomes.filter((o) => !o.ok);
    const report = {
      registrations,
      guests,
      spreadSeconds: spreadMs / 1000,
      verifyEmail,
      succeeded: times.length,
      total,
      registrationsSucceeded: of('register').filter((o) => o.ok).length,
      guestsSucceeded: of('demo').filter((o) => o.ok).length,
      answered503: sum((o) => o.busy),
      clientsAnswered503: outcomes.filter((o) => o.busy > 0).length,
      answered429: sum((o) => o.limited),
      noAnswer: sum((o) => o.errors),
      toSessionSeconds: {
        p50: seconds(percentile(times, 50)),
        p99: seconds(percentile(times, 99)),
        max: seconds(times.at(-1) ?? NaN),
      },
      registrationToSuccessSeconds: (() => {
        const r = of('register')
          .filter((o) => o.ok)
          .map((o) => o.ms)
          .sort((a, b) => a - b);
        return { p50: seconds(percentile(r, 50)), p99: seconds(percentile(r, 99)), max: seconds(r.at(-1) ?? NaN) };
      })(),
      logins: {
        count: logins.length,
        ok: logins.filter((l) => l.status === 200).length,
        p50Ms: round(percentile(loginTimes, 50)),
        maxMs: round(loginTimes.at(-1) ?? NaN),
      },
      serverEventLoopDelayMs: {
        p99: round(server_.eventLoopDelayMs.p99),
        max: round(server_.eventLoopDelayMs.max),
      },
      wallSeconds: seconds(wallMs),
      /** On the whole machine, during the crowd. */
      listenOverflows: overflowsBefore === null || overflowsAfter === null ? null : overflowsAfter - overflowsBefore,
      firstFailures: failures.slice(0, 5).map((o) => `${o.kind}: ${o.last}`),
      targets: {
        everyOneSucceeded: times.length === total,
        p99Within15s: percentile(times, 99) <= TARGET_P99_MS,
        loginsWithin1s: logins.length > 0 && logins.every((l) => l.status === 200 && l.ms <= TARGET_LOGIN_MS),
      },
    };
    if (json) {
      console.log(JSON.stringify(report, null, 2));
    } else {
      const t = report.toSessionSeconds;
      const r = report.registrationToSuccessSeconds;
      const yes = (met: boolean) => (met ? 'met' : 'NOT met');
      log(
        `successes            ${report.succeeded}/${total} (registrations ${report.registrationsSucceeded}/${registrations}, guests ${report.guestsSucceeded}/${guests})`,
      );
      log(
        `503s answered        ${report.answered503} (to ${report.clientsAnswered503} clients); 429s ${report.answered429}; no answer ${report.noAnswer}`,
      );
      log(
        `time to a session    p50 ${t.p50} s, p99 ${t.p99} s, max ${t.max} s${verifyEmail ? ' (registrations: to their "check your email" answer)' : ''}`,
      );
      log(`  registrations      p50 ${r.p50} s, p99 ${r.p99} s, max ${r.max} s`);
      log(
        `sign-in meanwhile    ${report.logins.ok}/${report.logins.count} answered 200; p50 ${report.logins.p50Ms} ms, max ${report.logins.maxMs} ms`,
      );
      log(
        `server loop delay    p99 ${report.serverEventLoopDelayMs.p99} ms, max ${report.serverEventLoopDelayMs.max} ms; ` +
          `the crowd took ${report.wallSeconds} s; connections dropped at a full accept queue ${report.listenOverflows ?? 'n/a'}`,
      );
      for (const failure of report.firstFailures) log(`  failed: ${failure}`);
      log(
        `targets: every one succeeds ${yes(report.targets.everyOneSucceeded)}; p99 ≤ 15 s ${yes(report.targets.p99Within15s)}; ` +
          `sign-in ≤ 1 s ${yes(report.targets.loginsWithin1s)}`,
      );
    }
    process.exitCode = Object.values(report.targets).every(Boolean) ? 0 : 1;
  } finally {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
