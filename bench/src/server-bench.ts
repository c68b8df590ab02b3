// npm run bench:server [-- --json --games 100,500,1000 --warmup 10 --seconds 20 --pace human|max --saturation]
//
// A real server process and this load process on loopback. Each live game seats two socket.io
// clients and two normal bots at normal speed; a client plays its next playable card about 2 s
// (±50%) after its previous play (DESIGN §7; `--pace max` plays as soon as its last ack is back) and
// uses each power-up once. Finished games are replaced, so N stays constant.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Card, matches } from '@memeslam/engine';
import { type Socket, io } from 'socket.io-client';
import { parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const steps = (args.get('games') ?? '100,500,1000').split(',').map(Number);
const warmupMs = Number(args.get('warmup') ?? '10') * 1000;
const measureMs = Number(args.get('seconds') ?? '20') * 1000;
const pace = args.get('pace') === 'max' ? 'max' : 'human';
const POWER_UPS = ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => 2000 * (0.5 + Math.random());

// ── the server ──
const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-bench-'));
const serverProcess = spawn(
  process.execPath,
  [
    '--expose-gc',
    // --profile DIR: a CPU profile of the server process, to see where its time goes under load.
    ...(args.has('profile')
      ? ['--cpu-prof', `--cpu-prof-dir=${args.get('profile') === 'true' ? '.tmp/profile' : args.get('profile')}`]
      : []),
    fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url)),
  ],
  {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMITS: 'off', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (match?.[1]) {
      serverProcess.stdout.off('data', onData);
      serverProcess.stdout.resume();
      resolve(match[1]);
    }
  };
  serverProcess.stdout.on('data', onData);
  serverProcess.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

async function metrics(query = '') {
  return (await (await fetch(`${base}/metrics${query}`)).json()) as {
    commands: { count: number; p50Ms: number; p99Ms: number; p999Ms: number };
    eventLoopDelayMs: { p50: number; p99: number; max: number };
    heapUsedBytes: number;
    cpuMicros: number;
    uptimeMs: number;
    rooms: number;
    sockets: number;
  };
}

// ── the players ──
const ackMs: number[] = [];
let playing = true;

class Player {
  readonly socket: Socket;
  hand: Card[] = [];
  tops: (Card | undefined)[] = [];
  powerUps: string[] = [...POWER_UPS];
  active = false;
  #timer: NodeJS.Timeout | null = null;
  onEnded: () => void = () => {};

  constructor(socket: Socket) {
    this.socket = socket;
    const readTops = (p: { gameState?: { discardPiles: Card[][] } }) => {
      if (p.gameState) this.tops = p.gameState.discardPiles.map((pile) => pile.at(-1));
    };
    socket.on('handDealt', (p: { hand: Card[] }) => (this.hand = p.hand));
    socket.on('handUpdated', (p: { hand: Card[] }) => (this.hand = p.hand));
    for (const event of ['cardPlayed', 'powerUpUsed', 'deadlockResolved']) socket.on(event, readTops);
    socket.on('gameStarted', (p: { gameState: { discardPiles: Card[][] } }) => {
      readTops(p);
      this.active = true;
      this.powerUps = [...POWER_UPS];
      this.#schedule();
    });
    socket.on('gameEnded', () => {
      this.active = false;
      if (this.#timer) clearTimeout(this.#timer);
      this.onEnded();
    });
  }

  #schedule(): void {
    if (!playing || !this.active) return;
    this.#timer = setTimeout(() => void this.#act(), pace === 'max' ? 0 : jitter());
  }

  async #act(): Promise<void> {
    if (!this.active || !playing) return;
    const start = performance.now();
    let move: { cardId: string; pileIndex: number } | null = null;
    for (const card of this.hand) {
      const pileIndex = this.tops.findIndex((top) => top && matches(card, top));
      if (pileIndex >= 0) {
        move = { cardId: card.id, pileIndex };
        break;
      }
    }
    if (move) {
      await this.socket
        .timeout(10_000)
        .emitWithAck('playCard', move)
        .catch(() => null);
      ackMs.push(performance.now() - start);
    } else if (this.powerUps.length > 0 && Math.random() < 0.3) {
      const type = this.powerUps.shift() as string;
      const target =
        type === 'SNIPER' && this.hand[0]
          ? { cardId: this.hand[0].id, pileIndex: 0 }
          : type === 'FREEZE'
            ? { targetPlayerId: 'bot-1' }
            : {};
      await this.socket
        .timeout(10_000)
        .emitWithAck('usePowerUp', { powerUpType: type, ...target })
        .catch(() => null);
    } else if (pace === 'max') {
      await sleep(100);
    }
    this.#schedule();
  }
}

