// node bench/src/floor-server.ts --bot-events R [--durable] [--database-url URL]
//   (bench:server and bench:cluster --scale --floor start it; it prints its address)
//
// The floor of bench:server: the simplest server that carries the same traffic as the real one, with
// no game logic and no database. With --durable (bench:server --floor durable), the simplest one that
// also makes every command durable before answering it, as the real server does: each play, power-up
// and bot play goes into a log in an embedded PostgreSQL, group-committed, and its ack and broadcasts
// leave once its batch is committed (floor-log.ts).
//
// It speaks just enough of the protocol for the load's players (load-players.ts): a demo session,
// createGame, joinGame, setPlayerReady and startGame answered; a hand of three cards that all fit the
// piles; each play or power-up acknowledged (at once, or once durable), broadcast to every seat and,
// for a play, answered with the player's new hand; R bot plays per game and second (bench:server
// measures the real server's rate and passes it) broadcast to every seat; a game ends once one of its
// players has played all 30 cards. The payloads are the real events' shapes, built once from an engine
// deal, so a floor event weighs about what a real one does. Its event loop's delay is measured as the
// server measures its own (metrics.ts): `GET /metrics?format=json` gives it for the window since the
// last `&reset=1`, so the loop-delay target too can be held against the floor; beside it the figures
// bench:cluster reads of a node (its CPU, RSS, rooms and sockets). With --database-url (bench:cluster's
// floor nodes) the durable log is a table in that PostgreSQL rather than an embedded one, and
// `GET /health` answers as a node's does, for nginx in front of it.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Card, VISIBLE_PILE_CARDS, createGame, publicView } from '@memeslam/engine';
import { Server, type Socket } from 'socket.io';
import { type FloorLog, openFloorLog } from './floor-log.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
/** Bot plays per game per second, broadcast to the room. */
const botEventsPerSecond = option('bot-events', 1);
const CARDS_PER_PLAYER = 30;
const at = argv.indexOf('--database-url');
const databaseUrl = at >= 0 ? argv[at + 1] : undefined;
/** --durable: the log every command is committed to before it is answered; null: answered at once. */
const log: FloorLog | null = argv.includes('--durable') || databaseUrl ? await openFloorLog(databaseUrl) : null;
/** Runs `then` once the command is durable (at once without --durable). */
const durably = (gameId: string, command: object, then: () => void): void => {
  if (log) log.append(gameId, command, then);
  else then();
};

// One deal of the real engine gives the payloads their shape: four seats, two of them bots.
const seats = ['host', 'guest', 'bot-1', 'bot-2'].map((id) => ({
  id,
  username: id,
  bot: id.startsWith('bot') ? ('normal' as const) : null,
}));
const dealt = createGame({
  seed: '0'.repeat(32),
  seats,
  cardsPerPlayer: CARDS_PER_PLAYER,
  speed: 'normal',
  startAt: 0,
});
const gameState = { ...publicView(dealt), canPlay: true };
const top = dealt.piles[0]?.at(-1) as Card;
/** Cards that fit pile 0 whatever is played on it: each has the top card's color. */
const hand: Card[] = [0, 1, 2].map((n) => ({ ...top, id: `${top.id}-${n}` }));
/** Each pile as a view in play shows it: its top VISIBLE_PILE_CARDS cards (a fresh deal's piles hold one). */
const piles = gameState.discardPiles.map(() => new Array<Card>(VISIBLE_PILE_CARDS).fill(top));
const cardPlayed = (playerId: string, card: Card) => ({
  playerId,
  username: playerId,
  cardId: card.id,
  card,
  pileIndex: 0,
  isBot: playerId.startsWith('bot'),
  difficulty: null,
  gameState: { ...gameState, discardPiles: piles },
});

interface Room {
  readonly code: string;
  /** The game's id in the durable floor's log: a room code may come again in a long run, this may not. */
  readonly gameId: string;
  readonly plays: Map<string, number>;
  timer: NodeJS.Timeout | null;
}
const rooms = new Map<string, Room>();
const roomOf = new Map<string, Room>();

/** As the server's metrics.ts: the loop sampled every 5 ms, whole intervals recorded, the excess the delay. */
const LOOP_RESOLUTION_MS = 5;
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loop.enable();
const delay = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - LOOP_RESOLUTION_MS);

