/**
 * Asking again while the server says it is busy: a 503 with Retry-After (the password-hashing line,
 * the event loop, admission control) is asked again after the seconds it names (and up to a second
 * more, at random), until it is answered
 * otherwise or BUSY_RETRY_MAX_WAIT_MS has passed since the first try; then the error goes to the
 * caller as before. Meanwhile the page shows BusyLine (docs/limits.md). No import of the HTTP client:
 * it reads the refusal's status and Retry-After, which ApiError carries.
 */
import { BUSY_RETRY_MAX_WAIT_MS } from '@memeslam/protocol';

/** What is read of a failed call (ApiError has both). */
interface Refusal {
  readonly status: number;
  readonly retryAfterMs: number | null;
}

/** A 503 that says when to come back. */
function busyFor(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, retryAfterMs } = error as Partial<Refusal>;
  return status === 503 && typeof retryAfterMs === 'number' ? retryAfterMs : null;
}

/** Retry-After in milliseconds: whole seconds, or an HTTP date (in GMT); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Date.parse reads "-1" or "1.5" as dates too: an HTTP date names its zone, GMT.
  if (!/ GMT$/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface BusyOptions {
  /** Told when the first busy answer comes, with the time the wait began (the first try's); null once it is over. */
  readonly onLine?: (since: number | null) => void;
  readonly maxWaitMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function askWhileBusy<T>(call: () => Promise<T>, options: BusyOptions = {}): Promise<T> {
  const { onLine, maxWaitMs = BUSY_RETRY_MAX_WAIT_MS, now = Date.now, sleep = pause, random = Math.random } = options;
  const started = now();
  let inLine = false;
  try {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        const waitMs = busyFor(error);
        // Past the cap, the refusal is the answer, as it was before the line existed.
        if (waitMs === null || now() + waitMs - started > maxWaitMs) throw error;
        if (!inLine) onLine?.(started);
        inLine = true;
        // Up to a second more (the wait itself, if shorter), at random: a crowd told the same
        // Retry-After does not come back in the same instant.
        await sleep(waitMs + random() * Math.min(1000, waitMs));
      }
    }
  } finally {
    if (inLine) onLine?.(null);
  }
}
