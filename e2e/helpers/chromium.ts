/**
 * Debian's Chromium and the project's headless flags: the browser journeys and bench:web-size use both.
 * CHROMIUM_PATH, when set, names the one browser for both.
 */
import { existsSync } from 'node:fs';

/**
 * The full browser (Debian package `chromium`), for bench:web-size: its Lighthouse score and first-load
 * figures are a real browser's, favicon request included (the headless shell never asks for one).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian package `chromium-headless-shell`: Chromium's old headless mode, the same Blink without the
 * full browser's window and UI (which the full browser draws even headless), the build Playwright
 * itself runs headless journeys in. It takes about half the CPU for the same journeys (six journey
 * files: 72–79 → 34–47 core-seconds of the browser's own). The binary itself:
 * /usr/bin/chromium-headless-shell is a sh script that would stand between Playwright and the browser.
 */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';

/** The journeys' browser: CHROMIUM_PATH when set, else the headless shell, else the full browser. */
export const JOURNEY_BROWSER_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
