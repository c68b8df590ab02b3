// npm run bench:server -- --calibrate [--games 1000,1500,2000,2500 --target-p99 50 --out data/admission.json]
// npm run bench:server -- --overload [--admission data/admission.json] [--seconds 20 --warmup 10]
//
// Admission control's two runs (apps/server/src/games/headroom.ts, docs/capacity.md), with the server
// benchmark's load (load-players.ts) against a server started as `npm start` starts it:
//
// --calibrate steps the load up and takes the largest step whose ack p99 (as the players measure it)
// is within the target. The limits written for the server are that step's rooms and, for each
// headroom signal, the worst 2 s window the server reported at that step (GET /metrics, sampled each
// window) with a margin: a node refuses new games past the load it was measured to carry.
//
// --overload offers 1.5× the admitted games to a server with those limits: first the admitted number
// of tables, measured; then half as many again, whose starts are refused and asked again after
// ADMISSION_RETRY_MS, as the web app does. It prints the games in play's ack p99 against the admitted
// level's (target ≤ 1.5×), every refusal's round trip (target ≤ 100 ms) and code, and whether any game
// in play was dropped (a play unanswered, a deal failed).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Table, load, newPlayer } from './load-players.ts';
import { type ServerProcess, metrics, startServerProcess, stopServerProcess } from './server-process.ts';
import { percentile, round } from './stats.ts';

/** A window's signal may reach this much over the worst window at the admitted step before a node refuses. */
const SIGNAL_MARGIN = 1.25;
/** How often the server's 2 s signal windows are sampled (each is read at least once). */
const SAMPLE_MS = 1000;

