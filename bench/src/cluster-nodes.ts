/**
 * bench:cluster's cluster: server processes ("nodes") each pinned to one core with taskset, on a
 * scratch database on DATABASE_URL's server and the shared REDIS_URL, behind nginx running
 * deploy/nginx.conf (rendered by the server tests' front helper, so the benchmark measures the file an
 * operator installs). A node can be SIGKILLed and started again on its port, NODE_ID and DATA_DIR,
 * where nginx still points. `close()` stops everything and deletes what the run left in Redis (keys
 * carry the database's name, unique to the run: nobody else's match); a child still alive when this
 * process exits is SIGKILLed then, as a last resort.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reapOnExit } from '../../apps/server/test/helpers/children.ts';
import { type Front, NGINX, startFront } from '../../deploy/front.ts';
import {
  type ServerProcess,
  floorScript,
  freePort,
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
} from './server-process.ts';
import { forgetKeys } from '../../apps/server/src/cluster/forget-keys.ts';

/** Throws, naming every missing piece, unless nginx, taskset, REDIS_URL and DATABASE_URL are all there. */
export function requireClusterTools(): void {
  const missing: string[] = [];
  if (!process.env.DATABASE_URL) missing.push('DATABASE_URL is unset (the nodes share a PostgreSQL database)');
  if (!process.env.REDIS_URL) missing.push('REDIS_URL is unset (the nodes share a Redis)');
  if (!existsSync(NGINX)) missing.push(`${NGINX} is missing (apt-get install -y nginx)`);
  if (spawnSync('taskset', ['-V']).error) missing.push('taskset is missing (apt-get install -y util-linux)');
  if (missing.length > 0) throw new Error(`bench:cluster cannot run: ${missing.join('; ')}`);
}

export interface BenchNode {
  /** NODE_ID: node-1, node-2, ... */
  readonly id: string;
  /** http://127.0.0.1:port — the node itself, past nginx. */
  readonly url: string;
  /** The core it is pinned to. */
  readonly core: number;
  /** Starts it (again, if it is not running), on the same port, NODE_ID and DATA_DIR; resolves once it serves. */
  start(): Promise<void>;
  /** SIGKILL, and its exit. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface BenchCluster {
  readonly nodes: readonly BenchNode[];
  readonly front: Front;
  close(): Promise<void>;
}

/**
 * `floor` (bench:cluster --scale --floor): each node is the durable floor instead (floor-server.ts,
 * pinned the same way, its log a table in the same scratch database), with `botEvents` bot plays per
 * game and second: the simplest nodes that carry the same traffic, behind the same nginx.
 */
export async function startBenchCluster(count: number, floor?: { botEvents: number }): Promise<BenchCluster> {
  const redisUrl = process.env.REDIS_URL as string;
  const tmp = mkdtempSync(join(tmpdir(), 'memeslam-bench-cluster-'));
  const stoppers: (() => Promise<unknown>)[] = [];
  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      // Last started, first stopped: nginx, the nodes, the Redis keys, the database, the folder.
      for (const stop of stoppers.reverse()) await stop().catch((error: unknown) => console.error(error));
      rmSync(tmp, { recursive: true, force: true });
    })());
  try {
    const scratch = await scratchDatabase();
    stoppers.push(() => scratch.drop());
    stoppers.push(() => forgetKeys(redisUrl, scratch.name));
    const frontPort = await freePort();
    const jwtSecret = randomBytes(36).toString('base64url');
    const nodes: BenchNode[] = [];
    for (let index = 0; index < count; index += 1) {
      const port = await freePort();
      const core = index;
      const env = {
        NODE_ID: `node-${index + 1}`,
        PORT: String(port),
        DATA_DIR: join(tmp, `node-${index + 1}`),
        DATABASE_URL: scratch.url,
        REDIS_URL: redisUrl,
        JWT_SECRET: jwtSecret,
        PUBLIC_URL: `http://127.0.0.1:${frontPort}`,
        TRUST_PROXY: 'loopback',
        REQUIRE_EMAIL_VERIFICATION: 'false',
      };
      let current: ServerProcess | null = null;
      nodes.push({
        id: env.NODE_ID,
        url: `http://127.0.0.1:${port}`,
        core,
        async start() {
          if (current && current.child.exitCode === null && current.child.signalCode === null) return;
          const prefix = ['taskset', '-c', String(core)];
          current = await startServerProcess(
            floor
              ? {
                  env,
                  prefix,
                  script: floorScript,
                  args: ['--bot-events', String(floor.botEvents), '--database-url', scratch.url],
                }
              : { env, prefix },
          );
          reapOnExit(current.child);
        },
        async kill() {
          if (!current) return;
          current.child.kill('SIGKILL');
          await current.exited;
        },
        stop: async () => {
          if (current) await stopServerProcess(current);
        },
      });
    }
    stoppers.push(() => Promise.all(nodes.map((node) => node.stop())));
    await Promise.all(nodes.map((node) => node.start()));
    const front = await startFront(
      { nodes: nodes.map((node) => node.url.slice('http://'.length)), port: frontPort },
      reapOnExit,
    );
    stoppers.push(() => front.close());
    return { nodes, front, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `perNode` loopback addresses (127.0.0.2, 127.0.0.3, ...) for each node that nginx's client-address
 * hash sends there, found by asking /health through the front from each address and reading which
 * node its access log names: players connecting from them in turn spread evenly over the nodes.
 */
export async function addressesByNode(cluster: BenchCluster, perNode: number): Promise<string[][]> {
  const byNode = cluster.nodes.map(() => [] as string[]);
  const upstreams = cluster.nodes.map((node) => node.url.slice('http://'.length));
  for (let last = 2; last <= 254 && byNode.some((found) => found.length < perNode); last += 1) {
    const address = `127.0.0.${last}`;
    const requestId = await healthFrom(cluster.front.url, address);
    const index = upstreams.indexOf((await cluster.front.upstreamsOf(requestId)).at(-1) ?? '');
    if (index >= 0 && (byNode[index] as string[]).length < perNode) byNode[index]?.push(address);
  }
  if (byNode.some((found) => found.length === 0)) throw new Error('nginx sent no loopback address to some node');
  return byNode;
}

/** GET /health through `base` from `address`; the X-Request-Id nginx gave it. */
function healthFrom(base: string, address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/health`, { localAddress: address }, (res) => {
      res.resume();
      res.once('end', () => {
        const id = res.headers['x-request-id'];
        if (res.statusCode === 200 && typeof id === 'string') resolve(id);
        else reject(new Error(`/health from ${address} answered ${res.statusCode}`));
      });
    });
    req.once('error', reject);
    req.end();
  });
}
