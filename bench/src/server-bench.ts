// npm run bench:server [-- --json --modes embedded,external --games 500,1000,2000 --warmup 10 --seconds 20
//                         --pace human|max --saturation --no-floor --floor bare|durable --profile [DIR]
//                         --gc --oncpu
//                         --node-flags " --flag …"]
// npm run bench:server -- --calibrate | --overload: admission control (admission-bench.ts).
// BENCH_SERVER_STDOUT=FILE keeps the server's standard output (with --gc or --node-flags " --trace-gc", its GC log).
//
// A real server process and this load process on loopback. Each live game seats two socket.io
// clients and two normal bots at normal speed; a client plays its next playable card about 2 s
// (±50%) after its previous play (the standard load; `--pace max` plays as soon as its last ack is back) and
// uses each power-up once. Finished games are replaced, so N stays constant. Every ack is durable
// (the server answers once the command's log entry is written). Each mode gets a fresh server:
// embedded (the PostgreSQL the server starts under a temporary DATA_DIR, as `npm start` does; its
// processes' CPU and memory are reported beside the server's) and external (a database made for the
// run on DATABASE_URL's server, dropped after; skipped, loudly, when DATABASE_URL is unset; that
// server's own CPU is not counted).
//
// Then the floor (floor-server.ts), under the same load process, at each step: the simplest server
// that carries the same traffic (each command answered, each event sent to every seat, as many bot
// plays per game and second as the first mode's server sent) with no game logic and no database;
// `--floor durable`: the same, each command answered and sent only once committed to a log in an
// embedded PostgreSQL of the floor's own (floor-log.ts), whose processes' CPU is then the floor's too.
// Each row is also given as ratios to the floor's at the same step: ack p99 and p99.9, CPU per play
// (the server's with its database's processes against the floor's) and memory.
//
// The load shares the machine's cores with the server, so every row (the floor's too) says how long the
// server's main thread was ready to run but had no core, and how long some task on the machine waited
// for one (process-figures.ts): a tail that comes with a long wait is the machine's crowding as much as
// the server's work.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runAdmission } from './admission-bench.ts';
import { databaseFigures, perPlay } from './database-figures.ts';
import { gcFigures } from './gc-windows.ts';
import { checkPerf, recordWindow } from './on-cpu.ts';
import { Table, load, newPlayer, demoToken } from './load-players.ts';
import {
  contentionFrom,
  cpuSeconds,
  cpuSecondsBetween,
  cpuTicks,
  descendants,
  pssMB,
  rssMB,
} from './process-figures.ts';
import {
  type ServerProcess,
  floorBotEvents,
  floorScript,
  metrics as serverMetrics,
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
} from './server-process.ts';
import { type FloorRow, type Row, type ServerReport, printReport } from './server-report.ts';
import { parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
// Admission control's calibration and overload runs (admission-bench.ts) share the load, not these steps.
if (args.has('calibrate') || args.has('overload')) {
  await runAdmission(args);
  process.exit(0);
}
const steps = (args.get('games') ?? '500,1000,2000').split(',').map(Number);
const modes = (args.get('modes') ?? 'embedded,external').split(',') as ('embedded' | 'external')[];
const warmupMs = Number(args.get('warmup') ?? '10') * 1000;
const measureMs = Number(args.get('seconds') ?? '20') * 1000;
const pace = args.get('pace') === 'max' ? 'max' : 'human';
/** --floor durable: the floor commits every command to its own embedded PostgreSQL before answering. */
const floorKind = args.get('floor') ?? 'bare';
if (floorKind !== 'bare' && floorKind !== 'durable') throw new Error(`--floor is bare or durable, not ${floorKind}`);
const durableFloor = floorKind === 'durable';
load.pace = pace;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── the server ──
let serverProcess: ServerProcess;
let base = '';
/** --gc: the server's --trace-gc-nvp output, and when it started (performance.now()). */
const gcLog = args.has('gc') ? join(mkdtempSync(join(tmpdir(), 'memeslam-gc-')), 'server.out') : null;
let serverStartedAt = 0;
/** Acks slower than this are "slow" in the --gc figures. */
const SLOW_ACK_MS = 50;

/**
 * --profile DIR: a CPU profile of the server process, and one of the floor's, to see where each one's
 * time goes under the same load.
 */
const profileFlags = args.has('profile')
  ? ['--cpu-prof', `--cpu-prof-dir=${args.get('profile') === 'true' ? '.tmp/profile' : args.get('profile')}`]
  : [];

async function startServer(env: Record<string, string>): Promise<void> {
  serverStartedAt = performance.now();
  serverProcess = await startServerProcess({
    env,
    nodeFlags: [
      // --node-flags "…": V8 and Node flags for the server process (e.g. "--trace-gc"), to try settings.
      ...(args.get('node-flags')?.split(' ').filter(Boolean) ?? []),
      // --gc: where the slow acks fall against the server's old-generation collections (gc-windows.ts).
      ...(gcLog ? ['--trace-gc-nvp'] : []),
      ...profileFlags,
    ],
    ...(gcLog || process.env.BENCH_SERVER_STDOUT
      ? { stdoutFile: gcLog ?? (process.env.BENCH_SERVER_STDOUT as string) }
      : {}),
  });
  base = load.base = serverProcess.base;
}

const metrics = (query = '') => serverMetrics(base, query);

/** --oncpu: perf records each measured window (on-cpu.ts), into this folder. */
const onCpuDir = args.has('oncpu') ? (checkPerf(), mkdtempSync(join(tmpdir(), 'memeslam-oncpu-'))) : null;

const onCpuWindow = (label: string) => (onCpuDir ? recordWindow(onCpuDir, label, measureMs / 1000) : null);

// ── measuring ──
const floors: FloorRow[] = [];
const tables: Table[] = [];
const reports: ServerReport['modes'] = [];

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

const loadLoopDelay = monitorEventLoopDelay({ resolution: 10 });
loadLoopDelay.enable();
const loadLoopDelayMsP99 = () => round(loadLoopDelay.percentile(99) / 1e6, 2);

/** Starts a measured window: the load's figures from zero. */
function startWindow(): void {
  loadLoopDelay.reset();
  load.ackTimes = gcLog ? [] : null;
  load.ackMs.length = 0;
  load.unanswered = 0;
  load.received = { packets: 0, bytes: 0 };
}

const ackFigures = (sorted: readonly number[]) => ({
  p50: round(percentile(sorted, 50), 2),
  p99: round(percentile(sorted, 99), 2),
  p999: round(percentile(sorted, 99.9), 2),
});

/** What the window's sockets received: packets per socket per second, and their mean size. */
function windowTraffic(games: number, wallMs: number) {
  return {
    packetsPerSocketPerSecond: round(load.received.packets / (2 * games) / (wallMs / 1000), 2),
    bytesPerPacket: round(load.received.bytes / Math.max(1, load.received.packets), 0),
  };
}

function dropTables(): void {
  for (const table of tables) {
    table.host.socket.disconnect();
    table.guest.socket.disconnect();
  }
  tables.length = 0;
}

/** The floor at `games` live games, sending as many packets per socket as the real server did in `like`. */
async function runFloor(games: number, like: Row): Promise<void> {
  const botPlays = floorBotEvents(like.packetsPerSocketPerSecond, like.plays / (2 * games) / (measureMs / 1000));
  serverProcess = await startServerProcess({
    env: {},
    script: floorScript,
    args: ['--bot-events', String(botPlays), ...(durableFloor ? ['--durable'] : [])],
    nodeFlags: profileFlags,
  });
  base = load.base = serverProcess.base;
  load.playing = true;
  try {
    await grow(games);
    await sleep(warmupMs);
    const logAtStart = (await metrics('?reset=1')).durable;
    startWindow();
    const pid = serverProcess.child.pid as number;
    const cpu0 = cpuSeconds([pid]);
    // A durable floor's PostgreSQL: its processes are the floor's children, as the server's are its.
    const databaseTicks = cpuTicks(descendants(pid));
    const contention = contentionFrom(pid);
    const onCpu = onCpuWindow(`floor-${games}`);
    const t0 = performance.now();
    await sleep(measureMs);
    const { eventLoopDelayMs, durable } = await metrics();
    const wallMs = performance.now() - t0;
    const databaseCpuUsed = cpuSecondsBetween(databaseTicks, cpuTicks(descendants(pid)));
    const cpuUsed = cpuSeconds([pid]) - cpu0 + databaseCpuUsed;
    const floorContention = contention();
    const acks = [...load.ackMs].sort((a, b) => a - b);
    const row: FloorRow = {
      games,
      plays: acks.length,
      unanswered: load.unanswered,
      ackMs: ackFigures(acks),
      loadLoopDelayMsP99: loadLoopDelayMsP99(),
      ...windowTraffic(games, wallMs),
      eventLoopDelayMsP99: round(eventLoopDelayMs.p99, 2),
      eventLoopDelayMsMax: round(eventLoopDelayMs.max, 1),
      cpuPercent: round((cpuUsed / (wallMs / 1000)) * 100, 1),
      contention: floorContention,
      cpuMsPerPlay: round((cpuUsed * 1000) / Math.max(1, acks.length), 3),
      rssMB: round(rssMB(pid), 0),
      botPlaysPerGamePerSecond: botPlays,
      ...(durable && logAtStart
        ? {
            databaseCpuPercent: round((databaseCpuUsed / (wallMs / 1000)) * 100, 1),
            stepsPerWrite: round(
              (durable.committed - logAtStart.committed) / Math.max(1, durable.batches - logAtStart.batches),
              1,
            ),
          }
        : {}),
    };
    // Read last: perf's script of the window takes seconds, all after the window.
    if (onCpu) row.onCpu = await onCpu.read({ server: pid, load: process.pid, database: new Set(descendants(pid)) });
    floors.push(row);
    if (!args.has('json')) console.error(`floor N=${games}: ${JSON.stringify(row)}`);
  } finally {
    load.playing = false;
    dropTables();
    await stopServerProcess(serverProcess);
  }
}

async function runMode(mode: 'embedded' | 'external'): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-bench-'));
  const scratch = mode === 'external' ? await scratchDatabase() : null;
  await startServer({ DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  load.playing = true;
  // Heap of an idle signed-in socket first, so that a game's share can be told from its sockets'.
  // A first round warms up (code compiled on first use is not a socket's), and the sessions are made
  // before the baseline: what is counted is the sockets alone.
  const IDLE = 200;
  const warm = await Promise.all(Array.from({ length: 50 }, () => newPlayer()));
  warm.forEach((p) => p.socket.disconnect());
  const tokens = await Promise.all(Array.from({ length: IDLE }, () => demoToken()));
  await sleep(500);
  const bare = await metrics('?gc=1');
  const idle = await Promise.all(tokens.map((token) => newPlayer(token)));
  const withIdle = await metrics('?gc=1');
  const perSocketBytes = Math.max(0, (withIdle.heapUsedBytes - bare.heapUsedBytes) / IDLE);
  idle.forEach((p) => p.socket.disconnect());
  await sleep(500);
  const baseline = await metrics('?gc=1');
  const results: Row[] = [];
  const notSustained: number[] = [];

  async function measure(games: number): Promise<Row> {
    await grow(games);
    await sleep(warmupMs);
    await metrics('?reset=1');
    startWindow();
    // A mark for diagnostics that watch this output (a profiler to start with the window).
    if (!args.has('json')) console.error(`${mode} N=${games}: window of ${measureMs / 1000} s starts`);
    const before = await metrics();
    const databaseBefore = scratch ? await databaseFigures(scratch) : null;
    const loadCpu = process.cpuUsage();
    const serverPid = serverProcess.child.pid as number;
    const databaseTicks = cpuTicks(mode === 'embedded' ? descendants(serverPid) : []);
    const contention = contentionFrom(serverPid);
    const databaseAtStart = mode === 'embedded' ? descendants(serverPid) : [];
    const onCpu = onCpuWindow(`${mode}-${games}`);
    const t0 = performance.now();
    await sleep(measureMs);
    const after = await metrics();
    const databaseAfter = scratch ? await databaseFigures(scratch) : null;
    const wallMs = performance.now() - t0;
    const windowContention = contention();
    const gc =
      gcLog && load.ackTimes
        ? gcFigures(
            readFileSync(gcLog, 'utf8'),
            serverStartedAt,
            load.ackTimes,
            { from: t0, to: t0 + wallMs },
            SLOW_ACK_MS,
            load.ackMs.length,
          )
        : null;
    const databaseCpuUsed = cpuSecondsBetween(
      databaseTicks,
      cpuTicks(mode === 'embedded' ? descendants(serverPid) : []),
    );
    const databaseMB = mode === 'embedded' ? pssMB(descendants(serverPid)) : null;
    const loadCpuUsed = process.cpuUsage(loadCpu);
    // The heap is read after a collection, which is itself a pause: outside the measured window (and
    // after perf's recording of it, which ends a little later).
    await onCpu?.recorded;
    after.heapUsedBytes = (await metrics('?gc=1')).heapUsedBytes;
    const acks = [...load.ackMs].sort((a, b) => a - b);
    const traffic = windowTraffic(games, wallMs);
    const cpuMsUsed = (after.cpuMicros - before.cpuMicros) / 1000 + databaseCpuUsed * 1000;
    const heapDelta = after.heapUsedBytes - baseline.heapUsedBytes;
    const row: Row = {
      games,
      sockets: after.sockets,
      rooms: after.rooms,
      plays: acks.length,
      unanswered: load.unanswered,
      ackMs: ackFigures(acks),
      processingMsP99: round(after.commands.p99Ms, 3),
      eventLoopDelayMsP99: round(after.eventLoopDelayMs.p99, 2),
      serverCpuPercent: round(((after.cpuMicros - before.cpuMicros) / 1000 / wallMs) * 100, 1),
      loadCpuPercent: round(((loadCpuUsed.user + loadCpuUsed.system) / 1000 / wallMs) * 100, 1),
      loadLoopDelayMsP99: loadLoopDelayMsP99(),
      rssMB: round(after.rssBytes / 2 ** 20, 0),
      databaseCpuPercent: mode === 'embedded' ? round((databaseCpuUsed / (wallMs / 1000)) * 100, 1) : null,
      databaseMB: databaseMB === null ? null : round(databaseMB, 0),
      // Group commit: room steps per database write; p99 of a step's wait until durable and of a write.
      stepsPerWrite: round(
        (after.gameLog.steps - before.gameLog.steps) / Math.max(1, after.gameLog.batches - before.gameLog.batches),
        1,
      ),
      queuedMsP99: after.gameLog.queuedMs.p99,
      durableWaitMsP99: after.gameLog.durableWaitMs.p99,
      writeMsP99: after.gameLog.writeMs.p99,
      writeMsMax: after.gameLog.writeMs.max,
      recordMsP99: after.gameLog.recordMs.p99,
      records: after.gameLog.recordMs.count,
      eventLoopDelayMsMax: round(after.eventLoopDelayMs.max, 1),
      // A live game's share of the heap, its two players' sockets included; and one idle socket's.
      heapPerGameKB: round(heapDelta / games / 1024, 1),
      heapPerSocketKB: round(perSocketBytes / 1024, 1),
      failedDeals: load.failedDeals,
      ...traffic,
      cpuMsPerPlay: round(cpuMsUsed / Math.max(1, acks.length), 3),
      // Everything the players' sockets received, over the plays acknowledged.
      wireBytesPerPlay: round(load.received.bytes / Math.max(1, acks.length), 0),
      ...(databaseBefore && databaseAfter
        ? { database: perPlay(databaseBefore, databaseAfter, Math.max(1, acks.length)) }
        : {}),
      contention: windowContention,
      ...(gc ? { gc } : {}),
    };
    // Read last: perf's script of the window takes seconds, all after the window.
    if (onCpu)
      row.onCpu = await onCpu.read({
        server: serverPid,
        load: process.pid,
        database: new Set([...databaseAtStart, ...(mode === 'embedded' ? descendants(serverPid) : [])]),
      });
    results.push(row);
    if (!args.has('json')) console.error(`${mode} N=${games}: ${JSON.stringify(row)}`);
    return row;
  }

  for (const games of steps) {
    try {
      await measure(games);
    } catch (error) {
      // The server could not seat this many games: say so and stop this mode.
      console.error(`${mode} N=${games}: not sustained (${(error as Error).message})`);
      notSustained.push(games);
      break;
    }
  }
  let saturation: number | null = null;
  if (args.has('saturation')) {
    for (let games = (steps.at(-1) ?? 1000) + 250; games <= 4000; games += 250) {
      const row = await measure(games);
      if (row.ackMs.p99 > 50) {
        saturation = games;
        break;
      }
    }
  }

  load.playing = false;
  dropTables();
  await stopServerProcess(serverProcess);
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
  reports.push({ mode, results, notSustained, saturationGames: saturation });
}

for (const mode of modes) {
  if (mode === 'external' && !process.env.DATABASE_URL) {
    console.error('\n*** SKIPPED: the external mode (DATABASE_URL is unset) ***\n');
    continue;
  }
  await runMode(mode);
}
// The floor, at each step the first mode measured, with that mode's traffic.
const first = reports[0]?.results ?? [];
if (!args.has('no-floor')) for (const row of first) await runFloor(row.games, row);
if (gcLog) rmSync(dirname(gcLog), { recursive: true, force: true });
if (onCpuDir) rmSync(onCpuDir, { recursive: true, force: true });

const report: ServerReport = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  pace,
  warmupSeconds: warmupMs / 1000,
  measureSeconds: measureMs / 1000,
  modes: reports,
  floor: floors,
  /** Each row's figures over the floor's at the same step. */
  ratios: reports.map(({ mode, results }) => ({
    mode,
    rows: results.flatMap((r) => {
      const f = floors.find((x) => x.games === r.games);
      if (!f) return [];
      const over = (a: number, b: number) => round(a / b, 1);
      return [
        {
          games: r.games,
          ackP99: over(r.ackMs.p99, f.ackMs.p99),
          ackP999: over(r.ackMs.p999, f.ackMs.p999),
          // A loop whose delay stayed under the histogram's resolution reads 0: no ratio then.
          loopDelayP99: f.eventLoopDelayMsP99 > 0 ? over(r.eventLoopDelayMsP99, f.eventLoopDelayMsP99) : null,
          cpuPerPlay: over(r.cpuMsPerPlay, f.cpuMsPerPlay),
          memory: over(r.rssMB + (r.databaseMB ?? 0), f.rssMB),
        },
      ];
    }),
  })),
};
if (args.has('json')) console.log(JSON.stringify(report));
else printReport(report, { saturation: args.has('saturation'), slowAckMs: SLOW_ACK_MS });
