/**
 * The lobby in real browsers against the real server: two players create and join a game by its
 * room code, ready up, start, and both go through the countdown into /game/{roomCode}; the join
 * form's empty and unknown codes; wagered mode; copying the room code; a quick Easy bot game.
 */
import { GAME_TEXTS, LOBBY_TEXTS, playerJoinedText, playerReadyText } from '@memeslam/protocol';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { type Journey, atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { watchDialogFor } from './helpers/game.ts';
import { useServer } from './helpers/server.ts';

const ROOM_URL = /^\/lobby\/([A-Z0-9]{6})$/;

/** A new account, registered over HTTP, and a browser already signed in as it (no login form). */
async function player(browser: Browser, base: string, prefix: string): Promise<Journey & { username: string }> {
  const account = await registerAccount(base, prefix);
  const journey = await openJourney(browser, base);
  await signIn(journey, account);
  return Object.assign(journey, { username: account.username });
}

async function openLobby(journey: Journey, path = '/lobby'): Promise<void> {
  await journey.goto(path);
  await journey.page.getByText('Connected to server').first().waitFor();
}

describeJourneys('lobby', () => {
  const browser = useBrowser();
  const server = useServer();

  it('two players create and join by room code, ready up, start, count down and reach the game', async () => {
    const a = await player(browser(), server().base, 'lbA');
    const b = await player(browser(), server().base, 'lbB');
    try {
      await a.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await openLobby(a);
      await a.page.getByRole('heading', { name: LOBBY_TEXTS.freeLobbyTitle }).waitFor();
      expect(await a.page.getByRole('switch', { name: 'Allow Spectators' }).isChecked()).toBe(true);
      expect(await a.page.getByLabel('Max players').inputValue()).toBe('4');
      expect(await a.page.getByLabel('Cards per player').inputValue()).toBe('30');
      await a.screenshot('lobby');

      await a.page.getByLabel('Max players').selectOption('2');
      await a.page.getByRole('button', { name: 'Create Game' }).click();
      const roomCode = ROOM_URL.exec(await atPath(a.page, ROOM_URL))![1]!;
      await a.page.getByText(`${LOBBY_TEXTS.gameCreated} ${roomCode}`).waitFor();
      await a.page.getByRole('heading', { name: LOBBY_TEXTS.gameLobbyTitle }).waitFor();
      expect(await a.page.getByTestId('room-code').textContent()).toBe(roomCode);
      await a.page.getByText('Waiting for player…').waitFor();

      await a.page.getByRole('button', { name: 'Copy room code' }).click();
      await a.page.getByText(LOBBY_TEXTS.roomCodeCopied).waitFor();
      expect(await a.page.evaluate(() => navigator.clipboard.readText())).toBe(roomCode);

      await openLobby(b);
      const code = b.page.getByLabel('Room code');
      await code.fill(`${roomCode.toLowerCase()}XYZ`);
      expect(await code.inputValue()).toBe(roomCode);
      await b.page.getByRole('button', { name: 'Join', exact: true }).click();
      await atPath(b.page, `/lobby/${roomCode}`);
      await b.page.getByText(LOBBY_TEXTS.joinedGame).waitFor();

      // Each sees the other; the joiner arrives as a toast for the host.
      await a.page.getByText(playerJoinedText(b.username)).waitFor();
      await a.page.getByRole('listitem', { name: b.username }).waitFor();
      await b.page.getByRole('listitem', { name: a.username }).getByText('Host').waitFor();
      expect(await b.page.getByRole('button', { name: 'Start Game' }).count()).toBe(0);
      const start = a.page.getByRole('button', { name: 'Start Game' });
      expect(await start.isDisabled()).toBe(true);

      // A reload (or a shared link) re-seats the member from the URL alone.
      await b.page.reload();
      await b.page.getByRole('listitem', { name: a.username }).waitFor();
      await b.page.getByRole('listitem', { name: b.username }).waitFor();

      await a.screenshot('waiting-room');
      await b.page.setViewportSize({ width: 390, height: 844 });
      await b.screenshot('waiting-room-mobile');

      await b.page.getByRole('button', { name: 'Mark Ready' }).click();
      await b.page.getByRole('button', { name: 'Ready', exact: true, pressed: true }).waitFor();
      await a.page.getByText(playerReadyText(b.username, true)).waitFor();
      expect(await start.isDisabled()).toBe(true);
      await a.page.getByRole('button', { name: 'Mark Ready' }).click();
      await a.page.getByText(LOBBY_TEXTS.allPlayersReady).waitFor();
      await b.page.getByText(LOBBY_TEXTS.allPlayersReady).waitFor();

      // "GO!" shows for one second after the count: watched from before the start, so that the
      // checks and screenshots below (seconds on a busy machine) cannot make the journey miss it.
      const go = await Promise.all([a, b].map((j) => watchDialogFor(j.page, GAME_TEXTS.go)));
      await start.click();
      for (const j of [a, b]) {
        const overlay = j.page.getByRole('dialog');
        await overlay.getByText('Discard Piles').waitFor();
        // People only: the AI System has nothing to check, and says so rather than showing a tick.
        await overlay.getByRole('listitem').filter({ hasText: 'AI System' }).getByText('No bots').waitFor();
      }
      await a.page.getByText(LOBBY_TEXTS.startingGame).first().waitFor();
      await a.screenshot('countdown');
      await b.screenshot('countdown-mobile');
      await Promise.all(go.map((shown) => shown()));
      await Promise.all([a, b].map((j) => atPath(j.page, `/game/${roomCode}`)));

      a.assertNoPageErrors();
      b.assertNoPageErrors();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses an empty or unknown room code, and shows wagered games as coming soon', async () => {
    const c = await player(browser(), server().base, 'lbC');
    const { page } = c;
    try {
      await openLobby(c);
      const join = page.getByRole('button', { name: 'Join', exact: true });
      expect(await join.isDisabled()).toBe(true);
      await page.getByLabel('Room code').press('Enter');
      await page.getByRole('alert').getByText(LOBBY_TEXTS.enterRoomCode).waitFor();

      // An unknown room code from a link: the code stays in the field with why it failed under it.
      const field = page.getByLabel('Room code');
      await openLobby(c, '/lobby?join=ZZZZZZ');
      await page.getByRole('alert').getByText(LOBBY_TEXTS.gameNotFound).waitFor();
      expect(await field.inputValue()).toBe('ZZZZZZ');
      await atPath(page, '/lobby');

      // The waiting room of a room that does not exist sends the user back to the lobby, the same way.
      await c.goto('/lobby/QQQQ99');
      await atPath(page, '/lobby');
      await page.getByRole('alert').getByText(LOBBY_TEXTS.gameNotFound).waitFor();
      expect(await field.inputValue()).toBe('QQQQ99');
      expect(await page.getByText(LOBBY_TEXTS.socketJoinFailed).count()).toBe(0);
      // Editing the code clears its error.
      await field.fill('QQQQ98');
      expect(await page.getByRole('alert').count()).toBe(0);

      await openLobby(c, '/lobby?mode=wagered');
      await page.getByRole('heading', { name: LOBBY_TEXTS.wageredLobbyTitle }).waitFor();
      const create = page.getByRole('button', { name: LOBBY_TEXTS.wageredGamesComingSoon });
      expect(await create.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Easy Bot' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Bot Settings' }).count()).toBe(0);
      await c.screenshot('lobby-wagered');
      c.assertNoPageErrors();
    } finally {
      await c.close();
    }
  });

  it('a quick Easy bot game starts by itself and counts down into the game', async () => {
    const d = await player(browser(), server().base, 'lbD');
    const { page } = d;
    try {
      await openLobby(d);
      // Watched from the start: "GO!" lasts one second, the checks below may take longer.
      const go = await watchDialogFor(page, GAME_TEXTS.go);
      await page.getByRole('button', { name: 'Easy Bot' }).click();
      const roomCode = ROOM_URL.exec(await atPath(page, ROOM_URL))![1]!;
      await page.getByRole('heading', { name: LOBBY_TEXTS.botGameLobbyTitle }).waitFor();
      const overlay = page.getByRole('dialog');
      await overlay.getByText('AI System').waitFor();
      await overlay.getByText(/\(Bot\)$/).waitFor();
      await overlay.getByText('Easy Bot · AI', { exact: false }).waitFor();
      await d.screenshot('countdown-bot');
      await go();
      await atPath(page, `/game/${roomCode}`);
      d.assertNoPageErrors();
    } finally {
      await d.close();
    }
  });
});
