import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { resourceNotFoundText } from '@memeslam/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth/routes.ts';
import { AuthService } from './auth/service.ts';
import { SessionTokens } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { type Db, openDatabase, ping } from './db/client.ts';
import { installErrorHandler } from './http/errors.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { createMailer } from './mail/mailer.ts';
import { type Clock, systemClock } from './clock.ts';
import { registerGameRoutes } from './games/routes.ts';
import { GameService } from './games/service.ts';
import type { Rules } from './games/types.ts';
import { registerStatsRoutes } from './stats/routes.ts';
import { registerTournamentRoutes } from './tournaments/routes.ts';
import { TournamentService } from './tournaments/service.ts';
import { attachGateway } from './realtime/gateway.ts';
import { Metrics } from './metrics.ts';
import { registerWalletRoutes } from './wallet/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's database: operator tools and tests reach it here rather than opening a second handle. */
    readonly db: Db;
    readonly games: GameService;
    readonly tournaments: TournamentService;
  }
}

export interface AppOptions {
  /** Folder of the built web app; served with an SPA fallback when it exists. */
  readonly webRoot: string;
  /** Wall clock and timers of the game rooms; tests pass a manual one. */
  readonly clock?: Clock;
  /** Draws each game's seed (32 hex characters); tests pass chosen deals. Default: 16 random bytes. */
  readonly seeds?: () => string;
  /** The engine functions the game rooms run; tests wrap them to make a room throw. */
  readonly rules?: Rules;
}

/** Bodies are small JSON documents; anything bigger is refused with a 413 before it is read. */
const BODY_LIMIT_BYTES = 64 * 1024;

/** The whole server: /health, the /api routes, the built web app for every other path. */
export async function buildApp(config: Config, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
  });
  installErrorHandler(app);
  // While shutting down, answers to requests still in flight close their keep-alive connection, so
  // that the server does not wait out the idle timeout of connections opened before the signal.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  const database = await openDatabase(config);
  app.decorate('db', database.db);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log: app.log });
  const games = new GameService({
    db: database.db,
    prepared: database.prepared,
    logWriters: database.logWriters,
    clock: options.clock ?? systemClock,
    log: app.log,
    ...(options.seeds ? { seeds: options.seeds } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
  });
  app.decorate('games', games);
  app.log.info({ database: database.kind, mail: config.smtpUrl ? 'smtp' : 'dev outbox' }, 'storage ready');

  const auth = new AuthService({
    db: database.db,
    tokens: new SessionTokens(config.jwtSecret),
    mailer,
    config,
    onMailError: (err, mail) => app.log.error({ err, to: mail.to, subject: mail.subject }, 'mail not sent'),
  });
  auth.beforeAccountDeletion((user) => games.removeUser(user));
  const limit = await installRateLimits(app, config.rateLimits);

  app.get('/health', async (_request, reply) => {
    const databaseUp = await ping(database.db);
    return reply.code(databaseUp ? 200 : 503).send({
      ok: databaseUp,
      service: 'memeslam',
      database: database.kind,
      uptimeSeconds: Math.round(process.uptime()),
    });
  });
  registerAuthRoutes(app, auth, limit);
  registerGameRoutes(app, auth, games);
  registerStatsRoutes(app, auth);
  registerWalletRoutes(app, auth, config.jwtSecret, options.clock ?? systemClock);
  const tournaments = new TournamentService({ db: database.db, clock: options.clock ?? systemClock, log: app.log });
  app.decorate('tournaments', tournaments);
  registerTournamentRoutes(app, auth, tournaments);
  await tournaments.settle();
  const metrics = new Metrics();
  const io = attachGateway(app, auth, games, { rateLimits: config.rateLimits, metrics });
  // Load figures for operators and the server benchmark; answered on loopback only.
  app.get('/metrics', async (request, reply) => {
    if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.ip)) {
      return reply.code(404).send({ success: false, message: resourceNotFoundText('/metrics') });
    }
    const query = request.query as { reset?: string; gc?: string };
    // With --expose-gc (the benchmark starts the server so), heap figures are read after a collection.
    if (query.gc === '1') (globalThis as { gc?: () => void }).gc?.();
    const figures = metrics.read({
      rooms: games.liveRooms.length,
      sockets: io.of('/').sockets.size,
      gameLog: games.logFigures(query.reset === '1'),
    });
    if (query.reset === '1') metrics.reset();
    return figures;
  });
  const recovered = await games.recover();
  if (recovered.restored + recovered.setAside > 0) app.log.info(recovered, 'game rooms rebuilt from their logs');

  // Sockets go first, before the HTTP server waits for its connections (no new commands come in),
  // then the rooms' last snapshots and results are written, then storage closes.
  app.addHook('preClose', async () => {
    games.stop();
    io.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    metrics.close();
    tournaments.close();
    await games.close();
    mailer.close();
    await database.close();
  });

  const hasWeb = existsSync(join(options.webRoot, 'index.html'));
  if (hasWeb) await app.register(fastifyStatic, { root: options.webRoot, wildcard: false });
  app.setNotFoundHandler(async (request, reply) => {
    // Any non-API, non-asset GET is a client route: the web app decides what to show.
    const path = request.url.split('?')[0] ?? '';
    const isAsset = /\.[a-z0-9]+$/i.test(path);
    if (hasWeb && request.method === 'GET' && !isAsset && !path.startsWith('/api/')) {
      return reply.sendFile('index.html');
    }
    return reply.code(404).send({ success: false, message: resourceNotFoundText(path) });
  });

  return app;
}
