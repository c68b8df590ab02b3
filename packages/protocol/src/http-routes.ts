/**
 * Every /api route in one table: method, path, who may call it, and the schemas of its body,
 * query, path parameters and success data. The server registers its handlers from this table and
 * validates at the edge; the web client types its calls from it. A route missing here is a route
 * that does not exist.
 */
import * as z from 'zod';
import { adminAuditDataSchema, adminAuditQuerySchema, adminStatsSchema } from './admin.ts';
import {
  accountExportSchema,
  authSessionSchema,
  changePasswordSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  registrationPendingSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  updateProfileSchema,
  userDataSchema,
  verifyEmailSchema,
} from './auth.ts';
import { replaySchema } from './game-record.ts';
import {
  activeGamesDataSchema,
  activeGamesQuerySchema,
  botGameEntryDataSchema,
  botStatusDataSchema,
  createGameRequestSchema,
  gameDataSchema,
  gameResultDataSchema,
  gameEntryDataSchema,
  gameHistoryDataSchema,
  gameHistoryQuerySchema,
  gameStatsDataSchema,
  gameTestDataSchema,
  myGamesDataSchema,
  myGamesQuerySchema,
} from './http-game.ts';
import { noBodySchema, noDataSchema, successEnvelope } from './http-envelope.ts';
import { leaderboardDataSchema, leaderboardQuerySchema } from './leaderboard.ts';
import { createBotGameSchema, joinGameSchema } from './lobby.ts';
import { idSchema } from './primitives.ts';
import {
  createTournamentSchema,
  tournamentLeaderboardEntrySchema,
  tournamentSchema,
  tournamentStandingSchema,
} from './tournament.ts';
import { walletNonceDataSchema, walletNonceSchema, walletVerifyDataSchema, walletVerifySchema } from './wallet.ts';

export const API_BASE = '/api';
/** Answered at the page origin, outside /api and without an envelope. */
export const HEALTH_PATH = '/health';

/**
 * public: anyone; optional: a bearer token is used when present; user: signed in; staff: a role
 * with canAccessAdmin (STAFF_ROLES: superadmin, admin, moderator); superadmin: that role only. The
 * server checks roles: 401 when signed out, 403 for a role without access.
 */
export type RouteAccess = 'public' | 'optional' | 'user' | 'staff' | 'superadmin';

export interface HttpRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under API_BASE, with `:id` for a path parameter. */
  readonly path: string;
  readonly access: RouteAccess;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly params?: z.ZodType;
  /** The `data` of the success envelope. */
  readonly data: z.ZodType;
}

/** `:id` of a game (the game page also accepts a room code in its place) or of a tournament. */
export const idParamsSchema = z.object({ id: idSchema });
const noBody = { body: noBodySchema };

