/**
 * nginx in front of a cluster on one machine (tests and bench:cluster), run from deploy/nginx.conf itself: the tests exercise the file an
 * operator installs, not a copy of it. Rendering replaces only what must differ on a test machine (the
 * upstream's servers, the listen address, log and temp paths) and fails loudly if the file no longer
 * has the shape it expects, so that the file and its tests cannot drift apart silently. Free of test
 * libraries: bench:cluster starts its nginx with it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NGINX = '/usr/sbin/nginx';
const frontConfigPath = fileURLToPath(new URL('./nginx.conf', import.meta.url));

/** deploy/nginx.conf with these nodes behind it, listening on `listen`, logging and buffering in `dir`. */
function renderFrontConfig(
  template: string,
  target: { readonly nodes: readonly string[]; readonly listen: string; readonly dir: string },
): string {
  const lines = template.split('\n');
  const open = lines.findIndex((line) => /^\s*upstream\s+memeslam\s*\{/.test(line));
  const close = lines.findIndex((line, i) => i > open && /^\s*\}/.test(line));
  if (open < 0 || close < 0) throw new Error(`${frontConfigPath}: no "upstream memeslam { ... }" block`);
  const server = /^(\s*)server\s+\S+(.*);\s*$/;
  const servers = lines.map((line, i) => (i > open && i < close ? server.exec(line) : null));
  const first = servers.findIndex((match) => match !== null);
  const shape = servers[first];
  if (!shape) throw new Error(`${frontConfigPath}: the memeslam upstream has no server line`);
  // The nodes take the place of the example servers, with the file's own parameters (max_fails, ...).
  const upstream = target.nodes.map((node) => `${shape[1]}server ${node}${shape[2]};`);
  const listens = lines.map((line) => /^(\s*)listen\s+[^;]+;\s*$/.exec(line));
  const firstListen = listens.findIndex((match) => match !== null);
  if (firstListen < 0) throw new Error(`${frontConfigPath}: no listen line`);
  const httpBlock = lines.findIndex((line) => /^\s*http\s*\{/.test(line));
  if (httpBlock < 0) throw new Error(`${frontConfigPath}: no http block`);
  // Debian's build puts these under /var/lib/nginx; a test keeps them in its own folder.
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (name) => `    ${name}_temp_path ${join(target.dir, `${name}_temp`)};`,
  );
  const rendered = lines.flatMap((line, i) => {
    if (i === first) return upstream;
    if (servers[i]) return [];
    if (i === firstListen) return [`${listens[i]?.[1] ?? ''}listen ${target.listen};`];
    if (listens[i]) return [];
    if (i === httpBlock) return [line, ...temps];
    return [line];
  });
  const text = rendered.join('\n');
  if (!text.includes('/var/log/nginx/')) throw new Error(`${frontConfigPath}: no logs under /var/log/nginx/`);
  return text.replaceAll('/var/log/nginx/', `${target.dir}/`);
}

export interface Front {
  /** http://127.0.0.1:port — the cluster as its users reach it. */
  readonly url: string;
  readonly dir: string;
  /** nginx's access log so far (deploy/nginx.conf's `memeslam` format). */
  accessLog(): string;
  /** nginx's error log so far, and what it printed before it read its configuration. */
  errorLog(): string;
  /**
   * The upstream addresses ("127.0.0.1:port") that the request with this X-Request-Id was passed to,
   * in order: more than one when a node failed and the next one took the request over.
   */
  upstreamsOf(requestId: string): Promise<string[]>;
  /** Stops nginx and deletes its folder. */
  close(): Promise<void>;
}

/** Starts nginx on deploy/nginx.conf, in a folder of its own for its logs, temp files and pid. */
export async function startFront(
  options: { readonly nodes: readonly string[]; readonly port: number },
  track: (child: ChildProcess) => void,
): Promise<Front> {
  const { port } = options;
  const dir = join(tmpdir(), `memeslam-nginx-${randomBytes(6).toString('hex')}`);
  const config = renderFrontConfig(readFileSync(frontConfigPath, 'utf8'), {
    nodes: options.nodes,
    listen: `127.0.0.1:${port}`,
    dir,
  });
  // Run as root, the config's `user www-data` workers buffer request bodies in here (its parent,
  // the system's temp folder, is open to all).
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  const configFile = join(dir, 'nginx.conf');
  writeFileSync(configFile, config);
  const child = spawn(
    NGINX,
    ['-p', `${dir}/`, '-e', 'stderr', '-c', configFile, '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  track(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  const front: Front = {
    url: `http://127.0.0.1:${port}`,
    dir,
    accessLog: () => read('access.log'),
    errorLog: () => output + read('error.log'),
    async upstreamsOf(requestId) {
      // nginx writes the line once the answer is sent, which the client may see a moment before.
      const logged = () =>
        front
          .accessLog()
          .split('\n')
          .find((l) => l.includes(` id=${requestId} `));
      const deadline = Date.now() + 5000;
      let line: string | undefined;
      while (!(line = logged())) {
        if (Date.now() > deadline) throw new Error(`no access log line for request ${requestId} in 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const upstream = / upstream=(.*?) upstream_status=/.exec(line ?? '')?.[1] ?? '';
      return upstream.split(/, | : /);
    },
    async close() {
      // SIGTERM is nginx's fast shutdown: open WebSockets are closed rather than waited for.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await new Promise<void>((resolve, reject) => {
    const failed = () => {
      reject(new Error(`nginx exited at start:\n${front.errorLog()}`));
      rmSync(dir, { recursive: true, force: true });
    };
    child.once('exit', failed);
    // The master binds the listen socket before it starts workers: a connection accepted is a front up.
    const attempt = () => {
      const probe = tcpConnect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        child.off('exit', failed);
        resolve();
      });
      probe.once('error', () => {
        probe.destroy();
        if (child.exitCode === null) setTimeout(attempt, 25);
      });
    };
    attempt();
  });
  return front;
}
