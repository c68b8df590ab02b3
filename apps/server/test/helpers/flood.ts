/**
 * A flood of identical HTTP requests sent from a worker thread, `width` at a time: the test's server
 * runs on the main thread, so the requests' own cost (building, sending, reading 1,500 answers) lands
 * on another core and a timing taken on the main thread is the server's alone.
 */
import { Worker } from 'node:worker_threads';

export interface Flood {
  method: 'POST' | 'GET';
  /** The full address, e.g. `${base}/api/auth/reset-password`. */
  url: string;
  body?: unknown;
  /** A body per request instead of one for all (e.g. registrations of distinct accounts); `count` of them. */
  bodies?: unknown[];
  count: number;
  width: number;
}

/** Plain JavaScript for the worker: fetch `count` times, `width` in flight; answers in order. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { method, url, bodies, count, width } = workerData;
const answers = new Array(count);
let next = 0;
async function lane() {
  while (next < count) {
    const index = next++;
    const body = bodies ? bodies[index] : workerData.body;
    const res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed = text;
    try { parsed = JSON.parse(text); } catch {}
    answers[index] = { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') };
  }
}
Promise.all(Array.from({ length: width }, lane)).then(
  () => parentPort.postMessage({ answers }),
  (error) => parentPort.postMessage({ error: String(error) }),
);
`;

/** One answer of a flood: its status, parsed body and Retry-After header (null without one). */
export interface FloodAnswer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** Sends the flood; resolves with every answer, in order. */
export function flood(options: Flood): Promise<FloodAnswer[]> {
  const worker = new Worker(WORKER, { eval: true, workerData: options });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { answers?: FloodAnswer[]; error?: string }) => {
      void worker.terminate();
      if (message.answers) resolve(message.answers);
      else reject(new Error(`the flood failed: ${message.error}`));
    });
    worker.once('error', reject);
  });
}