export const httpRoutes = {
  // ── accounts ──
  login: { method: 'POST', path: '/auth/login', access: 'public', body: loginSchema, data: authSessionSchema },
  /** Or, when verification is required first, registrationPendingSchema. */
  register: { method: 'POST', path: '/auth/register', access: 'public', body: registerSchema, data: authSessionSchema },
  logout: { method: 'POST', path: '/auth/logout', access: 'user', ...noBody, data: noDataSchema },
  me: { method: 'GET', path: '/auth/me', access: 'user', data: userDataSchema },
  updateProfile: {
    method: 'PUT',
    path: '/auth/profile',
    access: 'user',
    body: updateProfileSchema,
    data: userDataSchema,
  },
  refresh: { method: 'POST', path: '/auth/refresh', access: 'user', ...noBody, data: authSessionSchema },
  demo: { method: 'POST', path: '/auth/demo', access: 'public', ...noBody, data: authSessionSchema },
  /**
   * A signed-in guest becomes an account, keeping its games, stats and level; the guest token dies.
   * With verification required it answers registrationPendingSchema, as register does.
   */
  upgradeGuest: {
    method: 'POST',
    path: '/auth/upgrade',
    access: 'user',
    body: registerSchema,
    data: authSessionSchema,
  },
  resendVerification: {
    method: 'POST',
    path: '/auth/resend-verification',
    access: 'public',
    body: resendVerificationSchema,
    data: noDataSchema,
  },
  /** Verifying signs nobody in (docs/accounts.md); the link is single use and expires in 24 h. */
  verifyEmail: {
    method: 'POST',
    path: '/auth/verify-email',
    access: 'public',
    body: verifyEmailSchema,
    data: noDataSchema,
  },
  forgotPassword: {
    method: 'POST',
    path: '/auth/forgot-password',
    access: 'public',
    body: forgotPasswordSchema,
    data: noDataSchema,
  },
  resetPassword: {
    method: 'POST',
    path: '/auth/reset-password',
    access: 'public',
    body: resetPasswordSchema,
    data: noDataSchema,
  },
  /** Older tokens are revoked, so the answer carries a fresh one. */
  changePassword: {
    method: 'POST',
    path: '/auth/change-password',
    access: 'user',
    body: changePasswordSchema,
    data: authSessionSchema,
  },
  exportAccount: { method: 'GET', path: '/auth/export', access: 'user', data: accountExportSchema },
  deleteAccount: {
    method: 'DELETE',
    path: '/auth/account',
    access: 'user',
    body: deleteAccountSchema,
    data: noDataSchema,
  },
  leaderboard: {
    method: 'GET',
    path: '/auth/leaderboard',
    access: 'public',
    query: leaderboardQuerySchema,
    data: leaderboardDataSchema,
  },
  /** Admin access (canAccessAdmin), not only superadmin: the statistics are read-only. */
  adminStats: { method: 'GET', path: '/auth/admin/stats', access: 'staff', data: adminStatsSchema },
  /** The admin audit, newest first (docs/security.md): staff only, read-only. */
  adminAudit: {
    method: 'GET',
    path: '/auth/admin/audit',
    access: 'staff',
    query: adminAuditQuerySchema,
    data: adminAuditDataSchema,
  },
  walletNonce: {
    method: 'POST',
    path: '/wallet/nonce',
    access: 'user',
    body: walletNonceSchema,
    data: walletNonceDataSchema,
  },
  walletVerify: {
    method: 'POST',
    path: '/wallet/verify',
    access: 'user',
    body: walletVerifySchema,
    data: walletVerifyDataSchema,
  },

  // ── games ──
  createGame: {
    method: 'POST',
    path: '/game/create',
    access: 'user',
    body: createGameRequestSchema,
    data: gameEntryDataSchema,
  },
  createBotGame: {
    method: 'POST',
    path: '/game/create-bot-game',
    access: 'user',
    body: createBotGameSchema,
    data: botGameEntryDataSchema,
  },
  joinGame: { method: 'POST', path: '/game/join', access: 'user', body: joinGameSchema, data: gameEntryDataSchema },
  leaveGame: {
    method: 'POST',
    path: '/game/:id/leave',
    access: 'user',
    params: idParamsSchema,
    ...noBody,
    data: noDataSchema,
  },
  getGame: { method: 'GET', path: '/game/:id', access: 'user', params: idParamsSchema, data: gameDataSchema },
  myGames: {
    method: 'GET',
    path: '/game/my-games',
    access: 'user',
    query: myGamesQuerySchema,
    data: myGamesDataSchema,
  },
  activeGames: {
    method: 'GET',
    path: '/game/active',
    access: 'user',
    query: activeGamesQuerySchema,
    data: activeGamesDataSchema,
  },
  gameStats: { method: 'GET', path: '/game/stats', access: 'user', data: gameStatsDataSchema },
  gameHistory: {
    method: 'GET',
    path: '/game/history',
    access: 'user',
    query: gameHistoryQuerySchema,
    data: gameHistoryDataSchema,
  },
  gameTest: { method: 'GET', path: '/game/test', access: 'public', data: gameTestDataSchema },
  botStatus: {
    method: 'GET',
    path: '/game/bot-status/:id',
    access: 'user',
    params: idParamsSchema,
    data: botStatusDataSchema,
  },
  replay: { method: 'GET', path: '/game/:id/replay', access: 'user', params: idParamsSchema, data: replaySchema },
  gameResult: {
    method: 'GET',
    path: '/game/:id/result',
    access: 'user',
    params: idParamsSchema,
    data: gameResultDataSchema,
  },

  // ── tournaments ──
  listTournaments: {
    method: 'GET',
    path: '/tournaments',
    access: 'optional',
    data: z.object({ tournaments: z.array(tournamentSchema) }),
  },
  currentTournament: {
    method: 'GET',
    path: '/tournaments/current',
    access: 'optional',
    /** null: "No Active Tournament". */
    data: z.object({ tournament: tournamentSchema.nullable() }),
  },
  liveLeaderboard: {
    method: 'GET',
    path: '/tournaments/:id/live-leaderboard',
    access: 'public',
    params: idParamsSchema,
    data: z.object({ leaderboard: z.array(tournamentLeaderboardEntrySchema) }),
  },
  /** The asking user's entry: joined, position, games counted and why recent games did not. */
  tournamentStanding: {
    method: 'GET',
    path: '/tournaments/:id/me',
    access: 'user',
    params: idParamsSchema,
    data: z.object({ standing: tournamentStandingSchema }),
  },
  createTournament: {
    method: 'POST',
    path: '/tournaments',
    access: 'superadmin',
    body: createTournamentSchema,
    data: z.object({ tournament: tournamentSchema }),
  },
  joinTournament: {
    method: 'POST',
    path: '/tournaments/:id/join',
    access: 'user',
    params: idParamsSchema,
    ...noBody,
    data: z.object({ tournament: tournamentSchema }),
  },
} as const satisfies Record<string, HttpRoute>;

export type HttpRouteName = keyof typeof httpRoutes;
type RouteOf<K extends HttpRouteName> = (typeof httpRoutes)[K];

/** What the client sends as the body (before the schema's defaults and normalisation). */
export type RouteBody<K extends HttpRouteName> =
  RouteOf<K> extends { body: infer B extends z.ZodType } ? z.input<B> : never;
/** What the server's handler gets after validation. */
export type RouteBodyParsed<K extends HttpRouteName> =
  RouteOf<K> extends { body: infer B extends z.ZodType } ? z.output<B> : never;
export type RouteQuery<K extends HttpRouteName> =
  RouteOf<K> extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type RouteQueryParsed<K extends HttpRouteName> =
  RouteOf<K> extends { query: infer Q extends z.ZodType } ? z.output<Q> : never;
export type RouteData<K extends HttpRouteName> = z.output<RouteOf<K>['data']>;

/** Schema of a route's whole success answer; register and upgradeGuest may instead answer registrationPendingSchema. */
export function successSchemaFor(name: HttpRouteName) {
  const envelope = successEnvelope(httpRoutes[name].data);
  return name === 'register' || name === 'upgradeGuest' ? z.union([envelope, registrationPendingSchema]) : envelope;
}

/** The path with its `:id` filled in (encoded), without API_BASE. */
export function routePath(name: HttpRouteName, params: { readonly id?: string } = {}): string {
  const path: string = httpRoutes[name].path;
  if (!path.includes(':id')) return path;
  if (params.id === undefined) throw new TypeError(`${name} needs an id`);
  return path.replace(':id', encodeURIComponent(params.id));
}
