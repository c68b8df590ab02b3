import { describe, expect, it } from 'vitest';
import { createGame, type Command } from '@memeslam/engine';
import {
  API_BASE,
  activeGamesQuerySchema,
  adminStatsSchema,
  gameHistoryQuerySchema,
  gameSchema,
  gameStatsDataSchema,
  healthSchema,
  httpRoutes,
  leaderboardDataSchema,
  leaderboardQuerySchema,
  replaySchema,
  routePath,
  successEnvelope,
  walletNonceSchema,
  walletVerifySchema,
  type RouteBody,
  type RouteData,
} from '../src/index.ts';
import { ISO, SEED, COMMITMENT, config, game, view } from './fixtures.ts';

/** Every HTTP route (docs/http-api.md), as "METHOD path" under /api. */
const SPEC_ROUTES = [
  'POST /auth/login',
  'POST /auth/register',
  'POST /auth/logout',
  'GET /auth/me',
  'PUT /auth/profile',
  'GET /auth/leaderboard',
  'POST /auth/refresh',
  'POST /auth/demo',
  'POST /auth/resend-verification',
  'POST /auth/verify-email',
  'POST /auth/forgot-password',
  'POST /auth/reset-password',
  'POST /auth/change-password',
  'GET /auth/export',
  'DELETE /auth/account',
  'GET /auth/admin/stats',
  'POST /game/create',
  'POST /game/create-bot-game',
  'POST /game/join',
  'POST /game/:id/leave',
  'GET /game/:id',
  'GET /game/my-games',
  'GET /game/active',
  'GET /game/stats',
  'GET /game/history',
  'GET /game/test',
  'GET /game/bot-status/:id',
  'GET /game/:id/replay',
  'GET /tournaments/current',
  'GET /tournaments/:id/live-leaderboard',
  'GET /tournaments',
  'POST /tournaments',
  'POST /tournaments/:id/join',
];

describe('route table', () => {
  it('has every listed route', () => {
    const routes = Object.values(httpRoutes).map((r) => `${r.method} ${r.path}`);
    for (const route of SPEC_ROUTES) expect(routes, route).toContain(route);
    expect(new Set(routes).size).toBe(routes.length);
    expect(API_BASE).toBe('/api');
  });

  it('has strict bodies on every route that takes one', () => {
    for (const [name, route] of Object.entries(httpRoutes)) {
      if (!('body' in route)) continue;
      expect(route.method, name).not.toBe('GET');
      const result = route.body.safeParse({ definitelyNotAField: 1 });
      expect(result.success, name).toBe(false);
      expect(
        result.error?.issues.map((i) => i.message),
        name,
      ).toContain('Unknown field: definitelyNotAField');
    }
  });

  it('builds paths', () => {
    expect(routePath('leaveGame', { id: 'g 1' })).toBe('/game/g%201/leave');
    expect(routePath('me')).toBe('/auth/me');
    expect(() => routePath('replay')).toThrow();
  });

  it('types bodies and data from the table', () => {
    const body: RouteBody<'joinGame'> = { roomCode: 'abc234' };
    const data: RouteData<'createBotGame'> = {
      gameId: 'g-1',
      roomCode: 'ABC234',
      game,
      numberOfBots: 1,
      botDifficulty: 'hard',
    };
    expect(httpRoutes.joinGame.body.parse(body)).toEqual({ roomCode: 'ABC234' });
    expect(successEnvelope(httpRoutes.createBotGame.data).safeParse({ success: true, data }).success).toBe(true);
  });
});

