/**
 * A cluster for tests: N server processes on one fresh PostgreSQL database and one Redis,
 * optionally behind nginx running deploy/nginx.conf (deploy/front.ts). Nodes are real processes, so a
 * test can SIGKILL one and start it again on the same port and NODE_ID, where nginx still points.
 *
 * Everything a cluster starts is stopped by `close()` (call it from afterAll/afterEach, also when the
 * test failed); a child still alive when the test worker exits is killed then, as a last resort.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOCKET_TRANSPORTS } from '@memeslam/protocol';
import { newAccount, registerCall, scratchPostgres } from './boot.ts';
import { type Front, NGINX, startFront } from '../../../../deploy/front.ts';
import { reapOnExit, running, stopChild } from './children.ts';
import { listening, mainScript, run } from './process.ts';
import { type Client, connect } from './sockets.ts';
import { forgetKeys } from '../../src/cluster/forget-keys.ts';

/**
 * Why cluster tests cannot run on this machine, or null when they can. Under CI a missing piece is
 * an error (the run must not pass without them); elsewhere the reason is printed and the tests skip.
 */
export function clusterSkipReason(needs: {
  readonly front: boolean;
  readonly ownRedis?: boolean;
  /** Whether the tests use the shared REDIS_URL too (default true). */
  readonly sharedRedis?: boolean;
}): string | null {
  const missing: string[] = [];
  if ((needs.sharedRedis ?? true) && !process.env.REDIS_URL) missing.push('REDIS_URL is unset (a cluster needs Redis)');
  if (needs.front && !existsSync(NGINX)) missing.push(`${NGINX} is missing (apt-get install -y nginx)`);
  if (needs.ownRedis && !redisServerInstalled())
    missing.push('redis-server is missing (apt-get install -y redis-server)');
  if (missing.length === 0) return null;
  const reason = missing.join('; ');
  if (process.env.CI) throw new Error(`CI must run the cluster tests: ${reason}`);
  console.warn(`\n*** SKIPPED: cluster tests: ${reason}. ***\n`);
  return reason;
}

/**
 * Ports below Linux's ephemeral range (ip_local_port_range, 32768–60999 by default), where no
 * outgoing connection of any process takes one as its local port in the moment between choosing a
 * port and a node listening on it: with ports the kernel hands out, a test run beside another once
 * saw a node's port taken (EADDRINUSE) by such a connection.
 */
const LISTEN_PORTS = { from: 20_000, to: 32_767 } as const;

/** Whether `port` can be listened on now; the server is kept open (closed by the caller). */
function tryListen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
}

/** Ports free now, all distinct (held together while they are chosen), outside the ephemeral range. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries += 1) {
      if (tries > 1000) throw new Error(`no ${count} free ports in ${LISTEN_PORTS.from}–${LISTEN_PORTS.to}`);
      // Random picks spread the test runs that share a machine over the range.
      const port = randomInt(LISTEN_PORTS.from, LISTEN_PORTS.to + 1);
      if (ports.includes(port)) continue;
      const server = createServer();
      servers.push(server);
      if (await tryListen(server, port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => (server.listening ? server.close(resolve) : resolve(null)))),
    );
  }
}

/** A Redis of the test's own, which it may stop and start again (the shared REDIS_URL is never stopped). */
export interface OwnRedis {
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /** Stops it (SIGKILL: an outage, no goodbye) and waits until it is gone. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port, empty (no persistence), and waits until it accepts commands. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const redisServerInstalled = () => spawnSync('redis-server', ['--version']).error === undefined;

/** A fresh redis-server on a free port, without persistence (see clusterSkipReason's `ownRedis`). */
export async function startRedis(): Promise<OwnRedis> {
  if (!redisServerInstalled()) throw new Error('redis-server is not installed');
  const [port] = (await freePorts(1)) as [number];
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const redis: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== null;
    },
    async start() {
      if (child) return;
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      reapOnExit(started);
      child = started;
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const failed = () => reject(new Error(`redis-server on ${port} exited at start:\n${output}`));
        started.once('exit', failed);
        const check = (chunk: Buffer) => {
          output += chunk.toString();
          if (!output.includes('Ready to accept connections')) return;
          started.off('exit', failed);
          started.stdout.off('data', check);
          resolve();
        };
        started.stdout.on('data', check);
        started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      }).catch((error: unknown) => {
        child = null;
        throw error;
      });
    },
    async stop(signal = 'SIGKILL') {
      if (!child) return;
      child.kill(signal);
      await exited;
      child = null;
    },
    close: () => redis.stop(),
  };
  await redis.start();
  return redis;
}

export interface ClusterOptions {
  /** How many nodes (default 2). */
  readonly nodes?: number;
  /** nginx in front on deploy/nginx.conf (default true). */
  readonly front?: boolean;
  /** A Redis of the test's own (startRedis); default: the shared REDIS_URL. */
  readonly redis?: OwnRedis;
  /** RATE_LIMITS on (default off). */
  readonly rateLimits?: boolean;
  /** More environment for every node, or for one (by index); it wins over the harness's. */
  readonly env?: Record<string, string>;
  readonly nodeEnv?: (index: number) => Record<string, string>;
}

