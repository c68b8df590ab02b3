/**
 * The game calls under /api/game, the replay included (docs/http-api.md, Games). Games created here and over the
 * socket are the same rooms of the same GameService.
 */
import { type BotDifficulty, strongestDifficulty } from '@memeslam/engine';
import {
  ADMISSION_RETRY_MS,
  type Game,
  type HttpRouteName,
  LOBBY_TEXTS,
  resourceNotFoundText,
  winRatePercent,
} from '@memeslam/protocol';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/service.ts';
import { replays, walletLedger } from '../db/schema.ts';
import { AppError, badRequest, forbidden, notFound, serverBusy, tooManyRequests } from '../http/errors.ts';
import { type Answer, type RouteContext, defineRoute } from '../http/route.ts';
import type { UserRow } from '../users/repository.ts';
import { countGamesOf, finishedGame, gameRecordsFor, gameResultOf, globalGameStats } from './records.ts';
import { type Outcome, sha256Hex } from './types.ts';
import type { GameService } from './service.ts';
import { canSee, viewerOf } from './room-queries.ts';

/**
 * The lobby's refusals as HTTP statuses, by code: an unknown room is a 404, too many creations a 429,
 * the server's room ceiling and admission control a 503, a rematch lobby still held for others a 403, the rest a 400.
 */
function orThrow<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.data;
  switch (outcome.code) {
    case 'GAME_NOT_FOUND':
      throw notFound(outcome.error);
    case 'TOO_MANY_GAMES':
      throw tooManyRequests(outcome.error);
    case 'SERVER_BUSY':
      throw serverBusy();
    case 'NO_HEADROOM':
      // Admission control: the client waits in line, asking again after Retry-After (games/headroom.ts).
      throw new AppError(503, outcome.error, {}, { 'retry-after': String(ADMISSION_RETRY_MS / 1000) });
    case 'REMATCH_HELD':
      throw forbidden(outcome.error);
    default:
      throw badRequest(outcome.error);
  }
}

export function registerGameRoutes(app: FastifyInstance, auth: AuthService, games: GameService): void {
  const on = <K extends HttpRouteName>(name: K, handler: (ctx: RouteContext<K>) => Promise<Answer<K>>) =>
    defineRoute(app, (token) => auth.authenticate(token), name, handler);
  const me = (user: UserRow | null) => ({ id: (user as UserRow).id, username: (user as UserRow).username });
  const viewer = (user: UserRow | null) => viewerOf(user as UserRow);
  /** A seat taken over HTTP keeps the request's network key (docs/fair-play.md). */
  const seated = (user: UserRow | null, request: FastifyRequest) => ({
    ...me(user),
    addressKey: games.addressKeyOf(request.ip),
  });

  on('createGame', async ({ user, body, request }) => {
    const { seq: _seq, ...data } = orThrow(
      await games.handle(seated(user, request), { type: 'create', setup: body.settings }),
    );
    return { status: 201, data, message: `${LOBBY_TEXTS.gameCreated} ${data.roomCode}` };
  });

  on('createBotGame', async ({ user, body, request }) => {
    const { seq: _seq, ...data } = orThrow(await games.handle(seated(user, request), { type: 'create', setup: body }));
    const bots = body.bots as NonNullable<typeof body.bots>;
    return { status: 201, data: { ...data, numberOfBots: bots.numberOfBots, botDifficulty: bots.difficulty } };
  });

  on('joinGame', async ({ user, body, request }) => {
    const joined = orThrow(await games.handle(seated(user, request), { type: 'join', roomCode: body.roomCode }));
    const { gameId, roomCode, game } = joined;
    return { data: { gameId, roomCode, game }, message: LOBBY_TEXTS.joinedGame };
  });

  on('leaveGame', async ({ user, params }) => {
    orThrow(await games.handle(me(user), { type: 'leave', game: params.id }));
    return { data: null };
  });

  // A game whose host refused spectators is not shown to anyone outside it (its players and admins
  // excepted): to them it does not exist (docs/privacy.md).
  on('getGame', async ({ user, params }) => {
    const game = (await games.describe(params.id, me(user).id)) ?? (await storedGame(app, params.id));
    if (!game || !canSee(game, viewer(user))) {
      throw notFound(LOBBY_TEXTS.gameNotFound);
    }
    return { data: { game } };
  });

  on('myGames', async ({ user, query }) => {
    const userId = me(user).id;
    const live = await games.currentGame(userId);
    const list: Game[] = live && (!query.status || live.status === query.status) ? [live] : [];
    if (query.status === 'finished') {
      for (const record of await gameRecordsFor(app.db, userId, query.limit)) {
        const game = await storedGame(app, record.gameId);
        if (game) list.push(game);
      }
    }
    return { data: { games: list.slice(0, query.limit) } };
  });

  // Games with spectators off are listed to their players and admins only (docs/privacy.md).
  on('activeGames', async ({ user, query }) => ({
    data: await games.liveGames(me(user).id, { ...query, seesPrivate: viewer(user).seesPrivate }),
  }));

  on('gameStats', async ({ user }) => {
    const row = user as UserRow;
    const [recentGames, global, pot] = await Promise.all([
      gameRecordsFor(app.db, row.id, 10),
      globalGameStats(app.db),
      app.db
        .select({ total: sql<number>`coalesce(sum(${walletLedger.amount}), 0)`.mapWith(Number) })
        .from(walletLedger)
        .where(eq(walletLedger.kind, 'tournamentPrize')),
    ]);
    const presented = await auth.present(row);
    return {
      data: {
        userStats: {
          totalGames: row.gamesPlayed,
          totalWins: row.gamesWon,
          averageGameTime: presented.stats.averageGameTime,
          totalPotWon: presented.wallet.totalWon,
          winRate: winRatePercent(row.gamesWon, row.gamesPlayed),
          recentBotGames: recentGames.filter((g) => g.isBotGame).length,
          recentHumanGames: recentGames.filter((g) => !g.isBotGame).length,
        },
        recentGames,
        globalStats: { ...global, totalPotValue: pot[0]?.total ?? 0 },
      },
    };
  });

  on('gameHistory', async ({ user, query }) => {
    const userId = me(user).id;
    const [list, total] = await Promise.all([
      gameRecordsFor(app.db, userId, query.limit, query.offset),
      countGamesOf(app.db, userId),
    ]);
    return { data: { games: list, total } };
  });

  on('gameTest', async () => ({ data: { ok: true as const } }));

  on('botStatus', async ({ user, params }) => {
    const status = await games.botStatus(params.id, viewer(user));
    if (!status) throw notFound(LOBBY_TEXTS.gameNotFound);
    return { data: status };
  });

  // A finished game's result, for good (its room is gone a few minutes after the end): to its players
  // and admins, and to anyone when its host allowed spectators, as getGame.
  on('gameResult', async ({ user, params }) => {
    const stored = await finishedGame(app.db, params.id);
    const game = stored?.game.status === 'finished' ? gameOfStored(stored) : null;
    if (!stored || !game || !canSee(game, viewer(user))) {
      throw notFound(LOBBY_TEXTS.gameNotFound);
    }
    return { data: { game, result: gameResultOf(stored.game, stored.seats) } };
  });

  // The seed, the deal and every move: of a game with spectators off, to its players and admins only;
  // anyone else gets the answer an unknown id gets (docs/privacy.md).
  on('replay', async ({ user, params }) => {
    const stored = await finishedGame(app.db, params.id);
    if (
      !stored ||
      stored.game.status !== 'finished' ||
      !stored.game.seed ||
      !canSee(gameOfStored(stored), viewer(user))
    ) {
      throw new AppError(404, resourceNotFoundText(`/game/${params.id}/replay`));
    }
    const [replay] = await app.db.select().from(replays).where(eq(replays.gameId, stored.game.id));
    if (!replay) throw new AppError(404, resourceNotFoundText(`/game/${params.id}/replay`));
    return {
      data: {
        gameId: stored.game.id,
        seed: stored.game.seed,
        seedCommitment: sha256Hex(stored.game.seed),
        config: replay.config as never,
        commands: replay.commands as never,
      },
    };
  });
}

