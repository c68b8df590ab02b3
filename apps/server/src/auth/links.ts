/**
 * Mailed links (verify-email, reset-password): 32 random bytes whose SHA-256 alone is stored, single
 * use, expiring, and all retired by a password reset or change (docs/accounts.md).
 */
import { RESET_PASSWORD_TOKEN_TTL_MS, SERVER_TEXTS, VERIFY_EMAIL_TOKEN_TTL_MS } from '@memeslam/protocol';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailTokens } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { hashLinkToken, newLinkToken } from './tokens.ts';

type LinkPurpose = (typeof emailTokens.$inferSelect)['purpose'];

/** The one rule of a mailed link that still works: its token's, for this purpose, unused and unexpired. */
function liveLink(token: string, purpose: LinkPurpose) {
  return and(
    eq(emailTokens.tokenHash, hashLinkToken(token)),
    eq(emailTokens.purpose, purpose),
    isNull(emailTokens.usedAt),
    gt(emailTokens.expiresAt, new Date()),
  );
}

/** A new single-use link (its page under `publicUrl`); earlier unused links of the same kind stop working. */
export async function issueLink(db: Db, publicUrl: string, userId: string, purpose: LinkPurpose): Promise<string> {
  const { token, hash } = newLinkToken();
  const now = new Date();
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  const ttl = purpose === 'verify-email' ? VERIFY_EMAIL_TOKEN_TTL_MS : RESET_PASSWORD_TOKEN_TTL_MS;
  await db.insert(emailTokens).values({ userId, purpose, tokenHash: hash, expiresAt: new Date(now.getTime() + ttl) });
  return `${publicUrl}/${purpose}?token=${encodeURIComponent(token)}`;
}

/** Every unused mailed link of the user (verify and reset) stops working: marked used. */
export async function retireLinks(db: Db, userId: string): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), isNull(emailTokens.usedAt)));
}

/** Whether a link is known, unused and unexpired, without using it. */
export async function linkIsLive(db: Db, token: string, purpose: LinkPurpose): Promise<boolean> {
  const [row] = await db.select({ id: emailTokens.id }).from(emailTokens).where(liveLink(token, purpose)).limit(1);
  return row !== undefined;
}

/** Marks a link used and returns its user; refuses an unknown, used or expired one. */
export async function redeemLink(db: Db, token: string, purpose: LinkPurpose): Promise<string> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(liveLink(token, purpose))
    .returning({ userId: emailTokens.userId });
  if (!row) throw badRequest(SERVER_TEXTS.invalidOrExpiredToken);
  return row.userId;
}
