/**
 * Accessibility of games: two players (waiting room, ready states, countdown, the game, its dialogs,
 * frozen, victory and defeat, replay) and a bot game.
 * The server runs on a clock moved by hand (ManualClock) with chosen deals: what is checked is the
 * screens, not the game's timing, so a board holds still while axe measures it (no bot plays under
 * it, a freeze does not thaw), and a game plays out as fast as its moves go, not at its own pace.
 * Each state is checked with axe-core (WCAG 2.0/2.1 A and AA) at desktop (1280×800) and phone
 * (390×844) sizes, in a real browser against the real server; a journey fails on any serious or
 * critical violation, listing all it found (helpers/audit.ts). Beside axe: a form field keeps its label
 * as its accessible name while its error shows, and icons are drawings, not emoji.
 */
import { type GameState, TIME_CAP_MS, matches } from '@memeslam/engine';
import { HINTS, LOBBY_TEXTS } from '@memeslam/protocol';
import type { Page } from 'playwright-core';
import { afterAll, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import {
  type Audit,
  DESKTOP,
  PHONE,
  type Size,
  audit,
  call,
  connect,
  type Player,
  playOut,
  inGame,
  reportChecks,
} from './helpers/audit.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { seedWhere, startWithClock, topsOf } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

/**
 * A deal in which every person has a card to play: no "No playable card" notice comes (on the
 * page's own clock) to change the board while it is checked.
 */
function seedWithMoves(players: number, cardsPerPlayer: number, people: number): string {
  const playable = (state: GameState, seat: number) =>
    state.players[seat]!.hand.some((card) => topsOf(state).some((top) => matches(card, top)));
  return seedWhere({ players, cardsPerPlayer }, (state) =>
    Array.from({ length: people }, (_, seat) => seat).every((seat) => playable(state, seat)),
  ).seed;
}

/**
 * Checks the countdown overlay at rest. It moves all the time (a bar filling every 50 ms, a number
 * popping in each second, a spinner per check), so it is measured with reduced motion asked for: the
 * same overlay, its parts drawn where they come to rest, rather than measured again and again while
 * something moves (helpers/axe.ts) and kept to what every measurement found.
 */
async function checkCountdown(a: Audit, page: Page, label: string, sizes: readonly Size[]): Promise<void> {
  // openJourney's pages ask for it already; asked here too for a page opened with `motion`, which
  // then keeps asking for it.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await a.check(page, label, sizes);
}

/** How far the server's clock moves at a time while the bots play: long enough for each to act. */
const BOT_STEP_MS = 2500;

afterAll(() => reportChecks('games'));

describeJourneys('accessibility: games', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  let nextSeed = '';
  const server = useServer({}, { clock, seeds: () => nextSeed });
  /** Whether the game of this room is still in play on the server. */
  const inPlay = (roomCode: string) => server().app.games.find(roomCode)?.status === 'active';

  it('two players: waiting room, ready states, countdown, the game, its dialogs, frozen, victory and defeat, replay', async () => {
    const a = audit();
    const base = server().base;
    const [hostAccount, guestAccount] = await Promise.all([registerAccount(base, 'axa'), registerAccount(base, 'axb')]);
    const host = await openJourney(browser(), base);
    const guest = await openJourney(browser(), base);
    let sockets: Player[] = [];
    try {
      await Promise.all([signIn(host, hostAccount), signIn(guest, guestAccount)]);
      nextSeed = seedWithMoves(2, 30, 2);
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

      // The countdown shows on both pages (its count runs on the page's clock) until the server's
      // clock is moved on to the start of play.
      await host.page.getByRole('button', { name: 'Start Game' }).click();
      await host.page.getByRole('dialog').getByText('Discard Piles').waitFor();
      await guest.page.getByRole('dialog').getByText('Discard Piles').waitFor();
      await checkCountdown(a, host.page, 'countdown (two people)', [DESKTOP]);
      await checkCountdown(a, guest.page, 'countdown (two people)', [PHONE]);

      await startWithClock(server(), clock, roomCode);
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

      // The guest wins, the host loses; the freeze ends once the server's clock has moved on.
      await playOut(guestSocket, [hostSocket], clock);
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
      nextSeed = seedWithMoves(3, 20, 1);
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
      await checkCountdown(a, page, 'countdown (bots)', [PHONE]);
      await startWithClock(server(), clock, roomCode);
      await inGame(page);
      // The bots' first plays, announced on the board, before it is checked.
      clock.advance(BOT_STEP_MS);
      await page.getByText(/\(Bot\) played /).waitFor();
      await a.check(page, 'game with bots, in play');

      // The player plays only when no bot can, so the bots win: the server's clock moves on a step
      // at a time, and only a step in which no bot played lets the player play a card.
      player = await connect(server(), account.token);
      const observer = player;
      const pileSizes = async () => JSON.stringify((await observer.emit('requestHand', {})).data?.gameState.pileSizes);
      const until = clock.now() + TIME_CAP_MS;
      while (inPlay(roomCode)) {
        if (clock.now() > until) throw new Error('the bot game did not end in time');
        const before = await pileSizes();
        clock.advance(BOT_STEP_MS);
        if (!inPlay(roomCode) || (await pileSizes()) !== before) continue;
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
