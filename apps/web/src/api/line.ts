/**
 * The line a person waits in while the servers have no headroom for a new game (docs/capacity.md):
 * a start refused with NO_HEADROOM is asked again every ADMISSION_RETRY_MS, within
 * BUSY_RETRY_MAX_WAIT_MS, and meanwhile the app shows one BusyLine under the nav bar, whichever page
 * asked (app/App.tsx). An HTTP call passes `line.enter` as askWhileBusy's `onLine` (api/busy.ts).
 */
import { ADMISSION_RETRY_MS, BUSY_RETRY_MAX_WAIT_MS } from '@memeslam/protocol/constants';
import { useSyncExternalStore } from 'react';

/** When the current wait began (ms since the epoch), or null when nobody waits. */
let since: number | null = null;
const listeners = new Set<() => void>();

export const line = {
  /** The wait began at `at` (null: it is over). */
  enter(at: number | null): void {
    since = at;
    for (const listener of listeners) listener();
  },
  get: (): number | null => since,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useLine(): number | null {
  return useSyncExternalStore(line.subscribe, line.get);
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asks for a new game until it is not refused for want of headroom (or the wait's cap has passed). */
export async function untilAdmitted<A extends { readonly success: boolean; readonly code?: string | undefined }>(
  attempt: () => Promise<A>,
  sleep: (ms: number) => Promise<void> = pause,
): Promise<A> {
  const started = Date.now();
  let waiting = false;
  try {
    for (;;) {
      const ack = await attempt();
      if (ack.success || ack.code !== 'NO_HEADROOM') return ack;
      if (Date.now() + ADMISSION_RETRY_MS - started > BUSY_RETRY_MAX_WAIT_MS) return ack;
      if (!waiting) line.enter(started);
      waiting = true;
      await sleep(ADMISSION_RETRY_MS);
    }
  } finally {
    if (waiting) line.enter(null);
  }
}
