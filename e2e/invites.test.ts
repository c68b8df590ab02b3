/**
 * Getting people into a game, in real browsers: the dashboard's "Join with code" answers a wrong code
 * at its field at once (not after the join's retries); a lobby's invite link (/join/CODE, copied from
 * the waiting room) brings a signed-out visitor in as a guest or through a new account, and a
 * signed-in one straight in, asking first when that would take them out of their own waiting lobby; a guest from the landing page never sees the address the server made up for it and
 * becomes an account keeping its id; a wrong password is said at the sign-in form.
 */
import { AUTH_TEXTS, LOBBY_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import { expect, it } from 'vitest';
import { registerAccount, signIn } from './helpers/accounts.ts';
import { call } from './helpers/audit.ts';
import { expectAccessible } from './helpers/axe.ts';
import { atPath, describeJourneys, openJourney, useBrowser } from './helpers/browser.ts';
import { useServer } from './helpers/server.ts';
import { LEAVE_LOBBY_TEXTS } from '../apps/web/src/lobby/texts.ts';

describeJourneys('joining people', () => {
  const browser = useBrowser();
  const server = useServer();

  it('answers a wrong code on the dashboard at its field, and joins with a right one', async () => {
    const [host, friend] = await Promise.all([
      registerAccount(server().base, 'code'),
      registerAccount(server().base, 'friend'),
    ]);
    const journey = await openJourney(browser(), server().base, { phone: true });
    const { page } = journey;
    try {
      await signIn(journey, friend);
      await journey.goto('/dashboard');
      const box = page.getByRole('region', { name: 'Join with code' });
      await page.getByText('Connected to server').first().waitFor();
      // On a phone the box is on the first screen, above the stats.
      expect(await box.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(844);

      const field = box.getByLabel('Room code');
      await field.fill('QQQQ99');
      // Timed in the page, from the click to the error under the field: a wrong code is answered at its
      // field within 300 ms, while the reconnection retries go on behind it.
      const answeredMs = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const started = performance.now();
            new MutationObserver((_, observer) => {
              if (!document.querySelector('[role="alert"]')?.textContent?.includes('Game not found')) return;
              observer.disconnect();
              resolve(performance.now() - started);
            }).observe(document.body, { subtree: true, childList: true, characterData: true });
            (document.querySelector('section button[type="submit"]') as HTMLButtonElement).click();
          }),
      );
      console.log(`[joining] a wrong code answered at the field in ${Math.round(answeredMs)} ms`);
      expect(answeredMs).toBeLessThan(300);
      expect(await box.getByRole('alert').textContent()).toBe(LOBBY_TEXTS.gameNotFound);
      expect(await box.getByRole('button', { name: 'Join', exact: true }).isEnabled()).toBe(true);
      await expectAccessible(page, 'dashboard with a wrong room code');

      const { roomCode } = await call<{ roomCode: string }>(server(), host, '/game/create', {
        settings: { maxPlayers: 4 },
      });
      await field.fill(roomCode);
      expect(await box.getByRole('alert').count()).toBe(0);
      await box.getByRole('button', { name: 'Join', exact: true }).click();
      await atPath(page, `/lobby/${roomCode}`);
      await page.getByRole('listitem', { name: host.username }).waitFor();
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);

  it('brings people in with an invite link: a guest, a new account, and someone signed in', async () => {
    const [host, member] = await Promise.all([
      registerAccount(server().base, 'inviter'),
      registerAccount(server().base, 'member'),
    ]);
    const hostJourney = await openJourney(browser(), server().base);
    const guest = await openJourney(browser(), server().base, { phone: true });
    const newcomer = await openJourney(browser(), server().base);
    const signedIn = await openJourney(browser(), server().base);
    try {
      await hostJourney.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signIn(hostJourney, host);
      const { roomCode } = await call<{ roomCode: string }>(server(), host, '/game/create', {
        settings: { maxPlayers: 4 },
      });
      await hostJourney.goto(`/lobby/${roomCode}`);
      const link = `${server().base}/join/${roomCode}`;
      expect(await hostJourney.page.getByLabel('Invite link').inputValue()).toBe(link);
      await hostJourney.page.getByRole('button', { name: 'Copy link' }).click();
      await hostJourney.page.getByText('Invite link copied!').waitFor();
      expect(await hostJourney.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      await expectAccessible(hostJourney.page, 'waiting room with its invite link');

      // Signed out, on a phone: one click as a guest, into the lobby.
      await guest.page.goto(link);
      await guest.page.getByRole('heading', { name: "You're invited to a game" }).waitFor();
      expect(await guest.page.getByTestId('invite-code').textContent()).toBe(roomCode);
      await expectAccessible(guest.page, 'invite page');
      await guest.page.getByRole('button', { name: 'Play as guest' }).click();
      await atPath(guest.page, `/lobby/${roomCode}`);
      await guest.page.getByRole('listitem', { name: host.username }).waitFor();

      // Signed out: a new account, then the lobby.
      await newcomer.page.goto(link);
      await newcomer.page.getByRole('link', { name: 'Create an account' }).click();
      const username = `new_${Date.now().toString(36)}`;
      await newcomer.page.getByLabel('Username').fill(username);
      await newcomer.page.getByLabel('Email').fill(`${username}@example.com`);
      await newcomer.page.getByLabel('Password', { exact: true }).fill('play secret 1');
      await newcomer.page.getByLabel('Confirm password', { exact: true }).fill('play secret 1');
      await newcomer.page.getByRole('button', { name: 'Create account' }).click();
      await atPath(newcomer.page, `/lobby/${roomCode}`);
      await newcomer.page.getByRole('listitem', { name: host.username }).waitFor();

      // Signed in already: straight in.
      await signIn(signedIn, member);
      await signedIn.goto(`/join/${roomCode}`);
      await atPath(signedIn.page, `/lobby/${roomCode}`);
      // The host sees all four.
      for (const name of [username, member.username]) {
        await hostJourney.page.getByRole('listitem', { name }).waitFor();
      }
      await expect.poll(() => hostJourney.page.getByRole('listitem', { name: /^Guest_/ }).count()).toBe(1);
      for (const j of [hostJourney, guest, newcomer, signedIn]) j.assertNoPageErrors();
    } finally {
      await Promise.all([hostJourney, guest, newcomer, signedIn].map((j) => j.close()));
    }
  }, 90_000);

  it('asks before an invite link takes someone out of their own waiting lobby: stay, or leave and join', async () => {
    const [inviter, waiter] = await Promise.all([
      registerAccount(server().base, 'asker'),
      registerAccount(server().base, 'waiter'),
    ]);
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    const seatOf = async () =>
      (await call<{ games: { roomCode: string; status: string }[] }>(server(), waiter, '/game/my-games')).games.map(
        (g) => g.roomCode,
      );
    try {
      await signIn(journey, waiter);
      const own = await call<{ roomCode: string }>(server(), waiter, '/game/create', { settings: { maxPlayers: 2 } });
      const other = await call<{ roomCode: string }>(server(), inviter, '/game/create', {
        settings: { maxPlayers: 2 },
      });
      await journey.goto(`/lobby/${own.roomCode}`);
      await page.getByRole('listitem', { name: waiter.username }).waitFor();

      // The invite link: a dialog, not a silent leave.
      await journey.goto(`/join/${other.roomCode}`);
      const dialog = page.getByRole('dialog', { name: LEAVE_LOBBY_TEXTS.title });
      await dialog.waitFor();
      await dialog.getByText(LEAVE_LOBBY_TEXTS.description(own.roomCode, other.roomCode)).waitFor();
      await expectAccessible(page, 'invite link asking before leaving one’s lobby');
      expect(await seatOf()).toEqual([own.roomCode]);
      await dialog.getByRole('button', { name: LEAVE_LOBBY_TEXTS.stay }).click();
      await atPath(page, `/lobby/${own.roomCode}`);
      await page.getByRole('listitem', { name: waiter.username }).waitFor();
      expect(await seatOf()).toEqual([own.roomCode]);

      // Asked again, Escape stays too; then leave and join.
      await journey.goto(`/join/${other.roomCode}`);
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await atPath(page, `/lobby/${own.roomCode}`);
      await journey.goto(`/join/${other.roomCode}`);
      await dialog.getByRole('button', { name: LEAVE_LOBBY_TEXTS.leaveAndJoin }).click();
      await atPath(page, `/lobby/${other.roomCode}`);
      await page.getByRole('listitem', { name: inviter.username }).waitFor();
      await page.getByRole('listitem', { name: waiter.username }).waitFor();
      expect(await seatOf()).toEqual([other.roomCode]);

      // In the invited room already: its own link goes straight in, no question.
      await journey.goto(`/join/${other.roomCode}`);
      await atPath(page, `/lobby/${other.roomCode}`);
      expect(await dialog.count()).toBe(0);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);

  it('plays as a guest from the landing page, never shows its made-up address, and becomes an account keeping its games', async () => {
    const journey = await openJourney(browser(), server().base, { phone: true });
    const { page } = journey;
    try {
      await journey.goto('/');
      await page.getByRole('button', { name: 'Play as guest' }).click();
      await atPath(page, '/dashboard');
      const guest = await page.evaluate(
        () => JSON.parse(localStorage.getItem('user') ?? 'null') as { id: string; username: string },
      );
      expect(guest.username).toMatch(/^Guest_/);
      await page.getByRole('button', { name: 'Menu' }).click();
      const menu = page.locator('#mobile-menu');
      await menu.getByText('Guest account').waitFor();
      // On to the profile through the open menu, as a person would (no second load of the app).
      await menu.getByRole('link', { name: 'Profile' }).click();
      await atPath(page, '/profile');
      await page.getByRole('main').getByText('Guest account').waitFor();
      expect(await page.content()).not.toContain('guest.invalid');

      // From the profile's link: the register form turns the guest into an account, same id.
      await page.getByRole('link', { name: 'Create an account' }).click();
      await atPath(page, '/register');
      await page.getByText('Your games, stats and level as a guest come with you.').waitFor();
      const username = `kept_${Date.now().toString(36)}`;
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email').fill(`${username}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('play secret 1');
      await page.getByLabel('Confirm password', { exact: true }).fill('play secret 1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await atPath(page, '/dashboard');
      await page.getByText(SERVER_TEXTS.guestUpgraded).waitFor();
      const user = await page.evaluate(
        () => JSON.parse(localStorage.getItem('user') ?? 'null') as { id: string; username: string; isGuest: boolean },
      );
      expect(user).toMatchObject({ id: guest.id, username, isGuest: false });
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);

  it('says a wrong password at the sign-in form, and keeps it there', async () => {
    const account = await registerAccount(server().base, 'pw');
    const journey = await openJourney(browser(), server().base);
    const { page } = journey;
    try {
      await journey.goto('/login');
      await page.getByLabel('Email or username').fill(account.username);
      await page.getByLabel('Password', { exact: true }).fill('not the password 1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText(AUTH_TEXTS.invalidCredentials).waitFor();
      // Still there once the toast has gone.
      await page
        .locator('[data-sonner-toast]', { hasText: AUTH_TEXTS.invalidCredentials })
        .waitFor({ state: 'detached', timeout: 15_000 });
      expect(await page.getByRole('alert').getByText(AUTH_TEXTS.invalidCredentials).isVisible()).toBe(true);
      journey.assertNoPageErrors();
    } finally {
      await journey.close();
    }
  }, 60_000);
});
