/** The tournament calls under /api, joining included (docs/http-api.md, Tournaments). */
import { type HttpRouteName, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/service.ts';
import { type Answer, type RouteContext, defineRoute } from '../http/route.ts';
import type { UserRow } from '../users/repository.ts';
import type { TournamentService } from './service.ts';

export function registerTournamentRoutes(app: FastifyInstance, auth: AuthService, service: TournamentService): void {
  const on = <K extends HttpRouteName>(name: K, handler: (ctx: RouteContext<K>) => Promise<Answer<K>>) =>
    defineRoute(app, (token) => auth.authenticate(token), name, handler);

  on('listTournaments', async ({ user }) => ({ data: { tournaments: await service.list(user?.id) } }));

  on('currentTournament', async ({ user }) => ({ data: { tournament: await service.current(user?.id) } }));

  on('liveLeaderboard', async ({ params }) => ({ data: { leaderboard: await service.leaderboard(params.id) } }));

  on('tournamentStanding', async ({ user, params }) => ({
    data: { standing: await service.standing((user as UserRow).id, params.id) },
  }));

  on('createTournament', async ({ user, body }) => ({
    status: 201,
    data: { tournament: await service.create(body, user as UserRow) },
    message: TOURNAMENT_TEXTS.created,
  }));

  on('joinTournament', async ({ user, params }) => ({
    data: { tournament: await service.join(user as UserRow, params.id) },
  }));
}
