/**
 * Admission control in the browser (docs/capacity.md): on a server calibrated for one room, with that
 * room taken, a new game waits in line — "Servers are busy — you are in line" with the wait so far,
 * under the nav bar — and opens by itself once the room is free. On a desktop through the
 * dashboard's Quick Start (HTTP, 503 with Retry-After), on a phone through the lobby's quick bot game
 * (the socket, NO_HEADROOM).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, expect, it } from 'vitest';
import { type Account, registerAccount, signIn } from './helpers/accounts.ts';
import { call } from './helpers/audit.ts';
import { type Journey, atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'memeslam-admission-'));
const file = join(dir, 'admission.json');
// One room; the window signals' limits are out of reach here.
writeFileSync(file, JSON.stringify({ rooms: 1, loopDelayP99Ms: 1e6, ackP99Ms: 1e6, cpuShare: 1e6 }));

describeJourneys('admission control', () => {
  const browser = useBrowser();
  const server = useServer({ ADMISSION_FILE: file });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Takes the server's one room with a lobby of `holder`'s; returns its game id. */
  async function takeTheRoom(holder: Account): Promise<string> {
    return (await call<{ gameId: string }>(server(), holder, '/game/create', { settings: {} })).gameId;
  }

  /**
   * The line shows, its seconds count up, and it goes once the holder's lobby closes and the game
   * opens. The player then leaves it, so the next journey finds the room free.
   */
  async function waitInLine(
    journey: Journey,
    [holder, player]: [Account, Account],
    gameId: string,
    shot: string,
  ): Promise<void> {
    const { page } = journey;
    await page.getByText(SERVER_TEXTS.inLine).waitFor();
    await page.getByText(/^Waiting [1-9]\d* s$/).waitFor();
    await journey.screenshot(shot);
    expect(page.url()).not.toMatch(/\/(lobby|game)\/[A-Z0-9]+$/);
    await call(server(), holder, `/game/${gameId}/leave`, {});
    await atPath(page, /^\/(lobby|game)\/[A-Za-z0-9-]+$/);
    await page.getByText(SERVER_TEXTS.inLine).waitFor({ state: 'detached' });
    const { games } = await call<{ games: { gameId: string }[] }>(server(), player, '/game/my-games');
    for (const game of games) await call(server(), player, `/game/${game.gameId}/leave`, {});
  }

  it('desktop: Quick Start waits in line while the server is full, then opens the game by itself', async () => {
    const [holder, player] = await Promise.all([
      registerAccount(server().base, 'full'),
      registerAccount(server().base, 'line'),
    ]);
    const gameId = await takeTheRoom(holder);
    const journey = await openJourney(browser(), server().base);
    try {
      await signIn(journey, player);
      await journey.goto('/dashboard');
      await journey.page.getByRole('button', { name: 'Quick Start Easy' }).click();
      await waitInLine(journey, [holder, player], gameId, 'admission-in-line');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });

  it('phone: the lobby’s quick bot game waits in line the same way', async () => {
    const [holder, player] = await Promise.all([
      registerAccount(server().base, 'fullp'),
      registerAccount(server().base, 'linep'),
    ]);
    const gameId = await takeTheRoom(holder);
    const journey = await openJourney(browser(), server().base, { phone: true });
    try {
      await signIn(journey, player);
      await journey.goto('/lobby?mode=free');
      await journey.page.getByRole('region', { name: 'Quick Bot Game' }).getByRole('button').first().click();
      await waitInLine(journey, [holder, player], gameId, 'admission-in-line-phone');
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  });
});
