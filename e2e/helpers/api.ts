/**
 * The journeys' own calls to the server's API (making accounts and games for a journey to start
 * from). A busy server answers 503 "Server busy" with Retry-After, as on a loaded test machine; the
 * call is made again, as a client is told to, for up to BUSY_RETRY_MS.
 */
const BUSY_RETRY_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function apiFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const deadline = Date.now() + BUSY_RETRY_MS;
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 503 || Date.now() > deadline) return response;
    await response.body?.cancel();
    await sleep(500);
  }
}
