/**
 * Browser journeys: Playwright (playwright-core) driving Debian's Chromium headless shell (or its full
 * Chromium where the shell is not installed; chromium.ts). Downloading a browser with
 * `npx playwright install` does not work here; .ci/run installs the Debian packages.
 *
 * Without a browser the journeys are skipped, loudly — except under CI, where that is an error.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, type Page, type Response, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed, onTestFinished } from 'vitest';

import { CHROMIUM_ARGS, JOURNEY_BROWSER_PATH } from './chromium.ts';

/** Screenshots land here (.tmp/ is gitignored). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '..', '..', '.tmp', 'screenshots');

/**
 * The journeys' screenshots are for a person to look at, and no check reads them: they are taken
 * when SCREENSHOTS=1 (`SCREENSHOTS=1 npm test`), not in every run (some sixty full-page PNGs).
 */
export const takeScreenshots = process.env.SCREENSHOTS === '1';

export const hasChromium = existsSync(JOURNEY_BROWSER_PATH);
if (!hasChromium) {
  if (process.env.CI) {
    throw new Error(
      `CI must run the browser journeys, but there is no Chromium at ${JOURNEY_BROWSER_PATH} ` +
        '(install the Debian package `chromium-headless-shell` or `chromium`, or set CHROMIUM_PATH)',
    );
  }
  console.warn(
    `\n*** SKIPPED: browser journeys (no Chromium at ${JOURNEY_BROWSER_PATH}; ` +
      'apt-get install chromium-headless-shell, or set CHROMIUM_PATH) ***\n',
  );
}

/** `describe` for a suite of browser journeys: skipped (loudly, above) when there is no Chromium. */
export const describeJourneys = describe.skipIf(!hasChromium);

/** A browser of its own, for a file that needs other launch options; the file closes it. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: JOURNEY_BROWSER_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

/**
 * The worker's browser. A vitest worker runs file after file of the e2e project in one process
 * (vitest.config.ts: `isolate: false`, which the project inherits), and its files share one browser
 * rather than each launching its own; each journey still gets a fresh context (openJourney). One
 * that crashed or was closed is launched again for the next file. Nothing here closes it: when
 * vitest ends the worker, Playwright closes it on the SIGTERM, and the browser exits by itself once
 * the worker's end of its DevTools pipe is gone (no Chromium outlives a run).
 */
let shared: Promise<Browser> | undefined;

async function sharedBrowser(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  shared = launchBrowser();
  return shared;
}

/**
 * The worker's shared browser for the enclosing describe block; call inside describe. Contexts the
 * block's journeys left open are closed after it, so the next file finds the browser as it was.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  let before = new Set<BrowserContext>();
  beforeAll(async () => {
    browser = await sharedBrowser();
    before = new Set(browser.contexts());
  });
  afterAll(async () => {
    const left = browser?.contexts().filter((context) => !before.has(context)) ?? [];
    await Promise.all(left.map((context) => context.close()));
  });
  return () => {
    if (!browser) throw new Error('useBrowser(): the browser is not launched yet (use it inside a test)');
    return browser;
  };
}

export interface Journey {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught exceptions in the page: a journey fails on any (assertNoPageErrors). */
  readonly pageErrors: Error[];
  /** console.error messages and failed loads, for diagnosis. */
  readonly consoleErrors: string[];
  /** Content-Security-Policy violations the page reported: a journey fails on any (assertNoPageErrors). */
  readonly cspViolations: string[];
  /** Navigates to base + path and returns the main document's response. */
  goto(path: string): Promise<Response>;
  /** Throws, listing them all, if the page threw anything uncaught or broke the Content-Security-Policy. */
  assertNoPageErrors(): void;
  /** With SCREENSHOTS=1, saves a full-page PNG into .tmp/screenshots. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh context (no cookies or storage shared with other journeys) and page, watched for errors:
 * a 1280×800 desktop with a mouse, or with `phone` a 390×844 touch screen (a coarse pointer, no hover).
 * The page asks for reduced motion unless `motion` is set (a journey that checks an animation).
 */
