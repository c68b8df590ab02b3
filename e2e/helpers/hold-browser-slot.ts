/**
 * Setup file of the e2e project: the file takes a browser slot (apps/server/test/helpers/browser-slots.ts) before its
 * own hooks run and gives it back after them, so at most BROWSER_SLOTS journeys run at once while
 * the server suites run beside them.
 */
import { afterAll, beforeAll } from 'vitest';
import { giveBrowserSlot, takeBrowserSlot } from '../../apps/server/test/helpers/browser-slots.ts';

/** Waiting for a slot lasts as long as the journeys ahead take: the whole run's limit applies. */
const WAIT_FOR_SLOT_MS = 60 * 60_000;

beforeAll(takeBrowserSlot, WAIT_FOR_SLOT_MS);
afterAll(giveBrowserSlot);