const http = createServer((req, res) => {
  if (req.method === 'GET' && req.url?.startsWith('/metrics?format=json')) {
    const eventLoopDelayMs = { p50: delay(loop.percentile(50)), p99: delay(loop.percentile(99)), max: delay(loop.max) };
    if (req.url.includes('reset=1')) loop.reset();
    void (log ? log.figures() : Promise.resolve(null)).then((durable) => {
      const { user, system } = process.cpuUsage();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          eventLoopDelayMs,
          durable,
          cpuMicros: user + system,
          rssBytes: process.memoryUsage.rss(),
          rooms: rooms.size,
          sockets: io.of('/').sockets.size,
          // Not timed here: an ack's time is the load's measure.
          commands: { count: 0, p50Ms: 0, p99Ms: 0, p999Ms: 0 },
        }),
      );
    });
    return;
  }
  if (req.method === 'GET' && req.url === '/health') {
    // The id nginx gave the request, echoed as the server does (bench:cluster finds the node by it).
    const id = req.headers['x-request-id'];
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(typeof id === 'string' ? { 'x-request-id': id } : {}),
    });
    res.end(JSON.stringify({ status: 'ok' }));
    return;
  }
  if (req.method === 'POST' && req.url === '/api/auth/demo') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { token: randomUUID() } }));
    return;
  }
  res.writeHead(404).end();
});
const io = new Server(http, { transports: ['websocket', 'polling'], serveClient: false });

function endGame(room: Room): void {
  if (room.timer) clearTimeout(room.timer);
  room.timer = null;
  rooms.delete(room.code);
  log?.forget(room.gameId);
  io.to(room.code).emit('gameEnded', { roomCode: room.code, winner: null });
}

/** Bot plays at the measured rate, spaced at random (exponential gaps: a Poisson stream). */
function scheduleBot(room: Room): void {
  if (botEventsPerSecond <= 0) return;
  const gapMs = (-Math.log(1 - Math.random()) / botEventsPerSecond) * 1000;
  room.timer = setTimeout(() => {
    if (!rooms.has(room.code)) return;
    durably(room.gameId, { type: 'playCard', playerId: 'bot-1', cardId: top.id, pileIndex: 0 }, () =>
      io.to(room.code).emit('cardPlayed', cardPlayed('bot-1', top)),
    );
    scheduleBot(room);
  }, gapMs);
}

type Ack = (answer: unknown) => void;
const ok = (data: object = {}) => ({ success: true, data });

io.on('connection', (socket: Socket) => {
  socket.on('createGame', (_payload: unknown, ack: Ack) => {
    const gameId = randomUUID();
    const room: Room = { code: gameId.slice(0, 6).toUpperCase(), gameId, plays: new Map(), timer: null };
    rooms.set(room.code, room);
    roomOf.set(socket.id, room);
    void socket.join(room.code);
    ack(ok({ roomCode: room.code, gameId: room.code }));
  });
  socket.on('joinGame', (payload: { roomCode: string }, ack: Ack) => {
    const room = rooms.get(payload.roomCode);
    if (!room) return ack({ success: false, error: 'Game not found' });
    roomOf.set(socket.id, room);
    void socket.join(room.code);
    ack(ok({ roomCode: room.code }));
  });
  socket.on('setPlayerReady', (_payload: unknown, ack: Ack) => ack(ok()));
  socket.on('startGame', (_payload: unknown, ack: Ack) => {
    const room = roomOf.get(socket.id);
    if (!room) return ack({ success: false, error: 'Game not found' });
    ack(ok({ status: 'active' }));
    for (const id of io.sockets.adapter.rooms.get(room.code) ?? []) io.to(id).emit('handDealt', { hand });
    io.to(room.code).emit('gameStarted', { roomCode: room.code, gameState });
    scheduleBot(room);
  });
  socket.on('playCard', (payload: { cardId: string }, ack: Ack) => {
    const room = roomOf.get(socket.id);
    if (!room || !rooms.has(room.code)) return ack({ success: false, error: 'Game not active' });
    const card = hand.find((c) => c.id === payload.cardId) ?? top;
    durably(room.gameId, { type: 'playCard', playerId: socket.id, cardId: card.id, pileIndex: 0 }, () => {
      ack(ok());
      io.to(room.code).emit('cardPlayed', cardPlayed(socket.id, card));
      socket.emit('handUpdated', { hand });
      const plays = (room.plays.get(socket.id) ?? 0) + 1;
      room.plays.set(socket.id, plays);
      // A play that waited for its commit may land after the game ended: it does not end it again.
      if (plays >= CARDS_PER_PLAYER && rooms.has(room.code)) endGame(room);
    });
  });
  socket.on('usePowerUp', (payload: { powerUpType: string }, ack: Ack) => {
    const room = roomOf.get(socket.id);
    if (!room || !rooms.has(room.code)) return ack({ success: false, error: 'Game not active' });
    durably(room.gameId, { type: 'usePowerUp', playerId: socket.id, powerUpType: payload.powerUpType }, () => {
      ack(ok());
      io.to(room.code).emit('powerUpUsed', { playerId: socket.id, powerUpType: payload.powerUpType, gameState });
    });
  });
  socket.on('disconnect', () => roomOf.delete(socket.id));
});

// On PORT when given (a cluster node's, where nginx points), else any free port.
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`floor served on http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => {
  void io.close();
  http.close(() => {
    void (log?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  });
});