export interface ClusterNode {
  /** NODE_ID: node-1, node-2, ... (index 0 is node-1). */
  readonly id: string;
  readonly port: number;
  /** http://127.0.0.1:port — the node itself, past nginx. */
  readonly url: string;
  /** "127.0.0.1:port", as nginx's upstream and access log name it. */
  readonly address: string;
  readonly dataDir: string;
  readonly running: boolean;
  /** Everything this node printed, over all its starts. */
  out(): string;
  err(): string;
  /** The first match of `pattern` in out(), now or once the node prints it (15 s at most). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export interface Cluster {
  readonly nodes: readonly ClusterNode[];
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly jwtSecret: string;
  /** nginx in front, when the cluster has one. */
  readonly front: Front | null;
  /** Node i's own URL (index 0 is node-1). */
  url(index: number): string;
  /** The index of the node listening at "127.0.0.1:port". */
  indexOf(address: string): number;
  /** Signals node i and waits for it to exit; its exit code (null when killed by the signal). */
  kill(index: number, signal?: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** Pauses node i (SIGSTOP: a long GC pause, a frozen VM) or lets it go on (SIGCONT). */
  pause(index: number, paused: boolean): void;
  /** Starts node i again (stopping it first if it runs) on the same port, NODE_ID and DATA_DIR. */
  restart(index: number): Promise<void>;
  /**
   * Starts again every node that is not running (killed or stopped by a test), as `restart` does: the
   * tests that share a cluster each begin with all of it up, and only the nodes a test took down cost
   * a new start.
   */
  startStopped(): Promise<void>;
  close(): Promise<void>;
}

const NODE_START_MS = 60_000;

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 2;
  const withFront = options.front ?? true;
  const redisUrl = options.redis?.url ?? process.env.REDIS_URL;
  if (!redisUrl) throw new Error('a cluster needs REDIS_URL or its own Redis (startRedis)');
  const ports = await freePorts(count + 1);
  const frontPort = ports[count] as number;
  const tmp = mkdtempSync(join(tmpdir(), 'memeslam-cluster-'));
  const jwtSecret = randomBytes(36).toString('base64url');
  const stoppers: (() => Promise<unknown>)[] = [];
  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      // Last started, first stopped: nginx, then the nodes, then the database and the folder.
      const errors = [];
      for (const stop of stoppers.reverse()) {
        const [result] = await Promise.allSettled([stop()]);
        if (result.status === 'rejected') errors.push(result.reason);
      }
      rmSync(tmp, { recursive: true, force: true });
      if (errors.length > 0) throw errors[0];
    })());
  try {
    const scratch = await scratchPostgres();
    stoppers.push(() => scratch.drop());
    const databaseName = new URL(scratch.url).pathname.slice(1);
    if (!options.redis) stoppers.push(() => forgetKeys(redisUrl, databaseName));
    const publicUrl = withFront ? `http://127.0.0.1:${frontPort}` : `http://127.0.0.1:${ports[0]}`;
    const nodes = ports.slice(0, count).map((port, index) =>
      clusterNode(index, port, join(tmp, `node-${index + 1}`), {
        DATABASE_URL: scratch.url,
        REDIS_URL: redisUrl,
        JWT_SECRET: jwtSecret,
        PUBLIC_URL: publicUrl,
        TRUST_PROXY: 'loopback',
        RATE_LIMITS: options.rateLimits ? 'on' : 'off',
        ...options.env,
        ...options.nodeEnv?.(index),
      }),
    );
    stoppers.push(() => Promise.all(nodes.map((node) => node.stop())));
    await Promise.all(nodes.map((node) => node.start()));
    let front: Front | null = null;
    if (withFront) {
      front = await startFront({ nodes: nodes.map((node) => node.address), port: frontPort }, reapOnExit);
      const started = front;
      stoppers.push(() => started.close());
    }
    const node = (index: number) => {
      const found = nodes[index];
      if (!found) throw new Error(`no node ${index} in a cluster of ${count}`);
      return found;
    };
    return {
      nodes,
      databaseUrl: scratch.url,
      redisUrl,
      jwtSecret,
      front,
      url: (index) => node(index).url,
      indexOf(address) {
        const index = nodes.findIndex((n) => n.address === address);
        if (index < 0) throw new Error(`no node at ${address}`);
        return index;
      },
      kill: (index, signal = 'SIGTERM') => node(index).kill(signal),
      pause: (index, paused) => node(index).pause(paused),
      async restart(index) {
        await node(index).stop();
        await node(index).start();
      },
      async startStopped() {
        await Promise.all(nodes.filter((n) => !n.running).map((n) => n.start()));
      },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

function clusterNode(index: number, port: number, dataDir: string, env: Record<string, string>) {
  const id = `node-${index + 1}`;
  const url = `http://127.0.0.1:${port}`;
  const fullEnv = {
    NODE_ID: id,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The process tests' level: the start line ("MemeSlam is served on ...") and the nodes' own events.
    LOG_LEVEL: 'info',
    REQUIRE_EMAIL_VERIFICATION: 'false',
    ...env,
  };
  const runs: ReturnType<typeof run>[] = [];
  const current = () => runs.at(-1);
  const out = () => runs.map((r) => r.out()).join('');
  const waiters = new Set<() => void>();
  const isRunning = () => {
    const child = current()?.child;
    return child !== undefined && running(child);
  };
  return {
    id,
    port,
    url,
    address: `127.0.0.1:${port}`,
    dataDir,
    get running() {
      return isRunning();
    },
    out,
    err: () => runs.map((r) => r.err()).join(''),
    waitForOutput(pattern: RegExp, timeoutMs = 15_000) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${id} printed nothing matching ${pattern} in ${timeoutMs} ms:\n${out().slice(-4000)}`));
        }, timeoutMs);
        const check = () => {
          const match = pattern.exec(out());
          if (!match) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(match[0]);
        };
        waiters.add(check);
        check();
      });
    },
    async start() {
      const proc = run(mainScript, [], fullEnv);
      runs.push(proc);
      reapOnExit(proc.child);
      proc.child.stdout?.on('data', () => {
        for (const check of [...waiters]) check();
      });
      let timer: NodeJS.Timeout | undefined;
      const served = await Promise.race([
        listening(proc.child, proc.out),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not listening after ${NODE_START_MS} ms`)), NODE_START_MS);
        }),
      ])
        .catch((error: unknown) => {
          proc.child.kill('SIGKILL');
          throw new Error(`${id} did not start: ${(error as Error).message}\nstderr: ${proc.err()}`);
        })
        .finally(() => clearTimeout(timer));
      if (served !== url) throw new Error(`${id} listens on ${served}, not ${url}`);
    },
    async kill(signal: 'SIGTERM' | 'SIGKILL') {
      const proc = current();
      if (!proc) throw new Error(`${id} was never started`);
      if (isRunning()) proc.child.kill(signal);
      return proc.exited;
    },
    pause(paused: boolean) {
      current()?.child.kill(paused ? 'SIGSTOP' : 'SIGCONT');
    },
    /** SIGTERM, and SIGKILL if the node has not exited 10 s later. */
    async stop() {
      const proc = current();
      if (proc) await stopChild(proc.child);
    },
  };
}

