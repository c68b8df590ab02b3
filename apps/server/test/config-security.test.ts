/**
 * Start-up refusals that keep the server safe (docs/limits.md): a blanket
 * TRUST_PROXY (true or a hop count) with a HOST that others can reach is refused with one line naming
 * the fix; named proxies are fine anywhere; a refused secret's value is never printed (JWT_SECRET,
 * METRICS_TOKEN, and the passwords in DATABASE_URL, REDIS_URL and SMTP_URL).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { temporaryDataDir } from './helpers/boot.ts';
import { run } from './helpers/process.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = temporaryDataDir('memeslam-config-');
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The ConfigError's message for `env`, or null when it loads. */
function refusal(env: Record<string, string>): string | null {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
    return null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

describe('TRUST_PROXY', () => {
  it.each([
    [{ TRUST_PROXY: 'true' }],
    [{ TRUST_PROXY: 'true', HOST: '0.0.0.0' }],
    [{ TRUST_PROXY: 'true', HOST: '::' }],
    [{ TRUST_PROXY: '2', HOST: '0.0.0.0' }],
    [{ TRUST_PROXY: 'true', HOST: '192.168.1.5' }],
    [{ TRUST_PROXY: '1', HOST: '2001:db8::1' }],
    [{ TRUST_PROXY: '0.0.0.0/0', HOST: '0.0.0.0' }],
    [{ TRUST_PROXY: '10.0.0.5,::/0', HOST: '::' }],
    [{ TRUST_PROXY: '64.0.0.0/2', HOST: '0.0.0.0' }],
  ])('a blanket trust on a reachable HOST is refused with one line naming the fix: %j', (env) => {
    const message = refusal(env);
    expect(message).toMatch(/^Invalid configuration: TRUST_PROXY=\S+ trusts X-Forwarded-For from anyone/);
    expect(message).toContain("set TRUST_PROXY to your proxy's addresses (e.g. TRUST_PROXY=127.0.0.1");
    expect(message).not.toContain('\n');
  });

  it.each([
    [{ TRUST_PROXY: 'true', HOST: '127.0.0.1' }, true],
    [{ TRUST_PROXY: 'true', HOST: 'localhost' }, true],
    [{ TRUST_PROXY: '1', HOST: '::1' }, 1],
    [{ TRUST_PROXY: '0', HOST: '0.0.0.0' }, 0],
    [{ TRUST_PROXY: 'loopback', HOST: '0.0.0.0' }, ['loopback']],
    [{ TRUST_PROXY: '10.0.0.5, 2001:db8::/64', HOST: '::' }, ['10.0.0.5', '2001:db8::/64']],
    [{ TRUST_PROXY: 'false' }, false],
    [{ TRUST_PROXY: '10.0.0.0/8', HOST: '0.0.0.0' }, ['10.0.0.0/8']],
    [{ TRUST_PROXY: '0.0.0.0/0', HOST: '127.0.0.1' }, ['0.0.0.0/0']],
  ])('named proxies anywhere, a blanket trust on loopback only: %j', (env, trustProxy) => {
    expect(loadConfig({ DATA_DIR: tempDir(), ...env }).trustProxy).toEqual(trustProxy);
  });

  it.each(['10.0.0.5/999', '300.1.1.1', '10.0.0.5,,not-an-address'])(
    'a malformed proxy address is one clear line: %s',
    (value) => {
      expect(refusal({ TRUST_PROXY: value })).toMatch(
        /^Invalid configuration: TRUST_PROXY must be true, false, a hop count/,
      );
    },
  );

  it('a server started with HOST=0.0.0.0 and TRUST_PROXY=true exits non-zero with that one line', async () => {
    const proc = run(main, [], { HOST: '0.0.0.0', TRUST_PROXY: 'true', DATA_DIR: tempDir() });
    expect(await proc.exited).toBe(1);
    const lines = proc.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: TRUST_PROXY=true trusts X-Forwarded-For .* HOST=127\.0\.0\.1$/);
  });
});

describe('a refused secret is never printed', () => {
  it.each([
    ['JWT_SECRET', 'tooShortButSecret-j1', 'tooShortButSecret-j1'],
    ['METRICS_TOKEN', 'short-tok-m2', 'short-tok-m2'],
    ['DATABASE_URL', 'mysql://admin:db-pass-d3@db.internal/memeslam', 'db-pass-d3'],
    ['DATABASE_URL', 'postgres://admin:db pass d4@db.internal:99999/memeslam', 'db pass d4'],
    ['REDIS_URL', 'http://default:redis-pass-r5@redis.internal:6379', 'redis-pass-r5'],
    ['SMTP_URL', 'ftp://mailer:smtp-pass-s6@mail.internal', 'smtp-pass-s6'],
  ])('%s (%s)', (name, value, secret) => {
    const message = refusal({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain(secret);
  });

  it('a URL without a password is still shown, to help find the mistake', () => {
    expect(refusal({ DATABASE_URL: 'mysql://db.internal/memeslam' })).toBe(
      'Invalid configuration: DATABASE_URL must be a postgres or postgresql URL (got "mysql://db.internal/memeslam")',
    );
    expect(refusal({ SMTP_URL: 'ftp://mailer:smtp-pass-s7@mail.internal' })).toBe(
      'Invalid configuration: SMTP_URL must be a smtp or smtps URL (got "ftp://***@mail.internal")',
    );
  });

  it('the server process prints none of it either', async () => {
    const proc = run(main, [], { JWT_SECRET: 'tooShortButSecret-j8', DATA_DIR: tempDir() });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim()).toBe(
      'Invalid configuration: JWT_SECRET must be at least 32 characters (the value is not shown)',
    );
    expect(proc.out() + proc.err()).not.toContain('tooShortButSecret');
  });
});