async function newPlayer(): Promise<Player> {
  const session = (await (await fetch(`${base}/api/auth/demo`, { method: 'POST' })).json()) as {
    data: { token: string };
  };
  const socket = io(base, { auth: { token: session.data.token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return new Player(socket);
}

/** Two people and two normal bots; a new game as soon as one ends. */
class Table {
  readonly host: Player;
  readonly guest: Player;
  games = 0;

  constructor(host: Player, guest: Player) {
    this.host = host;
    this.guest = guest;
    host.onEnded = () =>
      setTimeout(() => {
        // Shutting down disconnects the sockets under a deal in progress: that is not a failure.
        this.deal().catch((error: unknown) => {
          if (playing) throw error;
        });
      }, 500);
  }

  async deal(): Promise<void> {
    if (!playing) return;
    const created = await this.host.socket.emitWithAck('createGame', {
      maxPlayers: 4,
      withBots: true,
      numberOfBots: 2,
      botDifficulty: 'normal',
      gameSpeed: 'normal',
    });
    if (!created.success) throw new Error(`createGame: ${created.error}`);
    await this.guest.socket.emitWithAck('joinGame', { roomCode: created.data.roomCode });
    await this.host.socket.emitWithAck('setPlayerReady', { isReady: true });
    await this.guest.socket.emitWithAck('setPlayerReady', { isReady: true });
    await this.host.socket.emitWithAck('startGame', {});
    this.games += 1;
  }
}

const tables: Table[] = [];
async function grow(to: number): Promise<void> {
  while (tables.length < to) {
    const batch = Math.min(50, to - tables.length);
    const made = await Promise.all(
      Array.from({ length: batch }, async () => new Table(await newPlayer(), await newPlayer())),
    );
    for (const table of made) {
      tables.push(table);
      await table.deal();
    }
  }
}

// ── measuring ──
// Heap of an idle signed-in socket first, so that a game's share can be told from its sockets'.
const IDLE = 200;
const bare = await metrics('?gc=1');
const idle = await Promise.all(Array.from({ length: IDLE }, () => newPlayer()));
const withIdle = await metrics('?gc=1');
const perSocketBytes = Math.max(0, (withIdle.heapUsedBytes - bare.heapUsedBytes) / IDLE);
idle.forEach((p) => p.socket.disconnect());
await sleep(500);
const baseline = await metrics('?gc=1');
const results: Record<string, unknown>[] = [];

async function measure(games: number) {
  await grow(games);
  await sleep(warmupMs);
  await metrics('?reset=1');
  ackMs.length = 0;
  const before = await metrics();
  const t0 = performance.now();
  await sleep(measureMs);
  const after = await metrics();
  const wallMs = performance.now() - t0;
  // The heap is read after a collection, which is itself a pause: outside the measured window.
  after.heapUsedBytes = (await metrics('?gc=1')).heapUsedBytes;
  const acks = [...ackMs].sort((a, b) => a - b);
  const heapDelta = after.heapUsedBytes - baseline.heapUsedBytes;
  const row = {
    games,
    rooms: after.rooms,
    sockets: after.sockets,
    plays: acks.length,
    ackMs: {
      p50: round(percentile(acks, 50), 2),
      p99: round(percentile(acks, 99), 2),
      p999: round(percentile(acks, 99.9), 2),
    },
    processingMsP99: round(after.commands.p99Ms, 3),
    eventLoopDelayMsP99: round(after.eventLoopDelayMs.p99, 2),
    serverCpuPercent: round(((after.cpuMicros - before.cpuMicros) / 1000 / wallMs) * 100, 1),
    // A live game's share of the heap, its two players' sockets included; and one idle socket's.
    heapPerGameKB: round(heapDelta / games / 1024, 1),
    heapPerSocketKB: round(perSocketBytes / 1024, 1),
  };
  results.push(row);
  if (!args.has('json')) console.error(`measured N=${games}: ${JSON.stringify(row)}`);
  return row;
}

for (const games of steps) await measure(games);

let saturation: number | null = null;
if (args.has('saturation')) {
  for (let games = (steps.at(-1) ?? 1000) + 250; games <= 4000; games += 250) {
    const row = await measure(games);
    if ((row.ackMs.p99 as number) > 50) {
      saturation = games;
      break;
    }
  }
}

playing = false;
for (const table of tables) {
  table.host.socket.disconnect();
  table.guest.socket.disconnect();
}
serverProcess.kill('SIGTERM');
await new Promise((resolve) => serverProcess.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });

const report = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  pace,
  warmupSeconds: warmupMs / 1000,
  measureSeconds: measureMs / 1000,
  results,
  saturationGames: saturation,
};
if (args.has('json')) {
  console.log(JSON.stringify(report));
} else {
  console.log(
    `server benchmark, ${report.date}, Node ${report.node}, pace ${pace}, ${report.measureSeconds} s windows after ${report.warmupSeconds} s warm-up`,
  );
  console.log(
    '| live games | sockets | plays | ack p50 / p99 / p99.9 ms | processing p99 ms | loop delay p99 ms | server CPU % | heap/game KB (with its 2 sockets) | heap/idle socket KB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results as {
    games: number;
    sockets: number;
    plays: number;
    ackMs: { p50: number; p99: number; p999: number };
    processingMsP99: number;
    eventLoopDelayMsP99: number;
    serverCpuPercent: number;
    heapPerGameKB: number;
    heapPerSocketKB: number;
  }[]) {
    console.log(
      `| ${r.games} | ${r.sockets} | ${r.plays} | ${r.ackMs.p50} / ${r.ackMs.p99} / ${r.ackMs.p999} | ${r.processingMsP99} | ${r.eventLoopDelayMsP99} | ${r.serverCpuPercent} | ${r.heapPerGameKB} | ${r.heapPerSocketKB} |`,
    );
  }
  if (args.has('saturation')) console.log(`saturation (ack p99 > 50 ms): ${saturation ?? 'not reached by 4000 games'}`);
}
