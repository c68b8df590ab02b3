import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import underPressure from '@fastify/under-pressure';
import { ABUSE_LIMITS, RATE_LIMITS, SERVER_TEXTS, resourceNotFoundText } from '@memeslam/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth/routes.ts';
import { AuthService } from './auth/service.ts';
import { SessionTokens } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { type Counts, memoryCounts, nodeRegistry, redisCounts } from './cluster/counts.ts';
import { NODE_TTL_MS } from './cluster/nodes.ts';
import { redisLeases } from './cluster/redis-ports.ts';
import { type Db, openDatabase, ping } from './db/client.ts';
import { envelopeOptions, installErrorHandler } from './http/errors.ts';
import { originAllowed } from './http/origins.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { isWebAppRequest, serveWebApp } from './http/web-app.ts';
import { loggerOptions } from './log.ts';
import { createMailer } from './mail/mailer.ts';
import { type Clock, systemClock } from './clock.ts';
import { ClusterRedis } from './cluster/redis.ts';
import { shardedAdapter } from './cluster/socket-adapter.ts';
import { gameRecordsFor } from './games/records.ts';
import { registerGameRoutes } from './games/routes.ts';
import { redisOwnership } from './games/redis-ownership.ts';
import { GameService } from './games/service.ts';
import type { Rules } from './games/types.ts';
import { registerStatsRoutes } from './stats/routes.ts';
import { registerTournamentRoutes } from './tournaments/routes.ts';
import { TournamentService } from './tournaments/service.ts';
import { Matchmaker } from './matchmaking/queue.ts';
import { RedisQueueStore } from './matchmaking/redis-store.ts';
import { type TrustProxy, attachGateway } from './realtime/gateway.ts';
import { Headroom, readAdmissionFile } from './games/headroom.ts';
import { Metrics, mayReadMetrics } from './metrics.ts';
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
  /**
   * Whose time the game log's and the records' retries wait on while the database is away (default:
   * the system clock, even when `clock` is manual); a test of a long outage passes its manual clock.
   */
  readonly retryClock?: Clock;
  /** Draws each game's seed (32 hex characters); tests pass chosen deals. Default: 16 random bytes. */
  readonly seeds?: () => string;
  /** The engine functions the game rooms run; tests wrap them to make a room throw. */
  readonly rules?: Rules;
  /** The server's ceilings (default: the protocol's ABUSE_LIMITS); tests lower them. */
  readonly ceilings?: {
    readonly maxLiveRooms?: number;
    readonly maxSockets?: number;
    /** Event-loop delay (ms) above which HTTP answers 503 "Server busy". */
    readonly maxEventLoopDelayMs?: number;
  };
  /** Where the log's JSON lines go (tests capture them); default: stdout (log.ts). */
  readonly logStream?: { write(line: string): void };
  /** Online users, per-address sockets, budgets and HTTP limits (cluster mode: redisCounts); closed with the app. */
  readonly counts?: Counts;
}

/** Bodies are small JSON documents; anything bigger is refused with a 413 before it is read. */
const BODY_LIMIT_BYTES = 64 * 1024;

