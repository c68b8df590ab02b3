/**
 * Accessibility checks inside the browser journeys: axe-core run on the page as it stands, against
 * WCAG 2.0 and 2.1 levels A and AA. A journey fails on any violation axe rates serious or critical,
 * listing each with the elements it found and why.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** One rule's violation as axe reports it (its elements, impact, help). */
export type Violation = axe.Result;

/**
 * One axe run over the page's document. axe-core is put into a document once (a page keeps it until
 * it navigates) and runs where it is: our pages have no frames, so axe's cross-frame protocol (a
 * blank page opened per run to join frames' results, as @axe-core/playwright does) would only cost time.
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axe.source);
  const options: axe.RunOptions = { runOnly: { type: 'tag', values: [...WCAG_TAGS] } };
  return page.evaluate(
    (runOptions) => (window as unknown as { axe: typeof axe }).axe.run(document, runOptions),
    options,
  );
}

const BLOCKING = new Set(['serious', 'critical']);

/**
 * Waits (up to 3 s) for the page's finite animations and transitions to end: a toast or dialog
 * still fading in would be measured at part opacity. Endless ones (spinners, pulses) are left be.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    const timeout = new Promise((resolve) => setTimeout(resolve, 3000));
    await Promise.race([Promise.allSettled(finite.map((a) => a.finished)), timeout]);
  });
}

/**
 * While axe measures, CSS transitions are off, so whatever changes shows at once in its final
 * colors: a stacked toast fading behind a new one (bots play every second in a blitz game) is
 * measured as it will rest, not at part opacity. `on: false` restores them.
 */
async function freezeTransitions(page: Page, on: boolean): Promise<void> {
  await page.evaluate((freeze) => {
    const id = 'axe-freeze-transitions';
    document.getElementById(id)?.remove();
    if (!freeze) return;
    const style = document.createElement('style');
    style.id = id;
    style.textContent = '*, *::before, *::after { transition: none !important; }';
    document.head.append(style);
  }, on);
}

/**
 * Starts noting whether anything on the page starts to move: a CSS transition or animation (their
 * events), or a script's `element.animate()` (no event says so: the call itself is watched), such as
 * the countdown's number, which fades in at each tick and may start and end while axe runs.
 */
async function watchMotion(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { axeMotion?: { moved: boolean; stop(): void } };
    w.axeMotion?.stop();
    const watch = { moved: false, stop: () => {} };
    const moved = () => {
      watch.moved = true;
    };
    for (const type of ['transitionrun', 'animationstart']) document.addEventListener(type, moved, true);
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
      moved();
      return animate.apply(this, args);
    };
    watch.stop = () => {
      for (const type of ['transitionrun', 'animationstart']) document.removeEventListener(type, moved, true);
      Element.prototype.animate = animate;
    };
    w.axeMotion = watch;
  });
}

/** Whether something moved since watchMotion, or still moves. */
async function motionSeen(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const w = window as unknown as { axeMotion?: { moved: boolean; stop(): void } };
    const watch = w.axeMotion;
    watch?.stop();
    const running = document
      .getAnimations()
      .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    return (watch?.moved ?? false) || running;
  });
}

/**
 * Every WCAG A/AA violation of the page as it stands, whatever its impact. It measures a still page
 * (transitions off while it runs): if something moved while axe ran (a toast sliding in as a bot plays), it waits for it to settle
 * and measures again. On a page that never stops (a game with fast bots), after three tries it
 * keeps what every try found: a real fault stays put, a half-faded toast does not.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const tries: Violation[][] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    // Watched from before the wait: an animation that started after the wait and ended while axe ran
    // (the countdown's next number fading in) was otherwise measured half-faded and never seen.
    await watchMotion(page);
    await settleAnimations(page);
    await freezeTransitions(page, true);
    const results = await runAxe(page);
    const moved = await motionSeen(page);
    await freezeTransitions(page, false);
    if (!moved) return results.violations;
    tries.push(results.violations);
  }
  const key = (rule: string, target: unknown) => `${rule} ${JSON.stringify(target)}`;
  const seen = tries.map((found) => new Set(found.flatMap((v) => v.nodes.map((n) => key(v.id, n.target)))));
  return (tries.at(-1) ?? [])
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => seen.every((set) => set.has(key(v.id, n.target)))) }))
    .filter((v) => v.nodes.length > 0);
}

/** One violation as a person reads it: rule, impact, and each element with axe's summary of the failure. */
export function describeViolation(violation: Violation): string {
  const nodes = violation.nodes.map((node) => {
    const target = node.target.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');
    const summary = (node.failureSummary ?? '').replace(/\s*\n\s*/g, ' ').trim();
    return `    - ${target}\n      ${summary}`;
  });
  return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.nodes.length})\n${nodes.join('\n')}`;
}

/** The serious and critical ones among `violations`. */
export function blocking(violations: readonly Violation[]): Violation[] {
  return violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
}

/** The failure message for a state's violations: every serious or critical one; null when there are none. */
export function accessibilityFailure(label: string, url: string, violations: readonly Violation[]): string | null {
  const found = blocking(violations);
  if (found.length === 0) return null;
  return (
    `${label}: ${found.length} serious/critical accessibility violation(s) at ${url}\n` +
    found.map(describeViolation).join('\n')
  );
}

/**
 * Fails, with every serious or critical WCAG A/AA violation listed, unless the page has none.
 * `label` names the screen state in the message. Returns all violations found (the minor and
 * moderate ones, which do not fail it).
 */
export async function expectAccessible(page: Page, label: string): Promise<Violation[]> {
  const violations = await axeViolations(page);
  const failure = accessibilityFailure(label, page.url(), violations);
  if (failure) throw new Error(failure);
  return violations;
}
