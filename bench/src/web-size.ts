/**
 * `npm run bench:web-size`: builds the web app and measures the landing page against its budgets:
 * - the gzip size of what it loads before it can render (the entry script and its modulepreloads) and
 *   of every lazily loaded chunk; target ≤ 120 KB initial JS;
 * - the bytes it actually transfers, loaded in Chromium from the real server (the build's brotli
 *   copies): every request of the first load, as the network reports them; target ≤ 130 KB;
 * - its Lighthouse mobile performance score (Lighthouse's default mobile config, simulated
 *   throttling), median of `--lighthouse-runs` runs (default 3); target ≥ 95.
 * `--json` prints one JSON object instead of the table. Exits 1 when a target is missed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'node_modules', '.bin');
/** The landing page's budgets, KB gzip (docs/benchmarks.md, Web size). */
export const LANDING_BUDGET_KB = 120;
export const TRANSFER_BUDGET_KB = 130;
export const LIGHTHOUSE_TARGET = 95;

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/helpers/chromium.ts';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

export interface WebSizes {
  readonly initialKb: number;
  readonly initial: readonly { file: string; kb: number }[];
  readonly lazy: readonly { file: string; kb: number }[];
}

export interface Transfer {
  /** Bytes on the wire (headers and bodies) of every request of the first load, in KB. */
  readonly totalKb: number;
  readonly requests: readonly { path: string; status: number; encoding: string; kb: number }[];
}

