/**
 * The embedded PostgreSQL as `npm start` runs it (boot mode `own`): durable settings checked at start,
 * no TCP (a Unix socket in DATA_DIR) unless the path is too long for one (then a loopback port and a
 * password), an unprivileged OS user under root, two DATA_DIRs side by side and one server per
 * DATA_DIR, the app connected as a role that owns its database but is no superuser (also on a
 * DATA_DIR made before that role existed), the postmaster killed mid-game and restarted with nothing acknowledged lost. Its start and
 * stop (timed) are in embedded-postgres-start.test.ts.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { EMBEDDED_APP_ROLE, EMBEDDED_DATABASE, EMBEDDED_OS_USER } from '../src/db/embedded.ts';
import { type Booted, boot, call, newAccount, temporaryDataDir } from './helpers/boot.ts';
import { alive, childrenOf, postmasterPid } from './helpers/process.ts';
import { type Client, connect, playOne, settle } from './helpers/sockets.ts';

const dirs: string[] = [];
const open: { close(): unknown }[] = [];
afterAll(async () => {
  for (const item of open.reverse()) await item.close();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/**
 * DATA_DIRs a test is done with (its server closed: PostgreSQL stopped, the files kept), for the tests
 * that may start on any: a server's first start on a new DATA_DIR makes its PostgreSQL cluster (initdb,
 * about 1.5 core-seconds); a start on one made before finds it there.
 */
const spare: string[] = [];

/** Closes the server and keeps its DATA_DIR (removed after the file) for a later test. */
async function setAside(server: Booted): Promise<void> {
  open.splice(open.indexOf(server), 1);
  await server.app.close();
  dirs.push(server.dataDir);
  spare.push(server.config.dataDir);
}

/** A DATA_DIR an earlier test set aside, or a new one. */
function anyDataDir(): string {
  const reused = spare.shift();
  if (reused) return reused;
  const dir = temporaryDataDir();
  dirs.push(dir);
  return dir;
}

