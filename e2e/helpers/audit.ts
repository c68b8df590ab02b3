/**
 * The accessibility journeys' tools (e2e/accessibility-*.test.ts): axe-core checks of a screen state
 * (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone (390×844) sizes that list every failure of a
 * journey before failing it, the checks of a field's error, and players driven over their own
 * sockets beside the browser.
 */
import { writeFileSync } from 'node:fs';
import { type Card, matches } from '@memeslam/engine';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { type Socket, io } from 'socket.io-client';
import { expect } from 'vitest';
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
  async function move(): Promise<{ cardId: string; pileIndex: number } | null> {
    const found = movesOf(await view())[0];
    return found ? { cardId: found.card.id, pileIndex: found.pileIndex } : null;
  }
  return { socket, last, emit, view, move };
}
export type Player = Awaited<ReturnType<typeof connect>>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays a game out over the sockets so that `winner` wins: it plays whenever it can, and each
 * `other` plays only while `winner` has nothing to play (so the board keeps moving).
 */
export async function playOut(winner: Player, others: readonly Player[], limitMs = 90_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!winner.last.has('gameEnded') && Date.now() < until) {
    const mine = await winner.move();
    if (mine) {
      await winner.emit('playCard', mine);
    } else {
      for (const other of others) {
        const theirs = await other.move();
        if (theirs) {
          await other.emit('playCard', theirs);
          break;
        }
      }
    }
    await sleep(150);
  }
  if (!winner.last.has('gameEnded')) throw new Error('the game did not end in time');
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
