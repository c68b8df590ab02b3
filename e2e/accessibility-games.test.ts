/**
 * Accessibility of games: two players (waiting room, ready states, countdown, the game, its dialogs,
 * frozen, victory and defeat, replay) and a bot game.
 * Each state is checked with axe-core (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone
 * (390×844) sizes, in a real browser against the real server; a journey fails on any serious or
 * critical violation, listing all it found (helpers/audit.ts). Beside axe: a form field keeps its label
 * as its accessible name while its error shows, and icons are drawings, not emoji.
 */
import { HINTS, LOBBY_TEXTS } from '@memeslam/protocol';
import { afterAll, it } from 'vitest';
import { registerAccount, signIn } from './helpers/accounts.ts';
import {
  DESKTOP,
  PHONE,
  audit,
  call,
  connect,
  type Player,
  sleep,
  playOut,
  inGame,
  reportChecks,
} from './helpers/audit.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';

afterAll(() => reportChecks('games'));

describeJourneys('accessibility: games', () => {
  const browser = useBrowser();
  const server = useServer();

  it('two players: waiting room, ready states, countdown, the game, its dialogs, frozen, victory and defeat, replay', async () => {
    const a = audit();
    const base = server().base;
    const [hostAccount, guestAccount] = await Promise.all([registerAccount(base, 'axa'), registerAccount(base, 'axb')]);
    const host = await openJourney(browser(), base);
    const guest = await openJourney(browser(), base);
    let sockets: Player[] = [];
    try {
      await Promise.all([signIn(host, hostAccount), signIn(guest, guestAccount)]);
      const { roomCode } = await call<{ roomCode: string }>(server(), hostAccount, '/game/create', {
        settings: { maxPlayers: 2, cardsPerPlayer: 30, gameSpeed: 'blitz' },
      });
      await host.goto(`/lobby/${roomCode}`);
      await host.page.getByText('Waiting for player…').waitFor();
      await a.check(host.page, 'waiting room, host alone');

      await guest.goto(`/lobby?join=${roomCode}`);
      await atPath(guest.page, `/lobby/${roomCode}`);
      await host.page.getByRole('listitem', { name: guestAccount.username }).waitFor();
      await guest.page.getByRole('button', { name: 'Mark Ready' }).click();
      await guest.page.getByRole('button', { name: 'Ready', exact: true, pressed: true }).waitFor();
      await host.page.getByRole('listitem', { name: guestAccount.username }).getByText('Ready').waitFor();
      await a.check(host.page, 'waiting room, host, guest ready');
      await a.check(guest.page, 'waiting room, guest, ready');
      await guest.screenshot('a11y-waiting-room-ready');
      await host.page.getByRole('button', { name: 'Mark Ready' }).click();
      await host.page.getByText(LOBBY_TEXTS.allPlayersReady).waitFor();
      await a.check(host.page, 'waiting room, all ready');

      await host.page.getByRole('button', { name: 'Start Game' }).click();
      await host.page.getByRole('dialog').getByText('Discard Piles').waitFor();
      await a.check(host.page, 'countdown (two people)', [DESKTOP]);
      await a.check(guest.page, 'countdown (two people)', [PHONE]);

      await Promise.all([inGame(host.page), inGame(guest.page)]);
      await a.check(host.page, 'game, in play');

      await host.page.getByRole('button', { name: 'Settings' }).click();
      await host.page.getByRole('dialog').waitFor();
      await a.check(host.page, 'game, settings dialog', [DESKTOP]);
      await host.page.keyboard.press('Escape');
      await host.page.getByRole('dialog').waitFor({ state: 'detached' });

      await host.page.getByRole('button', { name: 'Freeze', exact: true }).click();
      const picker = host.page.getByRole('dialog');
      await picker.getByRole('button', { name: new RegExp(guestAccount.username) }).waitFor();
      await a.check(host.page, 'game, freeze target dialog', [DESKTOP]);
      await picker.getByRole('button', { name: new RegExp(guestAccount.username) }).click();
      await guest.page.getByText(HINTS.youAreFrozen).waitFor();
      await a.check(guest.page, 'game, frozen', [DESKTOP]);
      await guest.page.setViewportSize(PHONE);
      await guest.page.getByRole('button', { name: 'Game menu' }).click();
      await a.check(guest.page, 'game, frozen, phone with its menu open', [PHONE]);

      await host.page.getByRole('button', { name: 'Back' }).click();
      await host.page.getByRole('dialog').getByRole('button', { name: 'Stay' }).waitFor();
      await a.check(host.page, 'game, leave dialog', [DESKTOP]);
      await host.page.getByRole('dialog').getByRole('button', { name: 'Stay' }).click();

      // From here the test plays for both over their own sockets.
      sockets = await Promise.all([connect(server(), hostAccount.token), connect(server(), guestAccount.token)]);
      const [hostSocket, guestSocket] = sockets as [Player, Player];

      // The deadlock notice is checked in layout.test.ts, where a chosen deal reaches it every time.

      // The guest wins, the host loses.
      await playOut(guestSocket, [hostSocket]);
      await guest.page.getByRole('heading', { level: 1, name: 'Victory' }).waitFor({ timeout: 15_000 });
      await host.page.getByRole('heading', { level: 1, name: 'Game Over' }).waitFor({ timeout: 15_000 });
      await a.check(guest.page, 'result, victory');
      await a.check(host.page, 'result, defeat');

      await host.page.getByRole('link', { name: 'View replay' }).click();
      await host.page.getByRole('heading', { name: /Seed verified/ }).waitFor({ timeout: 20_000 });
      await a.check(host.page, 'replay, first step');
      await host.page.getByRole('slider', { name: 'Step' }).press('End');
      await host.page
        .getByTestId('step-description')
        .getByText(/Game over/)
        .waitFor();
      await a.check(host.page, 'replay, last step');
      await host.goto('/game/00000000-0000-0000-0000-000000000000/replay');
      await host.page.getByRole('heading', { name: 'Game not found' }).waitFor();
      await a.check(host.page, 'replay, game not found');
      host.assertNoPageErrors();
      guest.assertNoPageErrors();
      a.done();
    } finally {
      for (const s of sockets) s.socket.disconnect();
      await Promise.all([host.close(), guest.close()]);
    }
  }, 300_000);

  it('a bot game: waiting room with bots, countdown, play, the bots’ victory', async () => {
    const a = audit();
    const account = await registerAccount(server().base, 'axbot');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    let player: Player | undefined;
    try {
      await signIn(journey, account, { 'sound-enabled': 'false' });
      const { roomCode } = await call<{ roomCode: string }>(server(), account, '/game/create-bot-game', {
        numberOfBots: 2,
        botDifficulty: 'expert',
        maxPlayers: 4,
        gameSpeed: 'blitz',
        autoStart: false,
        cardsPerPlayer: 20,
      });
      await journey.goto(`/lobby/${roomCode}`);
      await page
        .getByRole('listitem', { name: /\(Bot\)$/ })
        .first()
        .waitFor();
      await a.check(page, 'waiting room, host with bots');
      await journey.screenshot('a11y-waiting-room-bots');
      // Ready: the bots always are, so the host's page starts the game a second later by itself.
      await page.getByRole('button', { name: 'Mark Ready' }).click();
      await page.getByRole('dialog').getByText('AI System').waitFor();
      await a.check(page, 'countdown (bots)', [PHONE]);
      await inGame(page);
      await a.check(page, 'game with bots, in play');

      // The player plays only when no bot can, so the bots win.
      player = await connect(server(), account.token);
      const observer = player;
      const deadline = Date.now() + 120_000;
      while (!observer.last.has('gameEnded') && Date.now() < deadline) {
        const before = JSON.stringify((await observer.emit('requestHand', {})).data?.gameState.pileSizes ?? []);
        await sleep(2500);
        const now = (await observer.emit('requestHand', {})).data;
        if (!now || observer.last.has('gameEnded')) break;
        if (JSON.stringify(now.gameState.pileSizes) !== before) continue;
        const mine = await observer.move();
        if (mine) await observer.emit('playCard', mine);
      }
      const result = page.getByRole('main', { name: 'Game result' });
      await result.waitFor({ timeout: 20_000 });
      const heading = await result.getByRole('heading', { level: 1 }).textContent();
      await a.check(page, `result, bot game (${heading})`);
      journey.assertNoPageErrors();
      a.done();
    } finally {
      player?.socket.disconnect();
      await journey.close();
    }
  }, 300_000);
});
