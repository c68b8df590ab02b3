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

/**
 * Plays until the result screen shows, forcing deadlock resolution when the screen offers it.
 * `beforePlay`, when given, runs before each attempt to play (to hold back the last card, say).
 */
export async function playUntilEnd(page: Page, limitMs = 240_000, beforePlay?: () => Promise<void>): Promise<number> {
  const until = Date.now() + limitMs;
  let plays = 0;
  while (Date.now() < until) {
    if (await resultShown(page)) return plays;
    await beforePlay?.();
    if (await playOneCard(page)) {
      plays += 1;
      continue;
    }
    const force = page.getByRole('button', { name: 'Force Resolution Now' });
    if (await force.isVisible()) await force.click().catch(() => undefined);
    // Nothing playable: wait for the board to change (a bot's card, a refill, a flip).
    await page
      .locator('[data-hand-card][data-playable]:not([disabled]), h1:text-matches("^(Victory|Game Over|AI Victory)$")')
      .first()
      .waitFor({ timeout: 5000 })
      .catch(() => undefined);
  }
  throw new Error(`the game did not end within ${limitMs / 1000} s (${plays} cards played)`);
}

/** The game screen's clock (the Game status panel's Time, m:ss) in seconds. */
export async function gameSeconds(page: Page): Promise<number> {
  const text = await page
    .getByRole('region', { name: 'Game status' })
    .locator('dt:text-is("Time") + dd')
    .textContent({ timeout: 2000 });
  const [minutes, seconds] = (text ?? '0:00').split(':').map(Number);
  return (minutes ?? 0) * 60 + (seconds ?? 0);
}

/**
 * Plays a whole game that lasts at least `minSeconds` on the game clock: cards go down as fast as
 * the board allows, and the last one waits until the clock has passed `minSeconds`.
 */
export async function playGameLasting(page: Page, minSeconds: number): Promise<number> {
  const left = page.getByRole('region', { name: 'My Deck' }).locator('dt:text-is("Total left") + dd');
  return playUntilEnd(page, 240_000, async () => {
    // The screen may have turned to the result: then there is nothing to hold back.
    const cardsLeft = await left.textContent({ timeout: 2000 }).catch(() => null);
    if (cardsLeft === null || Number(cardsLeft) > 1) return;
    if ((await gameSeconds(page).catch(() => minSeconds)) >= minSeconds) return;
    // Until the clock shows minSeconds (or the game ended some other way).
    await page.waitForFunction(
      (min) => {
        const heading = document.querySelector('h1')?.textContent ?? '';
        if (/^(Victory|Game Over|AI Victory)$/.test(heading)) return true;
        const time = [...document.querySelectorAll('dt')].find((dt) => dt.textContent === 'Time')?.nextElementSibling;
        const [m, sec] = (time?.textContent ?? '0:00').split(':').map(Number);
        return (m ?? 0) * 60 + (sec ?? 0) >= min;
      },
      minSeconds,
      { timeout: (minSeconds + 10) * 1000 },
    );
  });
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
