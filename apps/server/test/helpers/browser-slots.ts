/**
 * Browser journeys side by side with the rest of the suite, but not too many at once: each e2e file
 * holds one of a few slots while it runs (a browser and a server on a 2-core machine). The e2e
 * project's global setup serves the slots over loopback HTTP and names them in
 * MEMESLAM_BROWSER_SLOTS_URL, which every test worker of the run inherits.
 */
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Browser journeys at once; E2E_BROWSER_SLOTS overrides it. */
export const BROWSER_SLOTS = Number(process.env.E2E_BROWSER_SLOTS ?? 2);
export const SLOTS_URL_VARIABLE = 'MEMESLAM_BROWSER_SLOTS_URL';

/** A counting semaphore over HTTP, first come first served: POST /take answers once a slot is free, POST /give frees one. */
export async function serveBrowserSlots(slots: number): Promise<{ url: string; close(): Promise<void> }> {
  let free = slots;
  const waiting: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const answer = () => res.writeHead(204).end();
    if (req.method === 'POST' && req.url === '/take') {
      if (free > 0) {
        free -= 1;
        answer();
      } else waiting.push(answer);
    } else if (req.method === 'POST' && req.url === '/give') {
      const next = waiting.shift();
      if (next) next();
      else free = Math.min(slots, free + 1);
      answer();
    } else res.writeHead(404).end();
  });
  // A file waits for a slot as long as the files before it take.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** node:http rather than fetch, whose client gives up on an answer after 5 minutes. */
function post(path: string): Promise<void> {
  const base = process.env[SLOTS_URL_VARIABLE];
  if (!base) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

export const takeBrowserSlot = () => post('/take');
export const giveBrowserSlot = () => post('/give');
