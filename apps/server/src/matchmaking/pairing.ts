/**
 * "Play now" pairing: who sits down together, decided from the queue as it
 * stands and the time. Pure, so the in-process queue, the cluster's queue and bench:matchmaking
 * run the same rules.
 *
 * - People of similar rating are seated together: two may meet when each lies inside the other's
 *   window, which widens with the wait (lichess's quick pairing does the same).
 * - A table is 2, 3 or 4 seats; "any" sits at whatever table the others want (two of "any" make a
 *   pair at once, more of them a larger table).
 * - After BOT_FILL_AFTER_MS, a table with at least two people but empty seats starts with bots in
 *   them, paced like the people present; someone still alone is offered a bot game paced to them.
 * - Two accounts from one address meet at most MAX_SAME_ADDRESS_MEETINGS times an hour. The address
 *   is the client's network (networkOf: IPv4 whole, IPv6 its /64; docs/limits.md), as the gateway
 *   gives it in socket.data.address.
 */

export const TABLE_SIZES = [2, 3, 4] as const;
export type TableSize = (typeof TABLE_SIZES)[number] | 'any';

export const BOT_FILL_AFTER_MS = 20_000;
/** The rating window: ± this at once, growing by WINDOW_GROWTH per second of waiting, up to WINDOW_MAX. */
export const WINDOW_START = 100;
export const WINDOW_GROWTH = 15;
export const WINDOW_MAX = 700;
export const MAX_SAME_ADDRESS_MEETINGS = 2;

export interface Seeker {
  readonly userId: string;
  readonly rating: number;
  readonly size: TableSize;
  /** When they joined the queue (ms). */
  readonly since: number;
  /** Where they connect from (the anti-farming rule). */
  readonly address: string;
  /** Their recorded median time per play (ms): bots filling their table play at the table's median. */
  readonly paceMs: number;
}

export type Decision =
  | {
      readonly kind: 'table';
      /** The people to seat, the longest waiting first (the first is the room's host). */
      readonly people: readonly Seeker[];
      /** Empty seats filled with bots, paced at `botPaceMs`. */
      readonly bots: number;
      readonly botPaceMs: number | null;
    }
  | { readonly kind: 'offerBots'; readonly seeker: Seeker; readonly botPaceMs: number };

export interface PairingContext {
  readonly now: number;
  /** Times two users from one address met in the last hour. */
  meetingsWithin(a: Seeker, b: Seeker): number;
  /** Whether this seeker was already offered a bot game (the offer is made once). */
  offered(seeker: Seeker): boolean;
}

/** How far from their own rating a seeker accepts an opponent, after waiting until `now`. */
export function windowOf(seeker: Seeker, now: number): number {
  const waited = Math.max(0, now - seeker.since) / 1000;
  return Math.min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited);
}

function compatibleSizes(a: TableSize, b: TableSize): boolean {
  return a === 'any' || b === 'any' || a === b;
}

function canMeet(a: Seeker, b: Seeker, ctx: PairingContext): boolean {
  if (!compatibleSizes(a.size, b.size)) return false;
  const gap = Math.abs(a.rating - b.rating);
  if (gap > windowOf(a, ctx.now) || gap > windowOf(b, ctx.now)) return false;
  return a.address !== b.address || ctx.meetingsWithin(a, b) < MAX_SAME_ADDRESS_MEETINGS;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The longest waiting first; equal waits by user id, so the order of the queue never matters. */
const byWait = (a: Seeker, b: Seeker) => a.since - b.since || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** The table the longest-waiting seeker can sit at now, or null. */
function tableFor(first: Seeker, open: readonly Seeker[], ctx: PairingContext): Decision | null {
  // Everyone who can meet the first and each other, nearest in rating first.
  const candidates = open
    .filter((s) => s !== first && canMeet(first, s, ctx))
    .sort((a, b) => Math.abs(a.rating - first.rating) - Math.abs(b.rating - first.rating) || a.since - b.since);
  const fixed = [first, ...candidates].find((s) => s.size !== 'any')?.size;
  const sizes: number[] = fixed !== undefined && fixed !== 'any' ? [fixed] : [...TABLE_SIZES].reverse();
  const waited = ctx.now - first.since >= BOT_FILL_AFTER_MS;
  for (const size of sizes) {
    const people = [first];
    for (const s of candidates) {
      if (people.length === size) break;
      if ((s.size === 'any' || s.size === size) && people.every((p) => canMeet(p, s, ctx))) people.push(s);
    }
    if (people.length === size) return { kind: 'table', people: people.sort(byWait), bots: 0, botPaceMs: null };
    // Of "any" people, the largest full table; otherwise wait, or fill the seats after the wait.
    if (fixed === undefined || fixed === 'any') {
      if (size === 2) break;
      continue;
    }
    if (waited && people.length >= 2) {
      const botPaceMs = median(people.map((p) => p.paceMs));
      return { kind: 'table', people: people.sort(byWait), bots: size - people.length, botPaceMs };
    }
  }
  if (waited && candidates.length === 0 && !ctx.offered(first)) {
    return { kind: 'offerBots', seeker: first, botPaceMs: first.paceMs };
  }
  return null;
}

/**
 * Every table that can start now, and every bot offer due, from the queue (in any order). Nobody is
 * in two decisions; the longest waiting are served first.
 */
export function pair(queue: readonly Seeker[], ctx: PairingContext): Decision[] {
  const open = [...queue].sort(byWait);
  const decisions: Decision[] = [];
  while (open.length > 0) {
    const first = open[0] as Seeker;
    const decision = tableFor(first, open, ctx);
    const taken = decision === null ? [first] : decision.kind === 'table' ? decision.people : [decision.seeker];
    if (decision) decisions.push(decision);
    for (const s of taken) open.splice(open.indexOf(s), 1);
  }
  return decisions;
}
