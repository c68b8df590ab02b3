/**
 * Accounts for journeys: registered over HTTP (fast, and not what the journey is about), and a
 * browser context signed in the way the app keeps a session — the token and the user in storage.
 */
import { randomBytes } from 'node:crypto';
import type { User } from '@memeslam/protocol';
import type { Journey } from './browser.ts';
import { apiFetch } from './api.ts';

export interface Account {
  readonly username: string;
  readonly password: string;
  readonly token: string;
  readonly user: User;
}

export async function registerAccount(base: string, prefix: string): Promise<Account> {
  const username = `${prefix}_${randomBytes(3).toString('hex')}`;
  const password = 'play secret 1';
  const response = await apiFetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password }),
  });
  const body = (await response.json()) as { data?: { token: string; user: User } };
  if (!body.data?.token) throw new Error(`register ${username} failed: ${JSON.stringify(body)}`);
  return { username, password, token: body.data.token, user: body.data.user };
}

/**
 * Every page of the context starts signed in as `account` (plus any `extra` storage entries),
 * unless the page itself has signed in or out since: then it is left as it is.
 */
export async function signIn(journey: Journey, account: Account, extra: Record<string, string> = {}): Promise<void> {
  await journey.context.addInitScript(
    ([token, user, more]) => {
      if (sessionStorage.getItem('e2e-signed-in')) return;
      sessionStorage.setItem('e2e-signed-in', '1');
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
      for (const [key, value] of Object.entries(more)) localStorage.setItem(key, value);
    },
    [account.token, JSON.stringify(account.user), extra] as const,
  );
}
