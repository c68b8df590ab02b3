/**
 * Helpers for journeys that play: a bot game made over HTTP, and a player that clicks a playable hand card and then a pile the
 * screen marks as a target — the way a person plays — until the game ends.
 */
import type { Page } from 'playwright-core';
import type { Account } from './accounts.ts';
import { apiFetch } from './api.ts';

/** A bot game made over HTTP for this account, starting itself once created. */
export async function createBotGame(
  base: string,
  account: Account,
  settings: Record<string, unknown> = {},
): Promise<{ gameId: string; roomCode: string }> {
  const response = await apiFetch(`${base}/api/game/create-bot-game`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ numberOfBots: 1, botDifficulty: 'easy', maxPlayers: 2, autoStart: true, ...settings }),
  });
  const body = (await response.json()) as { data?: { gameId: string; roomCode: string } };
  if (!body.data) throw new Error(`create-bot-game failed: ${JSON.stringify(body)}`);
  return body.data;
}

export const RESULT_HEADINGS = /^(Victory|Game Over|AI Victory)$/;

/** Whether the result screen is up. */
export function resultShown(page: Page): Promise<boolean> {
  return page.getByRole('heading', { name: RESULT_HEADINGS }).isVisible();
}

/**
 * One move as a person makes it: a playable hand card, then a pile marked as its target. Returns
 * false when there was nothing to play (the caller waits for the board to change).
 */
export async function playOneCard(page: Page): Promise<boolean> {
  const card = page.locator('[data-hand-card][data-playable]:not([disabled])').first();
  if ((await card.count()) === 0) return false;
  try {
    await card.click({ timeout: 2000 });
    const pile = page.locator('[data-pile][data-target]').first();
    await pile.click({ timeout: 2000 });
    return true;
  } catch {
    // The board changed under the click (a bot played, the card went): try again with the new board.
    await page.keyboard.press('Escape');
    return false;
  }
}

/** How playUntilEnd waits for the board, besides playing what it can. */
export interface PlayOptions {
  /** Runs before each attempt to play (to hold back the last card, say). */
  readonly beforePlay?: () => Promise<void>;
  /**
   * Runs when the screen offers nothing to play, before the wait for the board to change: on a
   * hand-moved server clock, moves it on until there is something (clock.ts, ClockedGame).
   */
  readonly idle?: () => Promise<void>;
}

/** Plays until the result screen shows, forcing deadlock resolution when the screen offers it. */
export async function playUntilEnd(page: Page, limitMs = 240_000, options: PlayOptions = {}): Promise<number> {
  const until = Date.now() + limitMs;
  let plays = 0;
  while (Date.now() < until) {
    if (await resultShown(page)) return plays;
    await options.beforePlay?.();
    if (await playOneCard(page)) {
      plays += 1;
      continue;
    }
    const force = page.getByRole('button', { name: 'Force Resolution Now' });
    if (await force.isVisible()) await force.click().catch(() => undefined);
    await options.idle?.();
    // Nothing playable: wait for the board to change (a bot's card, a refill, a flip).
    await page
      .locator('[data-hand-card][data-playable]:not([disabled]), h1:text-matches("^(Victory|Game Over|AI Victory)$")')
      .first()
      .waitFor({ timeout: 5000 })
      .catch(() => undefined);
  }
  throw new Error(`the game did not end within ${limitMs / 1000} s (${plays} cards played)`);
}

/**
 * Watches for a dialog on the page to show `text`, however briefly; the function returned resolves
 * once it has. A MutationObserver in the page sees every change, so a text shown for one second
 * ("GO!") is seen even when the test's own polling is held up longer by a busy machine (a locator's
 * waitFor polls, and can miss it). Call it before the action that leads to the text.
 */
export async function watchDialogFor(page: Page, text: string): Promise<() => Promise<void>> {
  const flag = `__dialogShown:${text}`;
  await page.evaluate(
    ({ wanted, key }) => {
      const shown = () =>
        [...document.querySelectorAll('[role="dialog"]')].some((d) => d.textContent?.includes(wanted));
      const marks = window as unknown as Record<string, boolean>;
      marks[key] = false;
      const observer = new MutationObserver(() => {
        if (!shown()) return;
        marks[key] = true;
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { wanted: text, key: flag },
  );
  return async () => {
    await page.waitForFunction((key) => (window as unknown as Record<string, boolean>)[key] === true, flag, {
      timeout: 30_000,
    });
  };
}
