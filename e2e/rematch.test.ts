/**
 * A rematch between people in real browsers: two players finish a game (the 15-minute cap, on a
 * server clock moved by hand) and are on their result screens, which show both rating changes; one asks for a rematch and lands in
 * a new lobby like the game; the other sees the offer on their result screen and takes it with one
 * click; both are in that lobby. For its first minute the rematch lobby is held for them: a stranger
 * following its invite link is refused with the hold's text, and gets in once the hold is over
 * (docs/privacy.md).
 */
import { TIME_CAP_MS } from '@memeslam/engine';
import { LOBBY_TEXTS, REMATCH_HOLD_MS } from '@memeslam/protocol';
import { expect, it } from 'vitest';
import { ManualClock } from '../apps/server/src/clock.ts';
import { REMATCH_TEXTS } from '../apps/web/src/game/texts.ts';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { call } from './helpers/audit.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { RESULT_HEADINGS } from './helpers/game.ts';
import { startWithClock } from './helpers/held-game.ts';
import { useServer } from './helpers/server.ts';

describeJourneys('rematch', () => {
  const browser = useBrowser();
  const clock = new ManualClock(Date.now());
  const server = useServer({}, { clock });

  it('offers a rematch to the other player on their result screen, taken with one click into one lobby held for them for a minute', async () => {
    const [hostAccount, guestAccount, strangerAccount] = await Promise.all([
      registerAccount(server().base, 'again'),
      registerAccount(server().base, 'other'),
      registerAccount(server().base, 'strange'),
    ]);
    const host = await openJourney(browser(), server().base);
    const guest = await openJourney(browser(), server().base, { phone: true });
    const stranger = await openJourney(browser(), server().base);
    try {
      await Promise.all([signIn(host, hostAccount), signIn(guest, guestAccount), signIn(stranger, strangerAccount)]);
      // Three seats: the rematch lobby keeps one free for the stranger.
      const { roomCode } = await call<{ roomCode: string }>(server(), hostAccount, '/game/create', {
        settings: { maxPlayers: 3, cardsPerPlayer: 20 },
      });
      await host.goto(`/lobby/${roomCode}`);
      await guest.goto(`/lobby/${roomCode}`);
      await host.page.getByRole('listitem', { name: guestAccount.username }).waitFor();
      for (const j of [guest, host]) await j.page.getByRole('button', { name: 'Mark Ready' }).click();
      await host.page.getByRole('button', { name: 'Start Game' }).click();
      await startWithClock(server(), clock, roomCode);
      await Promise.all(
        [host, guest].map((j) => j.page.locator('[data-hand-card]').first().waitFor({ timeout: 20_000 })),
      );

      // Nobody plays: the cap ends the game, both on their result screens.
      for (let ms = 0; ms <= TIME_CAP_MS + 60_000; ms += 60_000) clock.advance(60_000);
      for (const j of [host, guest])
        await j.page.getByRole('heading', { name: RESULT_HEADINGS }).waitFor({ timeout: 20_000 });
      // A game between people moves both ratings once it is recorded: each ranking shows the changes,
      // up for the first (the tie goes by seat), down for the second, from two new players' 1500.
      for (const j of [host, guest]) {
        const ranking = j.page.getByRole('list', { name: 'Final ranking' });
        await ranking.getByText(/^\+\d+$/).waitFor({ timeout: 10_000 });
        await ranking.getByText(/^−\d+$/).waitFor();
        expect(await ranking.getByText(/^1\d{3}\?$/).count()).toBe(2);
      }

      await host.page.getByRole('button', { name: REMATCH_TEXTS.rematch }).click();
      const rematchRoom = /^\/lobby\/([A-Z0-9]{6})$/;
      const newCode = rematchRoom.exec(await atPath(host.page, rematchRoom))?.[1];
      expect(newCode).toBeDefined();
      expect(newCode).not.toBe(roomCode);

      // The invite link, for someone who did not play: refused while the lobby is held, said at the field.
      await stranger.goto(`/join/${newCode}`);
      await atPath(stranger.page, '/lobby');
      await stranger.page.getByRole('alert').getByText(LOBBY_TEXTS.rematchHeld).waitFor();

      await guest.page.getByRole('status').getByText(REMATCH_TEXTS.offered(hostAccount.username)).waitFor();
      await guest.page.getByRole('button', { name: REMATCH_TEXTS.joinRematch }).click();
      await atPath(guest.page, `/lobby/${newCode}`);
      for (const j of [host, guest]) {
        for (const name of [hostAccount.username, guestAccount.username]) {
          await j.page.getByRole('listitem', { name }).waitFor();
        }
      }

      // The hold over (on the server's clock), the same link lets the stranger in.
      clock.advance(REMATCH_HOLD_MS);
      await stranger.goto(`/join/${newCode}`);
      await atPath(stranger.page, `/lobby/${newCode}`);
      await host.page.getByRole('listitem', { name: strangerAccount.username }).waitFor();
      for (const j of [host, guest, stranger]) j.assertNoPageErrors();
    } finally {
      await Promise.all([host.close(), guest.close(), stranger.close()]);
    }
  }, 90_000);
});
