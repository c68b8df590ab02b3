/** GET /auth/admin/stats: the admin page's statistics tab. */
import * as z from 'zod';
import { countSchema, idSchema, isoDateSchema } from './primitives.ts';
import { userRoleSchema } from './user.ts';

export const roleCountSchema = z.object({ count: countSchema, onlineCount: countSchema });

export const adminStatsSchema = z.object({
  /** One entry per role, every role present (zero counts included) so the page shows each card. */
  userStats: z.record(userRoleSchema, roleCountSchema),
  tournamentCount: countSchema,
  /** Users registered in the last 7 days. */
  recentRegistrations: countSchema,
  totalUsers: countSchema,
  /** Ended tournaments whose payout failed (retried every minute): each with its last error. */
  failingPayouts: z.array(
    z.object({
      tournamentId: idSchema,
      name: z.string(),
      endDate: isoDateSchema,
      error: z.string(),
      attempts: countSchema,
      lastAttemptAt: isoDateSchema,
    }),
  ),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/**
 * The admin audit (docs/security.md): every admin action — a tournament created, a tournament paid
 * out (the server itself: actorId null, actorName "system"), a role changed (the CLI: actorName
 * "cli:<OS user>") — written in the action's own transaction. GET /auth/admin/audit, newest first.
 */
export const ADMIN_ACTIONS = ['tournament.create', 'tournament.payout', 'user.role'] as const;
export const adminActionSchema = z.enum(ADMIN_ACTIONS);
export type AdminAction = z.infer<typeof adminActionSchema>;
export const ADMIN_AUDIT_PAGE_SIZE = 50;
/** The admin page's words for each action. */
export const ADMIN_ACTION_LABELS: Record<AdminAction, string> = {
  'tournament.create': 'Tournament created',
  'tournament.payout': 'Tournament paid out',
  'user.role': 'Role changed',
};

export const adminAuditQuerySchema = z.object({
  /** 1 = the newest entries. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(ADMIN_AUDIT_PAGE_SIZE),
});

export const adminAuditEntrySchema = z.object({
  id: idSchema,
  /** null: the server itself, or the operator's command line. */
  actorId: idSchema.nullable(),
  actorName: z.string(),
  action: adminActionSchema,
  /** A tournament's or a user's id. */
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: isoDateSchema,
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAuditDataSchema = z.object({
  entries: z.array(adminAuditEntrySchema),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  total: countSchema,
});
export type AdminAuditData = z.infer<typeof adminAuditDataSchema>;