export interface LighthouseRun {
  /** Performance score, 0–100. */
  readonly score: number;
  readonly fcpMs: number;
  readonly lcpMs: number;
  readonly tbtMs: number;
  readonly cls: number;
  readonly speedIndexMs: number;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Sizes of a built app in `dist`: initial = the entry script plus every modulepreload of index.html. */
export function measure(dist: string): WebSizes {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initialFiles = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  const gz = (file: string) => kb(gzipSync(readFileSync(join(dist, 'assets', file)), { level: 9 }).length);
  const initial = initialFiles.map((file) => ({ file, kb: gz(file) }));
  const lazy = readdirSync(join(dist, 'assets'))
    .filter((file) => file.endsWith('.js') && !initialFiles.includes(file))
    .map((file) => ({ file, kb: gz(file) }))
    .sort((a, b) => b.kb - a.kb);
  return { initialKb: kb(initial.reduce((sum, f) => sum + f.kb * 1024, 0)), initial, lazy };
}

/** Builds the web app into `out` (a production build, whatever NODE_ENV the caller has). */
export function build(out: string): void {
  execFileSync(join(bin, 'vite'), ['build', '--logLevel', 'error', '--outDir', out, '--emptyOutDir'], {
    cwd: join(root, 'apps', 'web'),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
}

/** The real server on a free loopback port, serving `webRoot`; `close` stops it and removes its data. */
export async function serve(webRoot: string): Promise<{ base: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-web-size-data-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' });
  const app = await buildApp(config, { webRoot });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Loads `base + path` in a fresh Chromium context (empty cache) and adds up what the network layer
 * reports as received for each request (`encodedDataLength`: headers and body as sent) until the
 * network has been idle for half a second.
 */
export async function transferred(base: string, path = '/'): Promise<Transfer> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const seen = new Map<string, { url: string; status: number; encoding: string; bytes: number }>();
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      seen.set(requestId, {
        url: response.url,
        status: response.status,
        encoding: String(headers['content-encoding'] ?? 'identity'),
        bytes: 0,
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const entry = seen.get(requestId);
      if (entry) entry.bytes = encodedDataLength;
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    // Chromium asks for the page's icon on its own schedule, sometimes after the network went idle
    // (on a busy machine): the first load is over once the icon has arrived too (10 s at most).
    const iconDeadline = Date.now() + 10_000;
    const iconLoaded = () => [...seen.values()].some((r) => new URL(r.url).pathname === '/favicon.svg' && r.bytes > 0);
    while (!iconLoaded() && Date.now() < iconDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = [...seen.values()].map((r) => ({
      path: r.url.startsWith(base) ? r.url.slice(base.length) : r.url,
      status: r.status,
      encoding: r.encoding,
      kb: kb(r.bytes),
    }));
    const total = [...seen.values()].reduce((sum, r) => sum + r.bytes, 0);
    return { totalKb: kb(total), requests };
  } finally {
    await browser.close();
  }
}

/** Chromium with a DevTools port for Lighthouse; resolves once it listens. */
function chromiumForLighthouse(profile: string): Promise<{ port: number; process: ChildProcess }> {
  const child = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolvePort, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (match?.[1]) resolvePort({ port: Number(match[1]), process: child });
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${err}`)));
  });
}

/** One Lighthouse run (default config: mobile, simulated throttling), performance only. */
export async function lighthouseRun(url: string): Promise<LighthouseRun> {
  const profile = mkdtempSync(join(tmpdir(), 'memeslam-lighthouse-'));
  const browser = await chromiumForLighthouse(profile);
  try {
    const result = await lighthouse(url, {
      port: browser.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result?.lhr;
    const score = lhr?.categories.performance?.score;
    if (!lhr || score === null || score === undefined) {
      throw new Error(`Lighthouse gave no performance score: ${lhr?.runtimeError?.message ?? 'no result'}`);
    }
    const value = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
    return {
      score: Math.round(score * 100),
      fcpMs: Math.round(value('first-contentful-paint')),
      lcpMs: Math.round(value('largest-contentful-paint')),
      tbtMs: Math.round(value('total-blocking-time')),
      cls: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
      speedIndexMs: Math.round(value('speed-index')),
    };
  } finally {
    browser.process.kill();
    await new Promise((done) => (browser.process.exitCode !== null ? done(null) : browser.process.once('exit', done)));
    rmSync(profile, { recursive: true, force: true });
  }
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

async function main(): Promise<void> {
  const runs = option('lighthouse-runs', 3);
  const out = mkdtempSync(join(tmpdir(), 'memeslam-web-size-'));
  try {
    build(out);
    const sizes = measure(out);
    const server = await serve(out);
    let transfer: Transfer;
    const lighthouseRuns: LighthouseRun[] = [];
    try {
      transfer = await transferred(server.base);
      for (let i = 0; i < runs; i += 1) lighthouseRuns.push(await lighthouseRun(`${server.base}/`));
    } finally {
      await server.close();
    }
    const scores = lighthouseRuns.map((r) => r.score);
    const lighthouseScore = median(scores);
    const missed = [
      sizes.initialKb > LANDING_BUDGET_KB && 'initial JS',
      transfer.totalKb > TRANSFER_BUDGET_KB && 'transferred',
      lighthouseScore < LIGHTHOUSE_TARGET && 'Lighthouse mobile',
    ].filter(Boolean);
    if (missed.length > 0) process.exitCode = 1;
    if (process.argv.includes('--json')) {
      console.log(
        JSON.stringify({ ...sizes, transfer, lighthouse: { median: lighthouseScore, runs: lighthouseRuns } }),
      );
      return;
    }
    console.log(`Landing page initial JS: ${sizes.initialKb} KB gzip (target ≤ ${LANDING_BUDGET_KB} KB)`);
    for (const f of sizes.initial) console.log(`  initial  ${f.kb.toFixed(1).padStart(7)} KB  ${f.file}`);
    for (const f of sizes.lazy) console.log(`  lazy     ${f.kb.toFixed(1).padStart(7)} KB  ${f.file}`);
    console.log(
      `\nLanding page transferred (Chromium, real server, cold cache): ${transfer.totalKb} KB in ` +
        `${transfer.requests.length} requests (target ≤ ${TRANSFER_BUDGET_KB} KB)`,
    );
    for (const r of transfer.requests) {
      console.log(`  ${r.status}  ${r.encoding.padEnd(8)} ${r.kb.toFixed(1).padStart(7)} KB  ${r.path}`);
    }
    console.log(
      `\nLighthouse mobile performance: ${lighthouseScore} (median of ${runs}: ${scores.join(', ')}; target ≥ ${LIGHTHOUSE_TARGET})`,
    );
    for (const r of lighthouseRuns) {
      console.log(
        `  score ${r.score}  FCP ${r.fcpMs} ms  LCP ${r.lcpMs} ms  TBT ${r.tbtMs} ms  CLS ${r.cls}  SI ${r.speedIndexMs} ms`,
      );
    }
    console.log(missed.length > 0 ? `\nMissed: ${missed.join(', ')}` : '\nAll three targets met.');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
