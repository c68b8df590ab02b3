/**
 * GET /auth/leaderboard (public), GET /auth/admin/stats and GET /auth/admin/audit (admin access, 403
 * otherwise): the leaderboard screen, the admin page's statistics tab and its audit table
 * (docs/security.md).
 */
import { isProvisional } from '@memeslam/engine';
import type { HttpRouteName } from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import { adminAuditPage } from '../admin/audit.ts';
import type { AuthService } from '../auth/service.ts';
import type { Presence } from '../cluster/presence.ts';
import { type Answer, type RouteContext, defineRoute } from '../http/route.ts';
import { adminFigures, leaderboardRows, leaderboardTotals } from './repository.ts';

export function registerStatsRoutes(app: FastifyInstance, auth: AuthService, presence: Presence): void {
  const on = <K extends HttpRouteName>(name: K, handler: (ctx: RouteContext<K>) => Promise<Answer<K>>) =>
    defineRoute(app, (token) => auth.authenticate(token), name, handler);

  on('leaderboard', async ({ query }) => {
    const [rows, totals, online] = await Promise.all([
      leaderboardRows(app.db, query.sortBy, query.limit),
      leaderboardTotals(app.db),
      presence.onlineUserIds(),
    ]);
    return {
      data: {
        users: rows.map((row, index) => ({
          _id: row.id,
          rank: index + 1,
          username: row.username,
          createdAt: row.createdAt.toISOString(),
          stats: {
            gamesPlayed: row.gamesPlayed,
            gamesWon: row.gamesWon,
            winRate: row.winRate,
            totalPoints: row.totalPoints,
            fastestGame: row.fastestGame,
            rating: Math.round(row.rating),
            ratingProvisional: isProvisional({ deviation: row.ratingDeviation }),
            ratedGames: row.ratedGames,
          },
        })),
        // Players online: users with a live socket (on any node; each counted once, however many tabs).
        stats: { ...totals, totalPlayersOnline: online.size },
      },
    };
  });

  on('adminStats', async () => ({
    data: {
      ...(await adminFigures(app.db, await presence.onlineUserIds(), Date.now())),
      failingPayouts: await app.tournaments.failingPayouts(),
    },
  }));

  on('adminAudit', async ({ query }) => ({ data: await adminAuditPage(app.db, query.page, query.limit) }));
}
