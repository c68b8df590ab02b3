/**
 * Global setup of the e2e project: builds the web app once a run, beside the first tests, so that the
 * journeys always run against the current source (never a stale apps/web/dist); and serves the
 * browser slots that keep a few journeys at a time (apps/server/test/helpers/browser-slots.ts), each
 * given once the build is done. The web-size test measures the same build.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { BROWSER_SLOTS, SLOTS_URL_VARIABLE, serveBrowserSlots } from '../apps/server/test/helpers/browser-slots.ts';

const root = resolve(import.meta.dirname, '..');
const webDir = join(root, 'apps', 'web');
const bin = join(root, 'node_modules', '.bin');
/** Where the build goes: apps/web/dist, or E2E_WEB_DIST so parallel runs never share one build. */
export const webDist = process.env.E2E_WEB_DIST ?? join(webDir, 'dist');

/** `vite build` into webDist, in a child process: resolves with the folder once it is built. */
function buildWebApp(): Promise<string> {
  const started = performance.now();
  console.log('[e2e] building the web app (vite build in apps/web) beside the first tests …');
  const child = spawn(join(bin, 'vite'), ['build', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'], {
    cwd: webDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    // The project's Node (node_modules/.bin/node) runs vite, whichever node started vitest.
    // vitest sets NODE_ENV=test, which would make vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) reject(new Error(`[e2e] vite build failed (${signal ?? `exit ${code}`})`));
      else if (!existsSync(join(webDist, 'index.html'))) {
        reject(new Error(`[e2e] vite build finished but ${webDist}/index.html is missing`));
      } else {
        console.log(`[e2e] web app built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        resolve(webDist);
      }
    });
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  const built = buildWebApp();
  const slots = await serveBrowserSlots(BROWSER_SLOTS, built);
  // Every worker of the run inherits it: the server suites' timing tests use it too.
  process.env[SLOTS_URL_VARIABLE] = slots.url;
  return async () => {
    delete process.env[SLOTS_URL_VARIABLE];
    await slots.close();
    await built.catch(() => {});
  };
}
