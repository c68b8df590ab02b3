/** GET /auth/admin/stats: the admin page's statistics tab (spec §2 Admin page, §3). */
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
