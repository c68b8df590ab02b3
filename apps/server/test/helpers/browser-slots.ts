/**
 * Browser journeys side by side with the rest of the suite, but not too many at once: each e2e file
 * holds one of a few slots while it runs (a browser and a server on a 2-core machine). The e2e
 * project's global setup serves the slots over loopback HTTP and names them in
 * MEMESLAM_BROWSER_SLOTS_URL, which every test worker of the run inherits. The same server hands out
 * the run's one build of the web app, made beside the first tests: a slot (and `sharedWebBuild`)
 * answers once that build is done.
 */
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Browser journeys at once; E2E_BROWSER_SLOTS overrides it. */
export const BROWSER_SLOTS = Number(process.env.E2E_BROWSER_SLOTS ?? 2);
export const SLOTS_URL_VARIABLE = 'MEMESLAM_BROWSER_SLOTS_URL';

/**
 * A counting semaphore over HTTP, first come first served: POST /take answers once the web app is
 * built (`built`: the folder) and a slot is free, POST /give frees one; GET /web-dist answers the
 * folder once built. A failed build answers 500 with its error.
 */
export async function serveBrowserSlots(
  slots: number,
  built: Promise<string>,
): Promise<{ url: string; close(): Promise<void> }> {
  let free = slots;
  const waiting: (() => void)[] = [];
  // Each request waits for the build; the failure is answered to every request, never unhandled.
  const build = built.then(
    (dir) => ({ dir, error: null }),
    (error: unknown) => ({ dir: '', error: String(error) }),
  );
  const server: Server = createServer((req, res) => {
    const answer = () => res.writeHead(204).end();
    const afterBuild = (then: (dir: string) => void) =>
      void build.then(({ dir, error }) => (error === null ? then(dir) : res.writeHead(500).end(error)));
    if (req.method === 'POST' && req.url === '/take') {
      afterBuild(() => {
        if (free > 0) {
          free -= 1;
          answer();
        } else waiting.push(answer);
      });
    } else if (req.method === 'GET' && req.url === '/web-dist') {
      afterBuild((dir) => res.writeHead(200).end(dir));
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

/** node:http rather than fetch, whose client gives up on an answer after 5 minutes. Null without a server. */
function ask(method: 'GET' | 'POST', path: string): Promise<string | null> {
  const base = process.env[SLOTS_URL_VARIABLE];
  if (!base) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        (res.statusCode ?? 500) < 300 ? resolve(body) : reject(new Error(`${path}: ${res.statusCode} ${body}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export const takeBrowserSlot = () => ask('POST', '/take');
export const giveBrowserSlot = () => ask('POST', '/give');
/** The folder of the run's web build once it is done, or null in a run without the e2e project. */
export const sharedWebBuild = () => ask('GET', '/web-dist');
