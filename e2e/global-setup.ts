/**
 * Global setup of the e2e project: builds the web app once, before any browser journey, so that the
 * journeys always run against the current source (never a stale apps/web/dist); and serves the
 * browser slots that keep a few journeys at a time (apps/server/test/helpers/browser-slots.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { BROWSER_SLOTS, SLOTS_URL_VARIABLE, serveBrowserSlots } from '../apps/server/test/helpers/browser-slots.ts';

const root = resolve(import.meta.dirname, '..');
const webDir = join(root, 'apps', 'web');
const bin = join(root, 'node_modules', '.bin');
/** Where the build goes: apps/web/dist, or E2E_WEB_DIST so parallel runs never share one build. */
export const webDist = process.env.E2E_WEB_DIST ?? join(webDir, 'dist');

export default async function setup(): Promise<() => Promise<void>> {
  const started = performance.now();
  console.log('[e2e] building the web app (vite build in apps/web) …');
  execFileSync(join(bin, 'vite'), ['build', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'], {
    cwd: webDir,
    stdio: 'inherit',
    // The project's Node (node_modules/.bin/node) runs vite, whichever node started vitest.
    // vitest sets NODE_ENV=test, which would make vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`[e2e] vite build finished but ${webDist}/index.html is missing`);
  }
  console.log(`[e2e] web app built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const slots = await serveBrowserSlots(BROWSER_SLOTS);
  // Every worker of the run inherits it: the server suites' timing tests use it too.
  process.env[SLOTS_URL_VARIABLE] = slots.url;
  return async () => {
    delete process.env[SLOTS_URL_VARIABLE];
    await slots.close();
  };
}