/**
 * A node's log line `message` about game `gameId` (its fields name it: `gameId=...`), for waitForOutput:
 * a node's output runs on over the tests that share its cluster, so a line is looked for by its game.
 */
export function gameLine(message: string, gameId: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escape(message)}.*\\bgameId=${escape(gameId)}\\b`);
}

/** Registers a fresh account over HTTP at `base` (a node or the front); its token and what it sent. */
export async function register(base: string, prefix = 'node') {
  const account = newAccount(prefix);
  const answer = await registerCall(base, account);
  const { status, body } = answer;
  if (status !== 201) throw new Error(`register at ${base} answered ${status}: ${JSON.stringify(body)}`);
  return { account, token: body.data.token as string, userId: body.data.user.id as string };
}

/**
 * A socket.io client at `base`, with the web app's transports unless told (['polling'] forces
 * long-polling); `from` makes its connections from another loopback address (see `clientAddressFor`).
 */
export function connectTo(
  base: string,
  token: string,
  options: { transports?: readonly string[]; from?: string } = {},
): Promise<Client> {
  return connect(base, token, {
    transports: [...(options.transports ?? SOCKET_TRANSPORTS)],
    ...(options.from ? { agent: fromAddress(options.from) } : {}),
  });
}

/** An HTTP agent whose connections leave from `address` (any of 127.0.0.0/8 is this machine). */
function fromAddress(address: string): Agent {
  return new Agent({ localAddress: address, keepAlive: false });
}

/**
 * A loopback address whose requests nginx's client-IP hash sends to node `index`, found by asking
 * /health from 127.0.0.1, 127.0.0.2, ... and reading which node the access log says answered. A test
 * connects through the front with it to land on a chosen node.
 */
export async function clientAddressFor(cluster: Cluster, index: number): Promise<string> {
  const front = cluster.front;
  if (!front) throw new Error('the cluster has no front');
  for (let last = 1; last <= 64; last += 1) {
    const address = `127.0.0.${last}`;
    const requestId = await healthFrom(front.url, address);
    const upstreams = await front.upstreamsOf(requestId);
    if (cluster.indexOf(upstreams.at(-1) ?? '') === index) return address;
  }
  throw new Error(`no address of 127.0.0.1-64 lands on node ${index}`);
}

/** GET /health from a given local address; the X-Request-Id nginx gave it. */
export async function healthFrom(base: string, address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/health`, { agent: fromAddress(address) }, (res) => {
      res.resume();
      res.once('end', () => {
        const id = res.headers['x-request-id'];
        if (res.statusCode !== 200 || typeof id !== 'string') {
          reject(new Error(`/health from ${address} answered ${res.statusCode}`));
        } else resolve(id);
      });
    });
    req.once('error', reject);
    req.end();
  });
}
