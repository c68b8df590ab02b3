/**
 * Forgot-password and resend-verification do not tell whether an address has an account: they take
 * the same time for both. This file runs in the "quiet" project (vitest.config.ts): after the rest of
 * the suite, with nothing beside it, as it measures time on the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

describe.each(DATABASE_MODES)('forgot-password and resend-verification on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode);
  });
  afterAll(() => server.close());

  // Timing on a shared machine: each pair of calls (one of each, back to back, the first of the
  // pair alternating) sees the same load, so the median of the pairs' differences measures the
  // server's own difference; margin 3 ms (sending a mail or hashing a token takes more).
  it('take the same time for an existing and an unknown address (median of paired calls)', async () => {
    const known = newAccount('timing');
    expect((await call(server.base, 'POST', '/auth/register', { body: known })).status).toBe(201);
    const unknown = 'nobody-at-all@example.com';
    const timed = async (path: string, email: string) => {
      const started = performance.now();
      const res = await call(server.base, 'POST', path, { body: { email } });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    for (const path of ['/auth/forgot-password', '/auth/resend-verification']) {
      const differences: number[] = [];
      for (let i = 0; i < 40; i += 1) {
        if (i % 2 === 0) {
          const knownMs = await timed(path, known.email);
          differences.push(knownMs - (await timed(path, unknown)));
        } else {
          const unknownMs = await timed(path, unknown);
          differences.push((await timed(path, known.email)) - unknownMs);
        }
      }
      expect(Math.abs(median(differences))).toBeLessThan(3);
    }
  });
});
