/**
 * The accessibility journeys' tools (e2e/accessibility-*.test.ts): axe-core checks of a screen state
 * (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone (390×844) sizes that list every failure of a
 * journey before failing it, the checks of a field's error, a way between the app's pages without
 * loading them again, and players driven over their own sockets beside the browser.
 */
import { writeFileSync } from 'node:fs';
import { type Card, TIME_CAP_MS, matches } from '@memeslam/engine';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { type Socket, io } from 'socket.io-client';
import { expect } from 'vitest';
import type { ManualClock } from '../../apps/server/src/clock.ts';
import { users } from '../../apps/server/src/db/schema.ts';
import type { Account } from './accounts.ts';
import { type Violation, accessibilityFailure, axeViolations } from './axe.ts';
import type { E2eServer } from './server.ts';
import { apiFetch } from './api.ts';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export type Size = typeof DESKTOP | typeof PHONE;
export const BOTH: readonly Size[] = [DESKTOP, PHONE];

/** Every state checked in this file's run with what axe found there (any impact), for the closing count and report. */
const checked: { state: string; violations: { rule: string; impact: string; nodes: number }[] }[] = [];

/** Sets the page's size, unless it has it already (a resize lays the whole page out again). */
async function resize(page: Page, size: { readonly width: number; readonly height: number }): Promise<void> {
  const now = page.viewportSize();
  if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
}

/**
 * Checks states and keeps what fails, so that one run lists every violation of a journey; `done()`
 * fails the journey if anything did.
 */
export function audit() {
  const failures: string[] = [];
  return {
    async check(page: Page, label: string, sizes: readonly Size[] = BOTH): Promise<void> {
      const before = page.viewportSize();
      for (const size of sizes) {
        await resize(page, size);
        // Let the layout settle at the new size (media queries, the viewport hooks) before measuring.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const name = `${label} @ ${size.width}×${size.height}`;
        const violations: Violation[] = await axeViolations(page);
        checked.push({
          state: name,
          violations: violations.map((v) => ({ rule: v.id, impact: v.impact ?? '', nodes: v.nodes.length })),
        });
        const failure = accessibilityFailure(name, page.url(), violations);
        if (failure) failures.push(failure);
      }
      if (before) await resize(page, before);
    },
    done(): void {
      if (failures.length > 0) throw new Error(`${failures.length} state(s) failed:\n\n${failures.join('\n\n')}`);
    },
  };
}

/** A journey's checker (see audit). */
export type Audit = ReturnType<typeof audit>;

/**
 * Takes the page to `path` as the web app's own links do (its router's history, no new document):
 * the app and the axe-core put into the page carry on, so a state costs its render, not a page load.
 * For the pages a person reaches inside the app; an address from outside (a mail's link, an unknown
 * route) is loaded with journey.goto.
 */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * A field with an error shown: its accessible name is still exactly its label, it is marked invalid,
 * and the error is its description (aria-describedby), not part of its name.
 */
export async function expectFieldError(
  page: Page,
  label: string,
  error: string,
  role: 'textbox' | 'spinbutton' = 'textbox',
): Promise<void> {
  const field = page.getByRole(role, { name: label, exact: true });
  expect(await field.count(), `one field named exactly "${label}"`).toBe(1);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const described = await field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(described).toContain(error);
  // The error sits outside the field's <label>.
  expect(await field.evaluate((el) => [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent))).toEqual([
    label,
  ]);
}