/** A game no longer live, as the Game shape (players by seat, no gameState). */
async function storedGame(app: FastifyInstance, idOrCode: string): Promise<Game | null> {
  const stored = await finishedGame(app.db, idOrCode);
  return stored ? gameOfStored(stored) : null;
}

function gameOfStored({ game, seats }: NonNullable<Awaited<ReturnType<typeof finishedGame>>>): Game {
  const bots = seats.flatMap((s) => (s.isBot && s.botDifficulty ? [s.botDifficulty as BotDifficulty] : []));
  const difficulty = strongestDifficulty(bots);
  const botInfo = difficulty ? { numberOfBots: bots.length, difficulty } : null;
  const settings = game.settings as {
    maxPlayers: number;
    cardsPerPlayer: 20 | 30 | 40;
    gameSpeed: Game['gameSettings']['gameSpeed'];
    allowSpectators: boolean;
    autoStart: boolean;
  };
  const host = seats.find((s) => s.userId !== null && s.userId === game.hostId);
  return {
    gameId: game.id,
    roomCode: game.roomCode,
    host: { ...(game.hostId ? { userId: game.hostId } : {}), username: host?.username ?? '' },
    status: game.status,
    players: seats.map((s, position) => ({
      userId: s.playerId,
      username: s.username,
      isBot: s.isBot,
      botDifficulty: s.botDifficulty as BotDifficulty | null,
      isReady: true,
      position,
      cardsLeft: s.cardsLeft ?? 0,
      powerUps: { available: [], used: [] },
      powerUpsUsed: [],
      isHost: s.userId !== null && s.userId === game.hostId,
    })),
    playersCount: seats.length,
    maxPlayers: settings.maxPlayers,
    isOpen: false,
    isBotGame: game.isBotGame,
    botSettings: botInfo,
    botInfo,
    gameSettings: {
      cardsPerPlayer: settings.cardsPerPlayer,
      gameSpeed: settings.gameSpeed,
      allowSpectators: settings.allowSpectators,
      autoStart: settings.autoStart,
    },
    createdAt: game.createdAt.toISOString(),
    gameState: null,
  };
}