export async function openJourney(
  browser: Browser,
  base: string,
  options: { phone?: boolean; motion?: boolean } = {},
): Promise<Journey> {
  const context = await browser.newContext({
    baseURL: base,
    // Nothing moves unless the journey is about what moves: a looping animation or a transition
    // draws frame after frame in the renderer and the compositor, and the journeys are about what
    // the page shows and does. The app honours the setting everywhere (apps/web/src/styles.css).
    reducedMotion: options.motion ? 'no-preference' : 'reduce',
    ...(options.phone
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }
      : { viewport: { width: 1280, height: 800 } }),
  });
  const pageErrors: Error[] = [];
  const consoleErrors: string[] = [];
  const cspViolations: string[] = [];
  // Every document of the journey reports what the server's Content-Security-Policy blocked.
  await context.exposeBinding('__memeslamCspViolation', (_source, text: string) => {
    cspViolations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __memeslamCspViolation: (text: string) => void }).__memeslamCspViolation;
      void report(
        `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}` +
          (event.sample ? ` (${event.sample})` : ''),
      );
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    consoleErrors.push(message.text());
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  // A failed journey says what its page showed when it was closed (a CI run keeps no screenshots).
  let lastSeen = 'never closed';
  try {
    onTestFailed(() => {
      const errors = consoleErrors.length ? `; console errors: ${consoleErrors.slice(-5).join(' | ')}` : '';
      console.error(`[journey at ${base}] when closed: ${lastSeen}${errors}`);
    });
    // The browser outlives the file (useBrowser): a journey its test left open (a failed step before
    // its close, say) is closed with the test, not left drawing beside the next ones.
    onTestFinished(() => context.close());
  } catch {
    // Opened outside a test (in a hook): nothing to report to; useBrowser closes it after its block.
  }
  return {
    context,
    page,
    pageErrors,
    consoleErrors,
    cspViolations,
    async goto(path) {
      const response = await page.goto(path, { waitUntil: 'load' });
      if (!response) throw new Error(`No response for ${path}`);
      return response;
    },
    assertNoPageErrors() {
      if (cspViolations.length > 0) {
        throw new Error(`Content-Security-Policy violation(s):\n  - ${[...new Set(cspViolations)].join('\n  - ')}`);
      }
      if (pageErrors.length === 0) return;
      const listed = pageErrors.map((error) => `  - ${error.stack ?? error.message}`).join('\n');
      const console = consoleErrors.length ? `\nconsole errors:\n  - ${consoleErrors.join('\n  - ')}` : '';
      throw new Error(`Uncaught page error(s):\n${listed}${console}`);
    },
    screenshot(name) {
      return screenshot(page, name);
    },
    async close() {
      lastSeen = await describePage(page);
      await context.close();
    },
  };
}

/**
 * What the app's stylesheet makes of a looping pulse and a transition on this page: with reduced
 * motion asked for (openJourney's default) one loop and no slide (apps/web/src/styles.css).
 */
export function stylesheetMotion(page: Page): Promise<{ loops: string; slideSeconds: number }> {
  return page.evaluate(() => {
    const probe = document.createElement('div');
    probe.className = 'animate-pulse transition';
    document.body.append(probe);
    const style = getComputedStyle(probe);
    const figures = { loops: style.animationIterationCount, slideSeconds: parseFloat(style.transitionDuration) };
    probe.remove();
    return figures;
  });
}

/** The page's address and the start of its visible text, on one line. */
async function describePage(page: Page): Promise<string> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 1000 })
    .catch((error: unknown) => `(no text: ${(error as Error).message.split('\n')[0]})`);
  return `${page.url()} showing "${text.replace(/\s+/g, ' ').trim().slice(0, 400)}"`;
}

/** With SCREENSHOTS=1, saves a full-page PNG of the page into .tmp/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!takeScreenshots) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

/**
 * Waits until the page's path is `path` (or matches it) and returns it. Some moves follow a timed
 * step (the 5 s countdown before a game), so it waits up to 20 s.
 */
export async function atPath(page: Page, path: string | RegExp): Promise<string> {
  const pathname = () => new URL(page.url()).pathname;
  const poll = expect.poll(pathname, { timeout: 20_000 });
  if (typeof path === 'string') await poll.toBe(path);
  else await poll.toMatch(path);
  return pathname();
}