export async function setRole(server: E2eServer, account: Account, role: 'superadmin' | 'user'): Promise<Account> {
  await server.app.db.update(users).set({ role }).where(eq(users.id, account.user.id));
  const me = await apiFetch(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${account.token}` } });
  const { data } = (await me.json()) as { data: { user: Account['user'] } };
  return { ...account, user: data.user };
}

export async function call<T>(server: E2eServer, account: Account, path: string, body?: unknown): Promise<T> {
  const response = await apiFetch(`${server.base}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { success: boolean; data: T; message?: string };
  if (!answer.success) throw new Error(`${path}: ${response.status} ${answer.message}`);
  return answer.data;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever the server sent
export type Payload = any;

export interface View {
  readonly hand: readonly Card[];
  readonly tops: readonly (Card | undefined)[];
}

/** Every play the rules allow from this hand onto these tops. */
export function movesOf({ hand, tops }: View): { card: Card; pileIndex: number }[] {
  return hand.flatMap((card) =>
    tops.flatMap((top, pileIndex) => (top && matches(card, top) ? [{ card, pileIndex }] : [])),
  );
}

/** A card to play and the pile it goes on. */
export interface Move {
  readonly cardId: string;
  readonly pileIndex: number;
}

/** A player's own socket beside their browser: the test plays for them. */
export async function connect(server: E2eServer, token: string) {
  const socket: Socket = io(server.base, { auth: { token }, transports: ['websocket'], reconnection: false });
  const last = new Map<string, Payload>();
  socket.onAny((event: string, payload: Payload) => last.set(event, payload));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const emit = (event: string, payload: unknown = {}): Promise<Payload> =>
    socket.timeout(10_000).emitWithAck(event, payload);
  /** This player's hand and the piles' top cards (empty when not in a game). */
  async function view(): Promise<View> {
    const now = (await emit('requestHand', {})).data;
    return {
      hand: now?.hand ?? [],
      tops: (now?.gameState.discardPiles ?? []).map((pile: Card[]) => pile.at(-1)),
    };
  }
  /** A playable card of this player, or null (nothing matches, not in a game). */
  async function move(): Promise<Move | null> {
    const found = movesOf(await view())[0];
    return found ? { cardId: found.card.id, pileIndex: found.pileIndex } : null;
  }
  /** The status of this player's game as the server has it now (undefined when not in one). */
  async function status(): Promise<string | undefined> {
    return (await emit('requestHand', {})).data?.gameState.status;
  }
  /** Resolves with the event's payload once it has come (at once if it already has). */
  function event(name: string, timeoutMs = 15_000): Promise<Payload> {
    if (last.has(name)) return Promise.resolve(last.get(name));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${name} within ${timeoutMs} ms`)), timeoutMs);
      socket.once(name, (payload: Payload) => {
        clearTimeout(timer);
        resolve(payload);
      });
    });
  }
  return { socket, last, emit, view, move, status, event };
}
export type Player = Awaited<ReturnType<typeof connect>>;

/** How far the server's hand-moved clock goes on while nobody can play (a freeze, a deadlock to resolve). */
const IDLE_STEP_MS = 500;

/**
 * Plays a game out over the sockets so that `winner` wins: it plays whenever it can, and each
 * `other` plays only while `winner` has nothing to play (so the board keeps moving). The server runs
 * on `clock`, moved by hand: only when no play went down does it move on (IDLE_STEP_MS), until a
 * freeze ends or a deadlock is resolved, so the game takes the real time of its plays, not its own.
 * Fails once `limitMs` of the game's time has passed.
 */
export async function playOut(
  winner: Player,
  others: readonly Player[],
  clock: ManualClock,
  limitMs = TIME_CAP_MS,
): Promise<void> {
  const until = clock.now() + limitMs;
  while (!winner.last.has('gameEnded')) {
    if (clock.now() > until) throw new Error('the game did not end in time');
    const mine = await winner.move();
    if (mine ? await plays(winner, mine) : await someonePlays(others)) continue;
    // Nobody played: over already (its end not yet here), or time must pass for the game to go on.
    if ((await winner.status()) !== 'active') break;
    clock.advance(IDLE_STEP_MS);
  }
  await winner.event('gameEnded');
}

/** Plays `move` for `player`; whether the server took it (a frozen player's is refused). */
async function plays(player: Player, move: Move): Promise<boolean> {
  return (await player.emit('playCard', move)).success === true;
}

/** The first of `players` with a card to play plays it; whether it went down. */
async function someonePlays(players: readonly Player[]): Promise<boolean> {
  for (const player of players) {
    const move = await player.move();
    if (move) return plays(player, move);
  }
  return false;
}

/** Waits for the in-game board of a member: a hand card on screen. */
export const inGame = (page: Page) => page.locator('[data-hand-card]').first().waitFor({ timeout: 30_000 });

/**
 * After a file's journeys: how many states were checked; A11Y_REPORT=prefix keeps every state's
 * findings, minor ones included, in prefix-<name>.json for a closer look.
 */
export function reportChecks(name: string): void {
  const states = new Set(checked.map(({ state }) => state.replace(/ @ .*$/, '')));
  console.log(`[a11y] ${name}: ${states.size} screen states checked, ${checked.length} checks (each at its sizes)`);
  if (process.env.A11Y_REPORT) {
    writeFileSync(`${process.env.A11Y_REPORT}-${name}.json`, JSON.stringify(checked, null, 2));
  }
}
