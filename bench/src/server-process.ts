/**
 * What bench:server and bench:cluster share: a scratch database on DATABASE_URL's server, a server
 * process started as `npm start` starts it (and known to be up once it prints its address), and its
 * /metrics figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stopChild } from '../../apps/server/test/helpers/children.ts';

export const mainScript = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));
/** bench:server's floor: the same traffic with no game logic and no database (floor-server.ts). */
export const floorScript = fileURLToPath(new URL('./floor-server.ts', import.meta.url));

/**
 * The floor's bot plays per game and second (its --bot-events) for the packets the real server sent
 * each socket: per socket and second, each play by its own player brings three (the ack, the play's
 * broadcast, the new hand) and each by the other person one, so the rest is the bots' plays.
 */
export function floorBotEvents(packetsPerSocketPerSecond: number, playsPerSocketPerSecond: number): number {
  return Math.round(Math.max(0, packetsPerSocketPerSecond - 4 * playsPerSocketPerSecond) * 1000) / 1000;
}

/** A scratch database on DATABASE_URL's server for one run. */
export async function scratchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL as string;
  const name = `memeslam_bench_${process.pid}_${Date.now()}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:port, as the server printed it. */
  readonly base: string;
  readonly exited: Promise<void>;
}

/**
 * Starts apps/server/src/main.ts (or `script`, with `args`) with `env` over the benchmarks'
 * defaults, behind `prefix` (e.g. `taskset -c 0`, which execs the server: the child's pid is the
 * server's). Resolves once it prints that it serves. `stdoutFile` keeps its standard output
 * (BENCH_SERVER_STDOUT); stderr is the benchmark's own.
 */
export async function startServerProcess(options: {
  readonly env: Record<string, string>;
  readonly nodeFlags?: readonly string[];
  readonly prefix?: readonly string[];
  readonly stdoutFile?: string;
  readonly script?: string;
  readonly args?: readonly string[];
}): Promise<ServerProcess> {
  const command = [
    ...(options.prefix ?? []),
    process.execPath,
    // As `npm start` runs it (package.json): the young generation's size, its pages at least 30% live moved
    // whole at a mark-compact rather than copied object by object (README, "Server benchmark": shorter
    // pauses), one V8 helper thread (README, "Against the floor": four competed with the database and
    // the load on two cores), and glibc giving freed memory back.
    '--max-semi-space-size=32',
    '--page-promotion-threshold=30',
    '--v8-pool-size=1',
    '--expose-gc',
    ...(options.nodeFlags ?? []),
    options.script ?? mainScript,
    ...(options.args ?? []),
  ];
  const child = spawn(command[0] as string, command.slice(1), {
    env: {
      ...process.env,
      MALLOC_TRIM_THRESHOLD_: '131072',
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /served on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        if (options.stdoutFile) child.stdout?.pipe(createWriteStream(options.stdoutFile));
        else child.stdout?.resume();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code} before it served`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
  return { child, base, exited };
}

/** SIGTERM, and SIGKILL if the process has not exited 10 s later. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  await stopChild(server.child);
}

/** A TCP port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Metrics {
  commands: { count: number; p50Ms: number; p99Ms: number; p999Ms: number };
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  heapUsedBytes: number;
  rssBytes: number;
  cpuMicros: number;
  uptimeMs: number;
  rooms: number;
  sockets: number;
  gameLog: {
    batches: number;
    steps: number;
    backlog: number;
    queuedMs: { p50: number; p99: number; max: number };
    durableWaitMs: { p50: number; p99: number; max: number };
    writeMs: { p50: number; p99: number; max: number };
    recordMs: { p50: number; p99: number; max: number; count: number };
  };
  /** The floor's only: with --durable, its log's commands committed and batches so far (floor-log.ts). */
  durable?: { committed: number; batches: number } | null;
}

/** GET /metrics?format=json (query: "?gc=1" collects first, "?reset=1" starts a new window). */
export async function metrics(base: string, query = ''): Promise<Metrics> {
  return (await (await fetch(`${base}/metrics?format=json${query.replace('?', '&')}`)).json()) as Metrics;
}
