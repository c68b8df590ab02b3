/**
 * No input produces a 5xx: random JSON bodies, strings that look like SQL or carry unicode edge
 * cases, and raw bytes, sent to every account route, signed in and not.
 */
import { API_BASE, httpRoutes } from '@memeslam/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';

const accountRoutes = Object.values(httpRoutes).filter(
  (r) => r.path.startsWith('/auth/') && r.path !== '/auth/leaderboard',
);
const tricky = fc.constantFrom(
  "' OR 1=1 --",
  "admin'--",
  'Robert"); DROP TABLE users;--',
  '\u0000',
  '\u202e\u0041\u0301',
  '𝕳𝖊𝖑𝖑𝖔',
  '😀😀😀',
  'a'.repeat(5000),
  '%00%27',
  '__proto__',
  'constructor',
);
const field = fc.oneof(fc.string(), tricky, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.anything());
const body = fc.oneof(
  fc.record({ email: field, password: field }, { requiredKeys: [] }),
  fc.record({ username: field, email: field, password: field }, { requiredKeys: [] }),
  fc.record({ token: field, password: field, currentPassword: field, newPassword: field }, { requiredKeys: [] }),
  fc.record({ username: field, preferences: fc.oneof(field, fc.record({ sound: field, animations: field })) }),
  fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor')), field),
  fc.anything(),
);

describe.each(DATABASE_MODES)('hostile input on %s', (mode) => {
  let server: Booted;
  let token: string;
  beforeAll(async () => {
    server = await boot(mode);
    token = (await call(server.base, 'POST', '/auth/register', { body: newAccount('fuzz') })).body.data.token;
  });
  afterAll(() => server.close());

  it('every account route answers random bodies with a JSON envelope and never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...accountRoutes), body, fc.boolean(), async (route, payload, signedIn) => {
        // Deleting the shared account would end the run's session; it has its own tests.
        if (route.path === '/auth/account' || route.path === '/auth/logout') return;
        const res = await call(server.base, route.method, route.path, {
          body: route.method === 'GET' ? undefined : payload,
          ...(signedIn ? { token } : {}),
        });
        expect(res.status).toBeLessThan(500);
        expect(typeof res.body).toBe('object');
        expect(typeof res.body.success).toBe('boolean');
        if (!res.body.success) expect(typeof res.body.message).toBe('string');
      }),
      { numRuns: 150, seed: 20261122 },
    );
  }, 120_000);

  it('raw bytes and odd content types get a 4xx', async () => {
    for (const [contentType, payload] of [
      ['application/json', '\u0000\u0001\u0002'],
      ['application/json', '{"email": "a", "password": '],
      ['application/json', 'null'],
      ['application/json', '"just a string"'],
      ['text/plain', 'hello'],
      ['application/octet-stream', 'xx'],
    ] as const) {
      const res = await fetch(`${server.base}${API_BASE}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: payload,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as { success: boolean }).success).toBe(false);
    }
  });

  it('SQL-looking logins are plain strings that match nobody', async () => {
    for (const login of ["' OR 1=1 --", "admin'--", "x@y.z' OR '1'='1"]) {
      const res = await call(server.base, 'POST', '/auth/login', { body: { email: login, password: "' OR 1=1 --" } });
      expect(res.status).toBe(401);
    }
  });
});