interface Signals {
  loopDelayP99Ms: number;
  ackP99Ms: number;
  cpuShare: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runAdmission(args: Map<string, string>): Promise<void> {
  const warmupMs = Number(args.get('warmup') ?? '10') * 1000;
  const measureMs = Number(args.get('seconds') ?? '20') * 1000;
  const json = args.has('json');
  const say = (line: string) => {
    if (!json) console.error(line);
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-admission-'));
  const tables: Table[] = [];
  let server: ServerProcess | null = null;

  const start = async (admissionFile: string) => {
    server = await startServerProcess({ env: { DATA_DIR: dataDir, ADMISSION_FILE: admissionFile } });
    load.base = server.base;
    load.playing = true;
  };
  const grow = async (to: number) => {
    while (tables.length < to) {
      const batch = Math.min(50, to - tables.length);
      const made = await Promise.all(
        Array.from({ length: batch }, async () => new Table(await newPlayer(), await newPlayer())),
      );
      tables.push(...made);
      // A refused table waits in line (Table.deal): the others are dealt meanwhile.
      for (const table of made) void table.deal().catch(() => (load.failedDeals += 1));
    }
  };
  /** One measured window: the players' acks, the refusals, and the server's worst 2 s signals. */
  const window = async () => {
    load.ackMs.length = 0;
    load.refusals.length = 0;
    load.otherRefusals = 0;
    load.unanswered = 0;
    const base = load.base;
    const worst: Signals = { loopDelayP99Ms: 0, ackP99Ms: 0, cpuShare: 0 };
    let rooms = 0;
    const until = performance.now() + measureMs;
    while (performance.now() < until) {
      await sleep(SAMPLE_MS);
      const figures = (await metrics(base)) as Awaited<ReturnType<typeof metrics>> & {
        admission: { signals: Signals };
      };
      for (const key of Object.keys(worst) as (keyof Signals)[]) {
        worst[key] = Math.max(worst[key], figures.admission.signals[key]);
      }
      rooms = Math.max(rooms, figures.rooms);
    }
    const acks = [...load.ackMs].sort((a, b) => a - b);
    const refusals = [...load.refusals].sort((a, b) => a - b);
    return {
      plays: acks.length,
      ackP99Ms: round(percentile(acks, 99), 2),
      ackP999Ms: round(percentile(acks, 99.9), 2),
      rooms,
      worst,
      refused: refusals.length,
      refusalMaxMs: refusals.length === 0 ? null : round(refusals.at(-1) as number, 1),
      refusalP99Ms: refusals.length === 0 ? null : round(percentile(refusals, 99), 1),
      otherRefusals: load.otherRefusals,
      unanswered: load.unanswered,
      failedDeals: load.failedDeals,
    };
  };
  const stop = async () => {
    load.playing = false;
    for (const table of tables.splice(0)) {
      table.host.socket.disconnect();
      table.guest.socket.disconnect();
    }
    if (server) await stopServerProcess(server);
    server = null;
  };

  try {
    if (args.has('calibrate')) {
      const steps = (args.get('games') ?? '1000,1500,2000,2500').split(',').map(Number);
      const targetMs = Number(args.get('target-p99') ?? '50');
      const out = resolve(args.get('out') ?? 'data/admission.json');
      // Uncalibrated while it is measured: no admission file.
      await start(join(dataDir, 'none.json'));
      const rows = [];
      for (const games of steps) {
        await grow(games);
        await sleep(warmupMs);
        const row = { games, ...(await window()) };
        rows.push(row);
        say(`calibrate N=${games}: ${JSON.stringify(row)}`);
        if (row.ackP99Ms > targetMs) break;
      }
      const admitted = rows.filter((r) => r.ackP99Ms <= targetMs).at(-1);
      if (!admitted) throw new Error(`no step kept ack p99 within ${targetMs} ms: calibrate from fewer games`);
      const limits = {
        rooms: admitted.rooms,
        loopDelayP99Ms: round(Math.max(admitted.worst.loopDelayP99Ms, 1) * SIGNAL_MARGIN, 1),
        ackP99Ms: round(Math.max(admitted.worst.ackP99Ms, 1) * SIGNAL_MARGIN, 1),
        cpuShare: round(Math.max(admitted.worst.cpuShare, 0.05) * SIGNAL_MARGIN, 2),
        calibratedWith:
          `npm run bench:server -- --calibrate --games ${steps.join(',')} --target-p99 ${targetMs}: ` +
          `${admitted.games} games at ack p99 ${admitted.ackP99Ms} ms`,
      };
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(limits, null, 2)}\n`);
      say(`admission limits written to ${out}: ${JSON.stringify(limits)}`);
      if (json) console.log(JSON.stringify({ rows, limits }));
      return;
    }

    const file = resolve(args.get('admission') ?? 'data/admission.json');
    const limits = JSON.parse(readFileSync(file, 'utf8')) as { rooms: number };
    await start(file);
    // The admitted level: as many tables as the calibration admits rooms, all in play.
    await grow(limits.rooms);
    await sleep(warmupMs);
    const admitted = await window();
    say(`overload: admitted level (${limits.rooms} tables): ${JSON.stringify(admitted)}`);
    // Offered 1.5×: half as many tables again want to play; each refused start is asked again.
    await grow(Math.round(limits.rooms * 1.5));
    await sleep(warmupMs);
    const offered = await window();
    say(`overload: offered ${tables.length} tables: ${JSON.stringify(offered)}`);
    const ratio = round(offered.ackP99Ms / admitted.ackP99Ms, 2);
    const verdict = {
      ackP99Ratio: ratio,
      ackWithin: ratio <= 1.5,
      refusalsWithin100Ms: offered.refusalMaxMs !== null && offered.refusalMaxMs <= 100,
      refusedWithOtherCodes: offered.otherRefusals,
      noGameDropped: offered.unanswered === 0 && offered.failedDeals === 0,
    };
    if (json) console.log(JSON.stringify({ limits, admitted, offered, verdict }));
    else {
      console.log('\nAdmission control under 1.5× the admitted games');
      console.log(
        `| | tables | rooms | plays | ack p99 / p99.9 ms | refused starts | refusal p99 / max ms | unanswered plays | failed deals |`,
      );
      console.log(`|---|---|---|---|---|---|---|---|---|`);
      for (const [name, row, n] of [
        ['admitted', admitted, limits.rooms],
        ['offered 1.5×', offered, tables.length],
      ] as const) {
        console.log(
          `| ${name} | ${n} | ${row.rooms} | ${row.plays} | ${row.ackP99Ms} / ${row.ackP999Ms} | ${row.refused} | ` +
            `${row.refusalP99Ms ?? '–'} / ${row.refusalMaxMs ?? '–'} | ${row.unanswered} | ${row.failedDeals} |`,
        );
      }
      console.log(
        `\nack p99 offered ÷ admitted: ${ratio} (target ≤ 1.5); every refusal within 100 ms: ${verdict.refusalsWithin100Ms}; ` +
          `other refusal codes: ${verdict.refusedWithOtherCodes}; no game dropped: ${verdict.noGameDropped}`,
      );
    }
  } finally {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
