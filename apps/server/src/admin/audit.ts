/**
 * The admin audit (docs/security.md): one row per admin action, written with the database handle of
 * the action's own transaction, so an action and its row commit or roll back together. Read by
 * GET /auth/admin/audit (staff only), newest first, a page at a time.
 */
import { userInfo } from 'node:os';
import { type AdminAction, type AdminAuditData, STAFF_ROLES, SERVER_TEXTS, type UserRole } from '@memeslam/protocol';
import { count, desc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminAudit } from '../db/schema.ts';

/** Who acted: an account (id and its name then), or the server itself / the command line (no id). */
export interface AuditActor {
  readonly id: string | null;
  readonly name: string;
}

/** Payouts: the server pays an ended tournament by itself. */
export const SYSTEM_ACTOR: AuditActor = { id: null, name: 'system' };

/** The operator at the command line (`npm run admin`): their OS user's name. */
export function cliActor(): AuditActor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): the name stays unknown.
  }
  return { id: null, name: `cli:${name}` };
}

export interface AuditEntry {
  readonly actor: AuditActor;
  readonly action: AdminAction;
  readonly targetId: string | null;
  readonly details?: Record<string, unknown>;
}

/** Writes the row with `db`: pass the action's transaction. */
export async function recordAdminAction(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(adminAudit).values({
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    targetId: entry.targetId,
    details: entry.details ?? {},
  });
}

/** One page of the audit, newest first. */
export async function adminAuditPage(db: Db, page: number, limit: number): Promise<AdminAuditData> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(adminAudit)
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(adminAudit),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      actorId: row.actorId,
      actorName: row.actorName,
      action: row.action as AdminAction,
      targetId: row.targetId,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
    })),
    page,
    limit,
    total: total?.n ?? 0,
  };
}

/**
 * Why `user` may not be given `role`, or null: a staff role (admin page access) needs a full account
 * whose e-mail address is verified (docs/security.md).
 */
export function promotionRefusal(
  user: { isGuest: boolean; emailVerifiedAt: Date | null },
  role: UserRole,
): string | null {
  if (!(STAFF_ROLES as readonly string[]).includes(role)) return null;
  if (user.isGuest) return SERVER_TEXTS.promotionOfGuest;
  if (user.emailVerifiedAt === null) return SERVER_TEXTS.promotionNeedsVerifiedEmail;
  return null;
}
