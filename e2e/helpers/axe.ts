/**
 * Accessibility checks inside the browser journeys: axe-core run on the page as it stands, against
 * WCAG 2.0 and 2.1 levels A and AA. A journey fails on any violation axe rates serious or critical,
 * listing each with the elements it found and why.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** One rule's violation as axe reports it (its elements, impact, help). */
export type Violation = axe.Result;

/**
 * axe-core's own minified build (the package's axe.js, the text of `axe.source`, is the same code
 * at twice the size): sent into each document that is checked and compiled there, so the smaller
 * text is less to send and to parse, once per document.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Only the violations are taken back: axe then describes one element of each passing or
 * inapplicable rule instead of every one (a selector, an XPath and the HTML of each of the page's
 * many passing elements), which was a large part of a run's time, and none of it is read here.
 */
const RUN_OPTIONS: axe.RunOptions = { runOnly: { type: 'tag', values: [...WCAG_TAGS] }, resultTypes: ['violations'] };

/** One measurement: what axe found, and whether anything on the page moved while it measured. */
interface Measurement {
  readonly violations: Violation[];
  readonly moved: boolean;
}

/**
 * One axe run over the page's document, as still as the page allows, in one call into the page:
 * - it waits (up to 3 s) for the page's finite animations and transitions to end: a toast or dialog
 *   still fading in would be measured at part opacity. Endless ones (spinners, pulses) are left be;
 * - while axe measures, CSS transitions are off, so whatever changes shows at once in its final
 *   colors, and one under way is cut to its end: a stacked toast fading behind a new one (bots play
 *   every second in a blitz game), or the landing page's next sample card, is measured as it will
 *   rest, not at part opacity;
 * - it notes whether anything the freeze cannot stop starts to move, from before its wait on: a
 *   finite CSS animation (its event), or a script's `element.animate()` (no event says so: the call
 *   itself is watched), such as the countdown's number, which pops in at each tick and may start and
 *   end while axe runs. A transition is no such thing (it is cut to its end), nor is an endless
 *   animation starting (a pulse: it never rests, so measuring again would not find it at rest).
 * null when the document has no axe in it yet.
 *
 * axe-core is put into a document once (a page keeps it until it navigates) and runs where it is:
 * our pages have no frames, so axe's cross-frame protocol (a blank page opened per run to join
 * frames' results, as @axe-core/playwright does) would only cost time.
 */
function measureInPage(page: Page): Promise<Measurement | null> {
  return page.evaluate(async (runOptions) => {
    const w = window as unknown as { axe?: typeof axe };
    if (typeof w.axe?.run !== 'function') return null;
    const ends = (animation: Animation) => animation.effect?.getComputedTiming().endTime !== Infinity;
    const moving = () => document.getAnimations().filter((a) => a.playState === 'running' && ends(a));

    // Watched from before the wait: an animation that starts after it and ends while axe runs (the
    // countdown's next number popping in) was otherwise measured half-faded and never seen.
    let moved = false;
    const started = (event: AnimationEvent) => {
      const endless = (event.target as Element)
        .getAnimations({ subtree: true })
        .some((a) => (a as CSSAnimation).animationName === event.animationName && !ends(a));
      if (!endless) moved = true;
    };
    document.addEventListener('animationstart', started, true);
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
      const animation = animate.apply(this, args);
      if (ends(animation)) moved = true;
      return animation;
    };
    const freeze = document.createElement('style');
    freeze.textContent = '*, *::before, *::after { transition: none !important; }';
    try {
      const timeout = new Promise((resolve) => setTimeout(resolve, 3000));
      await Promise.race([Promise.allSettled(moving().map((a) => a.finished)), timeout]);
      document.head.append(freeze);
      const results = await w.axe.run(document, runOptions);
      return { violations: results.violations, moved: moved || moving().length > 0 };
    } finally {
      freeze.remove();
      document.removeEventListener('animationstart', started, true);
      Element.prototype.animate = animate;
    }
  }, RUN_OPTIONS);
}

/** One still measurement, axe put into the document first when it has none. */
async function measure(page: Page): Promise<Measurement> {
  const found = await measureInPage(page);
  if (found) return found;
  await page.evaluate(AXE_SOURCE);
  const again = await measureInPage(page);
  if (!again) throw new Error('axe-core did not load into the page');
  return again;
}

const BLOCKING = new Set(['serious', 'critical']);

/**
 * Every WCAG A/AA violation of the page as it stands, whatever its impact. It measures a still page
 * (transitions off while it runs): if something the freeze cannot stop moved while axe ran (a
 * dialog's opening animation, the countdown's next number popping in), it waits for it to settle and
 * measures again. On a page that never stops, after three tries it keeps what every try found: a
 * real fault stays put, a half-faded number does not.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const tries: Violation[][] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const { violations, moved } = await measure(page);
    if (!moved) return violations;
    tries.push(violations);
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
