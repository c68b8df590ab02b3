/**
 * A finished game on the real server, then its result screen and replay in a real browser: the
 * test plays a 20-card blitz game against an expert bot over its own socket while the browser,
 * signed in as the same player, watches the game page; the result screen shows when it ends; the
 * replay page checks the seed commitment, re-runs the engine and steps through the game.
 *
 * The server's clock moves when the test says (ManualClock): the bot plays on the game's time as it
 * would on the wall's, but the game takes the real time its moves take to send, not the minute of
 * play it stands for. Nothing here is about how fast anything happens.
 */
import { type Card, matches } from '@memeslam/engine';
import { type Socket, io } from 'socket.io-client';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { registerAccount } from './helpers/accounts.ts';
import { describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { startWithClock } from './helpers/held-game.ts';
import { type E2eServer, useServer } from './helpers/server.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever the server sent
type Payload = any;

/** A player's socket: remembers the last payload of each event. */
async function connect(server: E2eServer, token: string) {
  const socket: Socket = io(server.base, { auth: { token }, transports: ['websocket'], reconnection: false });
  const last = new Map<string, Payload>();
  socket.onAny((event: string, payload: Payload) => last.set(event, payload));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const emit = (event: string, payload: unknown = {}): Promise<Payload> =>
    socket.timeout(10_000).emitWithAck(event, payload);
  return { socket, last, emit };
}

describeJourneys('result screen and replay', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  const server = useServer({}, { clock });

  it('plays a bot game out, shows the result, then verifies and steps through the replay', async () => {
    const account = await registerAccount(server().base, 'rp');
    const player = await connect(server(), account.token);
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      const created = await player.emit('create-bot-game', {
        numberOfBots: 1,
        botDifficulty: 'expert',
        maxPlayers: 2,
        gameSpeed: 'blitz',
        autoStart: true,
        cardsPerPlayer: 20,
      });
      expect(created.success).toBe(true);
      const gameId: string = created.data.gameId;

      await journey.context.addInitScript(
        ([token, user]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', user);
          localStorage.setItem('sound-enabled', 'false');
        },
        [account.token, JSON.stringify(account.user)] as const,
      );
      // The auto-start and the countdown, on the server's clock.
      await startWithClock(server(), clock, gameId);
      await expect.poll(() => player.last.has('handDealt'), { timeout: 20_000, interval: 200 }).toBe(true);
      await journey.goto(`/game/${gameId}`);

      // Play the first matching card every 400 ms of the game's time, for up to 40 s of it, until
      // someone has played out; the bot plays in between as the clock moves.
      for (let turn = 0; turn < 100 && !player.last.has('gameEnded'); turn += 1) {
        const now = (await player.emit('requestHand', {})).data;
        const hand: Card[] = now?.hand ?? [];
        const tops: (Card | undefined)[] = (now?.gameState.discardPiles ?? []).map((pile: Card[]) => pile.at(-1));
        const move = hand
          .flatMap((card) => tops.map((top, pileIndex) => ({ card, top, pileIndex })))
          .find(({ card, top }) => top && matches(card, top));
        if (move) await player.emit('playCard', { cardId: move.card.id, pileIndex: move.pileIndex });
        clock.advance(400);
      }
      if (!player.last.has('gameEnded')) await player.emit('leaveGame', {});
      // The game's time goes on while the end is awaited, as it would by itself.
      await expect
        .poll(
          () => {
            clock.advance(400);
            return player.last.has('gameEnded');
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      const ended = player.last.get('gameEnded');

      // The browser watched the same seat: it shows the result screen.
      const result = page.getByRole('main', { name: 'Game result' });
      await result.waitFor({ timeout: 15_000 });
      const title = ended.winner?.userId === account.user.id ? 'Victory' : ended.winner ? 'AI Victory' : 'Game Over';
      await result.getByRole('heading', { level: 1, name: title }).waitFor();
      await result.getByRole('region', { name: 'Human vs AI' }).waitFor();
      const ranking = result.getByRole('list', { name: 'Final ranking' }).getByRole('listitem');
      expect(await ranking.count()).toBe(2);
      await ranking.filter({ hasText: '(Bot)' }).waitFor();
      await result.getByRole('button', { name: 'Challenge AI Again' }).waitFor();
      await journey.screenshot('result-screen');

      await result.getByRole('link', { name: 'View replay' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/game/${gameId}/replay`);
      await page.getByRole('heading', { name: /Seed verified/ }).waitFor({ timeout: 20_000 });
      await page.getByText(ended.seed as string).waitFor();

      const counter = page.getByTestId('step-counter');
      const description = page.getByTestId('step-description');
      expect(await counter.textContent()).toMatch(/^Step 1 of \d+$/);
      const total = Number((await counter.textContent())!.match(/of (\d+)/)![1]);
      expect(total).toBeGreaterThan(5);
      await description.getByText('Cards dealt').waitFor();
      const cardsLeft = page.getByTestId('cards-left');
      expect(await cardsLeft.allTextContents()).toEqual(['20', '20']);
      expect(await page.getByRole('list', { name: 'Discard piles' }).getByRole('img').count()).toBe(2);
      await journey.screenshot('replay-start');

      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => counter.textContent()).toBe(`Step 2 of ${total}`);
      expect(await description.textContent()).toMatch(
        / (played (Red|Blue|Green|Yellow|Orange|Purple) [1-5] |used [A-Z]+)/,
      );
      await page.getByRole('button', { name: 'Previous' }).click();
      await expect.poll(() => counter.textContent()).toBe(`Step 1 of ${total}`);
      await page.getByRole('button', { name: 'Play' }).click();
      await expect.poll(() => counter.textContent(), { timeout: 5000 }).toMatch(/^Step [3-9]/);
      await page.getByRole('button', { name: 'Pause' }).click();

      const slider = page.getByRole('slider', { name: 'Step' });
      await slider.fill(String(total - 1));
      await expect.poll(() => counter.textContent()).toBe(`Step ${total} of ${total}`);
      await description.getByText(/Game over/).waitFor();
      const finalLeft = (await cardsLeft.allTextContents()).map(Number);
      const expected = [...ended.results]
        .sort((a: Payload, b: Payload) => a.playerId.localeCompare(b.playerId))
        .map((r: Payload) => r.cardsLeft);
      const seatsLeft = (await page.getByRole('list', { name: 'Players' }).getByRole('listitem').allTextContents()).map(
        (text, i) => ({ bot: text.includes('(Bot)'), left: finalLeft[i] }),
      );
      expect([...finalLeft].sort((a, b) => a - b)).toEqual([...expected].sort((a: number, b: number) => a - b));
      expect(seatsLeft.find((s) => s.bot)!.left).toBe(ended.results.find((r: Payload) => r.isBot).cardsLeft);
      const rows = page.getByRole('region', { name: 'Final ranking' }).getByRole('listitem');
      expect(await rows.count()).toBe(2);
      await journey.screenshot('replay-end');

      await journey.goto('/game/00000000-0000-0000-0000-000000000000/replay');
      await page.getByRole('heading', { name: 'Game not found' }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      player.socket.disconnect();
      await journey.close();
    }
  });
});
