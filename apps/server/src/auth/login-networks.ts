/**
 * The networks an account signed in from (table login_networks; networkOf: IPv4 whole, IPv6 its /64).
 * Once an account's failed sign-ins from everywhere pass ABUSE_LIMITS.loginFailuresPerAccount, only
 * these may still try, so guesses from many networks cannot lock the owner out (docs/limits.md).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginNetworks } from '../db/schema.ts';

/** No account has this id: a login naming no account is looked up the same way (the same work either way). */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export async function isKnownNetwork(db: Db, userId: string | null, network: string): Promise<boolean> {
  const rows = await db
    .select({ network: loginNetworks.network })
    .from(loginNetworks)
    .where(and(eq(loginNetworks.userId, userId ?? NO_ACCOUNT), eq(loginNetworks.network, network)))
    .limit(1);
  return rows.length > 0;
}

/** Remembers (or refreshes) a network the account has just signed in from with its password. */
export async function rememberNetwork(db: Db, userId: string, network: string): Promise<void> {
  await db
    .insert(loginNetworks)
    .values({ userId, network })
    .onConflictDoUpdate({ target: [loginNetworks.userId, loginNetworks.network], set: { lastLoginAt: sql`now()` } });
}

/**
 * After a password reset or change the account's only known network is the one that made it (it proved
 * the mailbox or the current password): a network that signed in with the old password, perhaps a
 * thief's, has to wait out the failure window like a stranger (docs/limits.md).
 */
export async function keepOnlyNetwork(db: Db, userId: string, network: string): Promise<void> {
  await db.delete(loginNetworks).where(eq(loginNetworks.userId, userId));
  await rememberNetwork(db, userId, network);
}
