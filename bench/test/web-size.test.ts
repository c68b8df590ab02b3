/**
 * The landing page's initial JS stays within DESIGN §7's budget (150 KB gzip), and the game, admin
 * and leaderboard routes stay out of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANDING_BUDGET_KB, type WebSizes, measure } from '../src/web-size.ts';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'node_modules', '.bin');
const out = mkdtempSync(join(tmpdir(), 'memeslam-web-size-test-'));
let sizes: WebSizes;

beforeAll(() => {
  execFileSync(join(bin, 'vite'), ['build', '--logLevel', 'error', '--outDir', out, '--emptyOutDir'], {
    cwd: join(root, 'apps', 'web'),
    env: { ...process.env, NODE_ENV: 'production', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  sizes = measure(out);
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

it(`keeps the landing page's initial JS within ${LANDING_BUDGET_KB} KB gzip`, () => {
  expect(sizes.initialKb).toBeGreaterThan(50);
  expect(sizes.initialKb).toBeLessThanOrEqual(LANDING_BUDGET_KB);
});

it('loads the game, admin and leaderboard routes lazily', () => {
  const initial = sizes.initial.map((f) => f.file).join(' ');
  for (const page of ['Game-', 'Admin-', 'Leaderboard-']) {
    expect(initial).not.toContain(page);
    expect(sizes.lazy.some((f) => f.file.startsWith(page))).toBe(true);
  }
});