const rows = async <T>(server: Booted, text: string) =>
  ((await server.app.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
describe('the embedded PostgreSQL', () => {
  it('keeps every commit through a crash, listens on a socket in DATA_DIR only, and runs unprivileged', async () => {
    const server = await boot('own');
    open.push(server);
    // Read as the superuser: the app's role may not see where the socket lives (unix_socket_directories).
    const superuser = new pg.Client({
      host: join(server.dataDir, 'postgres'),
      user: 'postgres',
      password: readFileSync(join(server.dataDir, 'postgres-password'), 'utf8').trim(),
      database: EMBEDDED_DATABASE,
    });
    await superuser.connect();
    const settings = (
      await superuser.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings where name in
         ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses', 'unix_socket_directories', 'port')`,
      )
    ).rows;
    await superuser.end();
    expect(Object.fromEntries(settings.map((s) => [s.name, s.setting]))).toEqual({
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      listen_addresses: '',
      unix_socket_directories: join(server.dataDir, 'postgres'),
      port: '5432',
    });
    const status = readFileSync(`/proc/${postmasterPid(server.dataDir)}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    if (userInfo().uid === 0) {
      expect(uid).not.toBe(0);
      const passwd = readFileSync('/etc/passwd', 'utf8');
      expect(passwd).toMatch(new RegExp(`^${EMBEDDED_OS_USER}:x:${uid}:`, 'm'));
    } else {
      expect(uid).toBe(userInfo().uid);
    }
    // The password is required even on the socket.
    const stranger = new pg.Client({
      host: join(server.dataDir, 'postgres'),
      user: 'postgres',
      database: EMBEDDED_DATABASE,
    });
    await expect(stranger.connect()).rejects.toThrow(/password/);
    await stranger.end().catch(() => {});

    // A second DATA_DIR runs beside it; a second server on the same DATA_DIR is refused.
    const other = await boot('own');
    open.push(other);
    expect((await fetch(`${other.base}/health`).then((r) => r.json())) as unknown).toMatchObject({
      ok: true,
      database: 'embedded',
    });
    await expect(boot('own', { DATA_DIR: server.dataDir })).rejects.toThrow(/already open in this process|in use/);
    await setAside(other);
    await setAside(server);
  });

  it('serves as a role that owns its database and is no superuser, also on a DATA_DIR from before that role', async () => {
    const server = await boot('own');
    dirs.push(server.dataDir);
    const appRole = async (booted: Booted) =>
      (
        await rows<{ user: string; rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean }>(
          booted,
          `select current_user as user, rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user`,
        )
      )[0];
    expect(await appRole(server)).toEqual({
      user: EMBEDDED_APP_ROLE,
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
    });
    const appPasswordFile = join(server.dataDir, 'postgres-app-password');
    expect(statSync(appPasswordFile).mode & 0o777).toBe(0o600);
    const owners = async (booted: Booted) =>
      rows<{ owner: string }>(
        booted,
        `select distinct pg_get_userbyid(relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname in ('public', 'drizzle') and relkind in ('r', 'S')
         union select pg_get_userbyid(datdba) from pg_database where datname = current_database()
         union select distinct pg_get_userbyid(proowner) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public'`,
      );
    expect(await owners(server)).toEqual([{ owner: EMBEDDED_APP_ROLE }]);

    // A DATA_DIR of an older release: the superuser owns everything, there is no app role nor its password.
    const superuser = new pg.Client({
      host: join(server.dataDir, 'postgres'),
      user: 'postgres',
      password: readFileSync(join(server.dataDir, 'postgres-password'), 'utf8').trim(),
      database: EMBEDDED_DATABASE,
    });
    await superuser.connect();
    await call(server.base, 'POST', '/auth/register', { body: newAccount('older') });
    await superuser.query(`reassign owned by ${EMBEDDED_APP_ROLE} to postgres`);
    await superuser.query(`drop owned by ${EMBEDDED_APP_ROLE}`);
    await superuser.query(`drop role ${EMBEDDED_APP_ROLE}`);
    await superuser.end();
    await server.app.close();
    rmSync(appPasswordFile);

    const again = await boot('own', { DATA_DIR: server.dataDir, JWT_SECRET: server.config.jwtSecret });
    open.push(again);
    expect((await appRole(again))?.rolsuper).toBe(false);
    expect(await owners(again)).toEqual([{ owner: EMBEDDED_APP_ROLE }]);
    // It reads what was there and writes (the token-epoch trigger's function included: a deletion raises it).
    const [kept] = await rows<{ n: number }>(again, `select count(*)::int as n from users`);
    expect(kept?.n).toBe(1);
    const session = await call(again.base, 'POST', '/auth/register', { body: newAccount('newer') });
    expect(session.status).toBe(201);
    await again.app.db.execute(sql.raw(`delete from users where username like 'older%'`));
  });

  it('refuses to serve if a commit could be lost on a power cut', async () => {
    const first = await boot('own', { DATA_DIR: anyDataDir() });
    dirs.push(first.dataDir);
    await first.app.db.execute(sql.raw(`alter database ${EMBEDDED_DATABASE} set synchronous_commit = off`));
    await first.app.close();
    await expect(boot('own', { DATA_DIR: first.config.dataDir, JWT_SECRET: first.config.jwtSecret })).rejects.toThrow(
      'the database does not keep every commit through a crash of the machine (synchronous_commit=off)',
    );
  });

  it('listens on a loopback port with its password where DATA_DIR is too long for a socket', async () => {
    const base = temporaryDataDir();
    dirs.push(base);
    const dataDir = join(base, 'a-folder-name-long-enough'.repeat(4));
    mkdirSync(dataDir, { mode: 0o755 });
    const server = await boot('own', { DATA_DIR: dataDir });
    open.push(server);
    const [listen] = await rows<{ setting: string }>(
      server,
      `select setting from pg_settings where name = 'listen_addresses'`,
    );
    expect(listen?.setting).toBe('127.0.0.1');
    const [port] = await rows<{ setting: string }>(server, `select setting from pg_settings where name = 'port'`);
    expect(Number(port?.setting)).not.toBe(5432);
    const stranger = new pg.Client({
      host: '127.0.0.1',
      port: Number(port?.setting),
      user: 'postgres',
      database: EMBEDDED_DATABASE,
    });
    await expect(stranger.connect()).rejects.toThrow(/password/);
    await stranger.end().catch(() => {});
  });

  it('is restarted when it is killed mid-game; the play sent meanwhile waits and is kept', async () => {
    const lines: string[] = [];
    const clock = new ManualClock();
    const server = await boot(
      'own',
      { LOG_LEVEL: 'info', DATA_DIR: anyDataDir() },
      { clock, logStream: { write: (line: string) => void lines.push(line) } },
    );
    open.push(server);
    const token = (await call(server.base, 'POST', '/auth/register', { body: newAccount('crash') })).body.data
      .token as string;
    const client: Client = await connect(server.base, token);
    open.push(client);
    const created = await client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'normal',
      autoStart: true,
      cardsPerPlayer: 30,
    });
    const { gameId } = created.data;
    clock.advance(6000);
    await client.waitFor('gameStarted');
    const playSoon = async () => {
      for (let tries = 0; tries < 200; tries += 1) {
        const card = await playOne(client);
        if (card) return card;
        clock.advance(500);
        await settle(client);
      }
      throw new Error('no card became playable');
    };
    await playSoon();

    // The postmaster and every process it started, at once (each backend leads a process group of its
    // own, and a backend outliving its postmaster could still commit): nothing commits until the restart.
    const killed = postmasterPid(server.config.dataDir);
    for (const pid of [killed, ...childrenOf(killed)]) process.kill(pid, 'SIGKILL');
    const played = await playSoon();
    expect(alive(killed)).toBe(false);
    expect(postmasterPid(server.config.dataDir)).not.toBe(killed);
    expect(lines.join('\n')).toMatch(/exited \(SIGKILL\): restarting it/);
    // The play may land the moment the new postmaster accepts, before the server's own probe says so.
    await expect.poll(() => lines.join('\n')).toMatch(/is back \(pid \d+\)/);
    const logged = await rows<{ command: { cardId?: string } | null }>(
      server,
      `select command from game_log where game_id = '${gameId}' order by n`,
    );
    expect(logged.map((entry) => entry.command?.cardId)).toContain(played);
  });
});