describe('game queries and answers', () => {
  it('active games: includeBotGames defaults to true, limit to 20, the timestamp is dropped', () => {
    expect(activeGamesQuerySchema.parse({ _t: '1717243200000' })).toEqual({ includeBotGames: true, limit: 20 });
    expect(
      activeGamesQuerySchema.parse({ gameMode: 'bot', botDifficulty: 'easy', includeBotGames: 'false', limit: '5' }),
    ).toEqual({ gameMode: 'bot', botDifficulty: 'easy', includeBotGames: false, limit: 5 });
    expect(activeGamesQuerySchema.safeParse({ gameMode: 'ranked' }).success).toBe(false);
    expect(activeGamesQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(activeGamesQuerySchema.safeParse({ includeBotGames: 'maybe' }).success).toBe(false);
    expect(gameHistoryQuerySchema.parse({})).toEqual({ limit: 20, offset: 0 });
  });

  it('a game summary carries every field the dashboard reads', () => {
    expect(gameSchema.safeParse(game).success).toBe(true);
    expect(gameSchema.safeParse({ ...game, status: 'active', gameState: view }).success).toBe(true);
    expect(gameSchema.safeParse({ ...game, status: 'idle' }).success).toBe(false);
    expect(gameSchema.safeParse({ ...game, gameSettings: { ...game.gameSettings, cardsPerPlayer: 35 } }).success).toBe(
      false,
    );
  });

  it('game stats', () => {
    const stats = {
      userStats: {
        totalGames: 12,
        totalWins: 5,
        averageGameTime: 180,
        totalPotWon: 250,
        winRate: 42,
        recentBotGames: 3,
        recentHumanGames: 2,
      },
      recentGames: [],
      globalStats: {
        totalGames: 900,
        totalBotGames: 600,
        totalHumanGames: 300,
        averageGameTime: 170,
        totalPotValue: 10_000,
        botGamesByDifficulty: { easy: 200, normal: 250, hard: 100, expert: 50 },
      },
    };
    expect(gameStatsDataSchema.safeParse(stats).success).toBe(true);
    const { expert: _expert, ...threeDifficulties } = stats.globalStats.botGamesByDifficulty;
    expect(
      gameStatsDataSchema.safeParse({
        ...stats,
        globalStats: { ...stats.globalStats, botGamesByDifficulty: threeDifficulties },
      }).success,
    ).toBe(false);
  });

  it('a replay re-runs through the engine', () => {
    const commands: { at: number; command: Command }[] = [
      { at: config.startAt + 1500, command: { type: 'checkDeadlock', playerId: 'u-alice' } },
      {
        at: config.startAt + 2000,
        command: { type: 'usePowerUp', playerId: 'u-alice', powerUpType: 'FREEZE', targetPlayerId: 'bot-1' },
      },
    ];
    const replay = replaySchema.parse({ gameId: 'g-1', seed: SEED, seedCommitment: COMMITMENT, config, commands });
    expect(createGame(replay.config).players).toHaveLength(2);
    expect(replaySchema.safeParse({ ...replay, seed: 'XYZ' }).success).toBe(false);
    expect(
      replaySchema.safeParse({ ...replay, commands: [{ at: 1, command: { type: 'cheat', playerId: 'u' } }] }).success,
    ).toBe(false);
  });

  it('health answers ok and may say more', () => {
    expect(healthSchema.parse({ ok: true, uptime: 12 })).toEqual({ ok: true, uptime: 12 });
    expect(healthSchema.safeParse({ ok: false }).success).toBe(false);
  });
});

describe('leaderboard', () => {
  it('defaults to totalPoints and 50, caps the limit at 50', () => {
    expect(leaderboardQuerySchema.parse({})).toEqual({ sortBy: 'totalPoints', limit: 50 });
    expect(leaderboardQuerySchema.parse({ sortBy: 'winRate', limit: '10', _t: '1' })).toEqual({
      sortBy: 'winRate',
      limit: 10,
    });
    expect(leaderboardQuerySchema.safeParse({ limit: '51' }).success).toBe(false);
    expect(leaderboardQuerySchema.safeParse({ sortBy: 'cardsPlayed' }).success).toBe(false);
  });

  it('reads users and stats', () => {
    const data = {
      users: [
        {
          _id: 'u-alice',
          rank: 1,
          username: 'alice',
          createdAt: ISO,
          stats: { gamesPlayed: 12, gamesWon: 5, winRate: 42, totalPoints: 1340, fastestGame: null },
        },
      ],
      stats: { totalGamesPlayed: 900, totalPointsScored: 120_000, totalPlayersOnline: 17 },
    };
    expect(leaderboardDataSchema.safeParse(data).success).toBe(true);
    expect(leaderboardDataSchema.safeParse({ ...data, stats: {} }).success).toBe(false);
  });
});

describe('admin and wallet', () => {
  it('admin stats have a count per role', () => {
    const roles = { count: 1, onlineCount: 0 };
    const stats = {
      userStats: { superadmin: roles, admin: roles, moderator: roles, user: { count: 40, onlineCount: 6 } },
      tournamentCount: 2,
      recentRegistrations: 9,
      totalUsers: 43,
      failingPayouts: [],
    };
    expect(adminStatsSchema.safeParse(stats).success).toBe(true);
    expect(adminStatsSchema.safeParse({ ...stats, userStats: { user: roles } }).success).toBe(false);
  });

  it('wallet bodies take base58 keys and signatures', () => {
    const address = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
    expect(walletNonceSchema.safeParse({ address }).success).toBe(true);
    expect(walletNonceSchema.safeParse({ address: '0OIl' + address.slice(4) }).success).toBe(false);
    expect(
      walletVerifySchema.safeParse({ address, nonce: 'n-1', signature: '5'.repeat(88), message: 'm' }).success,
    ).toBe(true);
    expect(walletVerifySchema.safeParse({ address, nonce: 'n-1', signature: '5'.repeat(88) }).success).toBe(false);
    expect(walletVerifySchema.safeParse({ address, nonce: 'n-1', signature: 'short', message: 'm' }).success).toBe(
      false,
    );
  });
});
