/**
 * The web app's size targets, checked on a production build: the landing page's initial JS within
 * 120 KB gzip, the game, admin and leaderboard routes out of it; a brotli and a gzip copy beside every
 * compressible file of the build; and, in Chromium against the real server, the landing page's first
 * load within 130 KB transferred, every request answered 200 and every text file sent brotli.
 * (Lighthouse's score is timing, so it stays in `npm run bench:web-size`.)
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedWebBuild } from '../../apps/server/test/helpers/browser-slots.ts';
import {
  CHROMIUM_PATH,
  LANDING_BUDGET_KB,
  TRANSFER_BUDGET_KB,
  type WebSizes,
  build,
  measure,
  serve,
  transferred,
} from '../src/web-size.ts';

/** The run's build of the web app (the e2e project's), or one of this file's own when run alone. */
let out = '';
let own = false;
let sizes: WebSizes;

const hasChromium = existsSync(CHROMIUM_PATH);
if (!hasChromium) {
  if (process.env.CI) throw new Error(`CI must run the transfer check, but there is no Chromium at ${CHROMIUM_PATH}`);
  console.warn(`\n*** SKIPPED: the landing page's transfer check (no Chromium at ${CHROMIUM_PATH}) ***\n`);
}

beforeAll(async () => {
  const shared = await sharedWebBuild();
  own = shared === null;
  out = shared ?? mkdtempSync(join(tmpdir(), 'memeslam-web-size-test-'));
  if (own) build(out);
  sizes = measure(out);
}, 120_000);
afterAll(() => {
  if (own) rmSync(out, { recursive: true, force: true });
});

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

it('writes a brotli and a gzip copy of every script, style sheet, page and SVG of the build', () => {
  const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(js|css|html|svg)$/.test(f));
  expect(files).toEqual(expect.arrayContaining(['index.html', 'favicon.svg']));
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(10);
  for (const file of files) {
    const content = readFileSync(join(out, file));
    // A file too small to gain from compression keeps no copy (the server then sends it as it is).
    if (content.length < 1024) continue;
    expect(brotliDecompressSync(readFileSync(join(out, `${file}.br`))).equals(content), `${file}.br`).toBe(true);
    expect(gunzipSync(readFileSync(join(out, `${file}.gz`))).equals(content), `${file}.gz`).toBe(true);
  }
});

describe.skipIf(!hasChromium)('the landing page from the real server', () => {
  it(`transfers at most ${TRANSFER_BUDGET_KB} KB on its first load, all of it found, text brotli-compressed`, async () => {
    const server = await serve(out);
    try {
      const transfer = await transferred(server.base);
      expect(transfer.requests.map((r) => r.path)).toEqual(
        expect.arrayContaining(['/', expect.stringMatching(/^\/assets\/index-.+\.js$/), '/favicon.svg']),
      );
      for (const request of transfer.requests) {
        expect(request.status, request.path).toBe(200);
        if (/^\/$|\.(js|css|svg)$/.test(request.path)) expect(request.encoding, request.path).toBe('br');
      }
      expect(transfer.totalKb).toBeGreaterThan(50);
      expect(transfer.totalKb).toBeLessThanOrEqual(TRANSFER_BUDGET_KB);
    } finally {
      await server.close();
    }
  }, 60_000);
});
