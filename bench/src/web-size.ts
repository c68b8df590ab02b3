/**
 * `npm run bench:web-size`: builds the web app and prints the gzip size of what the landing page
 * loads before it can render (the entry script and its modulepreloads) and of every lazily loaded
 * chunk. Target (DESIGN §7): landing initial JS ≤ 150 KB gzip, goal 120 KB. `--json` prints one
 * JSON object instead of the table.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'node_modules', '.bin');
export const LANDING_BUDGET_KB = 150;

export interface WebSizes {
  readonly initialKb: number;
  readonly initial: readonly { file: string; kb: number }[];
  readonly lazy: readonly { file: string; kb: number }[];
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

function main(): void {
  const out = mkdtempSync(join(tmpdir(), 'memeslam-web-size-'));
  try {
    execFileSync(join(bin, 'vite'), ['build', '--logLevel', 'error', '--outDir', out, '--emptyOutDir'], {
      cwd: join(root, 'apps', 'web'),
      stdio: 'inherit',
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
    });
    const sizes = measure(out);
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(sizes));
      return;
    }
    console.log(`Landing page initial JS: ${sizes.initialKb} KB gzip (budget ${LANDING_BUDGET_KB} KB)`);
    for (const f of sizes.initial) console.log(`  initial  ${f.kb.toFixed(1).padStart(7)} KB  ${f.file}`);
    for (const f of sizes.lazy) console.log(`  lazy     ${f.kb.toFixed(1).padStart(7)} KB  ${f.file}`);
    if (sizes.initialKb > LANDING_BUDGET_KB) process.exitCode = 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) main();
