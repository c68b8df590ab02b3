/**
 * Where the game screen draws its piles, hand, power-ups and header, read from the page: the layout
 * journeys compare these boxes across screen sizes and before and after a notice appears.
 */
import type { Page } from 'playwright-core';

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

/** Everything a person needs to play, where it is on screen, and whether the page could scroll. */
export function measure(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const all = (selector: string) => [...document.querySelectorAll(selector)];
    const navBottom = document.querySelector('nav[aria-label="Main"]')?.getBoundingClientRect().bottom ?? 0;
    const controls = [
      ...all('[data-pile]').map((el) => ({ name: el.getAttribute('aria-label') ?? 'pile', box: box(el) })),
      ...all('[data-hand-card]').map((el) => ({ name: el.getAttribute('aria-label') ?? 'card', box: box(el) })),
      ...all('section[aria-label="Power-ups"] button').map((el) => ({
        name: el.getAttribute('aria-label') ?? 'power-up',
        box: box(el),
      })),
    ];
    const outside = controls
      .filter(
        ({ box: b }) => b.left < 0 || b.top < navBottom || b.right > window.innerWidth || b.bottom > window.innerHeight,
      )
      .map(({ name }) => name);
    const cutNames = all('[data-power-up-name]')
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => el.textContent);
    const header = document.querySelector('[data-game-header]');
    return {
      counts: {
        piles: all('[data-pile]').length,
        hand: all('[data-hand-card]').length,
        powerUps: all('section[aria-label="Power-ups"] button').length,
      },
      outside,
      cutNames,
      pageScrolls: document.documentElement.scrollHeight > window.innerHeight,
      // The centre column scrolls only on a screen too short for the smallest cards: never at these sizes.
      boardScrolls: [...document.querySelectorAll('[data-game-screen] main')].some(
        (el) => el.scrollHeight > el.clientHeight,
      ),
      sideways: document.documentElement.scrollWidth > window.innerWidth,
      headerTop: header ? header.getBoundingClientRect().top : null,
      navBottom,
      piles: all('[data-pile]').map(box),
      hand: all('[data-hand-card]').map(box),
    };
  });
}

/** The piles' and hand's boxes, to compare before and after something appears. */
export async function board(page: Page): Promise<{ piles: Box[]; hand: Box[] }> {
  const { piles, hand } = await measure(page);
  return { piles, hand };
}