/** A request id given by the front proxy (nginx's $request_id) is kept if it looks like one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The Content-Security-Policy of every answer. Scripts come only from this origin (the built app has
 * no inline script); styles allow inline ones because sonner and Radix insert <style> elements at run
 * time and components set style attributes; workers may also come from blob: URLs (canvas-confetti);
 * nothing may frame the app.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  // canvas-confetti draws in a worker it starts from a blob: URL made by the app's own script.
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The whole server: /health, the /api routes, the built web app for every other path. */
export async function buildApp(config: Config, options: AppOptions): Promise<FastifyInstance> {
  // TRUST_PROXY as Fastify takes it (a hop count becomes its test); the socket gateway reads client
  // addresses the same way, so its per-IP caps see the client behind the front too.
  const trustProxy: TrustProxy =
    typeof config.trustProxy === 'number'
      ? (
          (hops: number) => (_address: string, hop: number) =>
            hop < hops
        )(config.trustProxy)
      : config.trustProxy;
  const app = Fastify({
    ...loggerOptions(config, options.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind the nginx front (TRUST_PROXY), request.ip is the client's: rate limits and /metrics see it.
    trustProxy,
    ...envelopeOptions,
    // X-Request-Id is read by genReqId, which keeps only a well-formed one.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  installErrorHandler(app);
  // Server busy: while the event loop lags this much, the API answers 503 at once rather
  // than queueing more work behind it; the web app's own files still go out (isWebAppRequest). Sockets
  // and rooms have their own ceilings (gateway, game service).
  await app.register(underPressure, {
    maxEventLoopDelay: options.ceilings?.maxEventLoopDelayMs ?? ABUSE_LIMITS.maxEventLoopDelayMs,
    pressureHandler: (request, reply) => {
      // Nothing returned: the request goes on as usual.
      if (isWebAppRequest(request.method, request.url)) return undefined as never;
      reply.code(503).header('retry-after', '5');
      // What the handler returns, under-pressure sends (its typings say void).
      return { success: false, message: SERVER_TEXTS.serverBusy } as never;
    },
  });
  // Every answer names its request id: a user's report or the proxy's log finds the server's lines.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // For browsers without frame-ancestors: no framing at all, as the CSP says.
    frameguard: { action: 'deny' },
    // HSTS only where the app is served over HTTPS; a plain-HTTP install (localhost, a LAN) must stay reachable.
    strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 15_552_000 } : false,
  });
  // Cross-origin calls only from the allowed origins (and a page of this server's own).
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, {
        origin: origin !== undefined && originAllowed(origin, request.headers.host, config.allowedOrigins),
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
        maxAge: 600,
      });
    },
  });
  // While shutting down, answers to requests still in flight close their keep-alive connection, so
  // that the server does not wait out the idle timeout of connections opened before the signal.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  const metrics = new Metrics();
  app.addHook('onResponse', async (_request, reply) => {
    if (reply.statusCode === 429) metrics.rateLimited('http');
  });

  const database = await openDatabase({ ...config, log: app.log });
  // Cluster mode: REDIS_URL set, every node on one PostgreSQL database.
  const redis = config.redisUrl ? new ClusterRedis(config.redisUrl, config.databaseUrl ?? '') : null;
  await redis?.connect();
  app.decorate('db', database.db);
  // Online users, rate limits and caps: counted across the cluster's nodes in Redis, or in process.
  const counts = options.counts ?? (redis ? redisCounts(redis, config.nodeId) : memoryCounts());
  // Admission control (games/headroom.ts): this node's calibrated limits, against its signals window by
  // window (read by /metrics too, which a calibration run samples).
  const admission = readAdmissionFile(config.admissionFile);
  const headroom = new Headroom(admission);
  metrics.watch((signals) => headroom.observe(signals));
  if (!admission)
    app.log.debug(
      { file: config.admissionFile },
      'no admission calibration: new games are limited by the room ceiling only',
    );
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log: app.log });
  const games = new GameService({
    db: database.db,
    prepared: database.prepared,
    logPrepared: database.logPrepared,
    logWriters: database.logWriters,
    clock: options.clock ?? systemClock,
    retryClock: options.retryClock ?? systemClock,
    log: app.log,
    onRecorded: () => metrics.gameRecorded(),
    ...(options.seeds ? { seeds: options.seeds } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
    // Where games run: every node of a cluster owns some (leases in Redis, on the system clock), or one server all.
    ...(redis ? { ownership: redisOwnership({ redis, nodeId: config.nodeId, clock: systemClock, log: app.log }) } : {}),
    limits: {
      maxLiveRooms: options.ceilings?.maxLiveRooms ?? ABUSE_LIMITS.maxLiveRooms,
      gamesCreatedPerMinute: config.rateLimits ? ABUSE_LIMITS.gamesCreatedPerUserPerMinute : null,
    },
    budgets: counts.budgets,
    addressSecret: config.jwtSecret,
    headroom,
  });
  app.decorate('games', games);
  app.log.debug({ database: database.kind, mail: config.smtpUrl ? 'smtp' : 'dev outbox' }, 'storage ready');

  const auth = new AuthService({
    db: database.db,
    tokens: new SessionTokens(config.jwtSecret),
    mailer,
    config,
    onMailError: (err, mail) => app.log.error({ err, to: mail.to, subject: mail.subject }, 'mail not sent'),
    onBackgroundError: (err, task) => app.log.error({ err, task }, 'account task failed'),
    gameRecords: (userId) => gameRecordsFor(database.db, userId),
  });
  auth.beforeAccountDeletion((user) => games.removeUser(user));
  const limit = await installRateLimits(app, config.rateLimits, counts.httpLimits);

  app.get('/health', async (_request, reply) => {
    const databaseUp = await ping(database.db);
    return reply.code(databaseUp ? 200 : 503).send({
      ok: databaseUp,
      service: 'memeslam',
      database: database.kind,
      uptimeSeconds: Math.round(process.uptime()),
      // Cluster mode: without Redis this node runs the games it owns and refuses what needs another node.
      ...(redis ? { node: config.nodeId, redis: redis.up ? 'up' : 'down', degraded: !redis.up } : {}),
    });
  });
  registerAuthRoutes(app, auth, limit);
  registerGameRoutes(app, auth, games);
  registerStatsRoutes(app, auth, counts.presence);
  registerWalletRoutes(app, auth, config.jwtSecret, options.clock ?? systemClock, config.publicUrl);
  const tournaments = new TournamentService({
    db: database.db,
    clock: options.clock ?? systemClock,
    log: app.log,
    onPayout: (result) => metrics.payout(result),
  });
  app.decorate('tournaments', tournaments);
  registerTournamentRoutes(app, auth, tournaments);
  await tournaments.settle();
  // Play now: one queue for the cluster in its Redis (one node pairs at a time), or in process.
  const matchmaker = new Matchmaker({
    games,
    db: database.db,
    clock: options.clock ?? systemClock,
    log: app.log,
    budgets: config.rateLimits ? counts.budgets : null,
    nodeId: config.nodeId,
    ...(redis
      ? {
          store: new RedisQueueStore({
            redis: redis.commands,
            leases: redisLeases(redis),
            nodeId: config.nodeId,
            registry: { key: nodeRegistry(redis), ttlMs: NODE_TTL_MS },
          }),
        }
      : {}),
  });
  const io = attachGateway(app, auth, games, {
    rateLimits: config.rateLimits,
    metrics,
    trustProxy,
    allowedOrigins: config.allowedOrigins,
    transport: config.socketTransport,
    maxSockets: options.ceilings?.maxSockets ?? ABUSE_LIMITS.maxSockets,
    // A node hears only its rooms' broadcasts: sharded pub/sub, a channel per room (docs/cluster.md).
    ...(redis ? { adapter: shardedAdapter(redis) } : {}),
    userEvents: counts.budgets('socket-events', {
      capacity: ABUSE_LIMITS.userEventBurst,
      perSecond: RATE_LIMITS.socketEventsPerSecond,
    }),
    addresses: counts.addresses,
    presence: counts.presence,
    matchmaker,
  });
  metrics.live = {
    rooms: () => games.liveRoomCount(),
    sockets: () => io.of('/').sockets.size,
    held: () => ({ ...games.held(), socketIoRooms: io.of('/').adapter.rooms.size }),
    admission: () => headroom.state(games.liveRoomCount()),
  };
  // Prometheus figures for operators (format=json: the server benchmark's windows); loopback or METRICS_TOKEN.
  app.get('/metrics', async (request, reply) => {
    if (!mayReadMetrics(request.ip, request.headers.authorization, config.metricsToken)) {
      return reply.code(404).send({ success: false, message: resourceNotFoundText('/metrics') });
    }
    const query = request.query as { reset?: string; gc?: string; format?: string };
    if (query.format !== 'json') {
      const { contentType, text } = await metrics.prometheus();
      return reply.type(contentType).send(text);
    }
    // With --expose-gc (the benchmark starts the server so), heap figures are read after a collection.
    if (query.gc === '1') (globalThis as { gc?: () => void }).gc?.();
    const figures = metrics.read({ gameLog: games.logFigures(query.reset === '1') });
    if (query.reset === '1') metrics.reset();
    return figures;
  });
  if (redis) {
    // A node of a cluster takes over only games nobody owns; a live node's games stay its own.
    await games.joinCluster();
  } else {
    const recovered = await games.recover();
    if (recovered.restored + recovered.setAside > 0) app.log.info(recovered, 'game rooms rebuilt from their logs');
  }

  // Sockets go first, before the HTTP server waits for its connections (no new commands come in),
  // then the rooms' last snapshots and results are written, then storage closes.
  app.addHook('preClose', async () => {
    await matchmaker.close();
    games.stop();
    // This node's sockets only (with the Redis adapter, io.disconnectSockets would reach every node's).
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    metrics.close();
    tournaments.close();
    await auth.close();
    await games.close();
    await counts.close();
    mailer.close();
    await redis?.close();
    await database.close();
  });

  await serveWebApp(app, options.webRoot);

  return app;
}
