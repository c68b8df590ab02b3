/**
 * bench:server's rows and how they are printed: one Markdown table per mode, the floor's, and each row
 * against the floor at the same step (the README keeps these tables).
 */
import { DRAIN_MS, type GcFigures } from './gc-windows.ts';
import type { OnCpu } from './on-cpu.ts';
import type { Contention } from './process-figures.ts';
import { round } from './stats.ts';

export type Row = {
  games: number;
  sockets: number;
  /** Rooms the server holds: live ones and finished ones not yet forgotten. */
  rooms: number;
  plays: number;
  unanswered: number;
  ackMs: { p50: number; p99: number; p999: number };
  processingMsP99: number;
  eventLoopDelayMsP99: number;
  serverCpuPercent: number;
  /** This load process's CPU: it shares the machine's cores with the server. */
  loadCpuPercent: number;
  /** This load process's own event-loop delay p99: an ack it was too busy to read waits here. */
  loadLoopDelayMsP99: number;
  rssMB: number;
  /** The embedded PostgreSQL's processes (null on an external server): CPU, and memory as PSS. */
  databaseCpuPercent: number | null;
  databaseMB: number | null;
  stepsPerWrite: number;
  queuedMsP99: number;
  durableWaitMsP99: number;
  writeMsP99: number;
  /** The longest write of the window: one slow write holds back every step that comes meanwhile. */
  writeMsMax: number;
  /** Recording a finished game (one statement): p99 ms, and how many were recorded in the window. */
  recordMsP99: number;
  records: number;
  eventLoopDelayMsMax: number;
  heapPerGameKB: number;
  heapPerSocketKB: number;
  /** Replacement games the server did not seat within 30 s, so far. */
  failedDeals: number;
  /** What each player's socket received per second (events and acks), and their mean size. */
  packetsPerSocketPerSecond: number;
  bytesPerPacket: number;
  /** The server's and its database's CPU per acknowledged play, in ms. */
  cpuMsPerPlay: number;
  /** Bytes the players' sockets received (events and acks) per acknowledged play. */
  wireBytesPerPlay: number;
  /** External mode: the database's transactions, rows written and WAL bytes per acknowledged play. */
  database?: { commitsPerPlay: number; rowsPerPlay: number; walBytesPerPlay: number };
  /** How long the server's main thread ran and waited for a core, and the machine's CPU pressure (% of the window). */
  contention: Contention;
  /** --gc: the slow acks against the server's mark-compacts. */
  gc?: GcFigures;
  /** --oncpu: where the machine's cores went in the window. */
  onCpu?: OnCpu;
};
/** The floor's row at one step: what the load measured, and the floor process's CPU and memory. */
export type FloorRow = Pick<
  Row,
  | 'games'
  | 'plays'
  | 'unanswered'
  | 'ackMs'
  | 'eventLoopDelayMsP99'
  | 'eventLoopDelayMsMax'
  | 'loadLoopDelayMsP99'
  | 'packetsPerSocketPerSecond'
  | 'bytesPerPacket'
> & {
  cpuPercent: number;
  contention: Contention;
  cpuMsPerPlay: number;
  rssMB: number;
  botPlaysPerGamePerSecond: number;
  /** `--floor durable`: its PostgreSQL's share of a core, counted in its CPU % and CPU per play too. */
  databaseCpuPercent?: number;
  /** `--floor durable`: commands per batch committed. */
  stepsPerWrite?: number;
  onCpu?: OnCpu;
};

/** What one run measured: every mode's rows, the floor's, and the rows over the floor's. */
export interface ServerReport {
  date: string;
  node: string;
  pace: string;
  warmupSeconds: number;
  measureSeconds: number;
  modes: { mode: string; results: Row[]; notSustained: number[]; saturationGames: number | null }[];
  floor: FloorRow[];
  ratios: {
    mode: string;
    rows: {
      games: number;
      ackP99: number;
      ackP999: number;
      loopDelayP99: number | null;
      cpuPerPlay: number;
      memory: number;
    }[];
  }[];
}

/** A table cell: the main thread on a core and waiting for one, and the machine's CPU pressure ("–" where Linux gives none). */
const waiting = (c: Contention) =>
  `${c.mainThreadRunPercent ?? '–'} / ${c.mainThreadWaitPercent ?? '–'} (${c.cpuPressurePercent ?? '–'})`;

/** The report as Markdown tables; `saturation`: the run searched for the step where ack p99 passes 50 ms. */
export function printReport(report: ServerReport, options: { saturation: boolean; slowAckMs: number }): void {
  console.log(
    `server benchmark, ${report.date}, Node ${report.node}, pace ${report.pace}, ${report.measureSeconds} s windows after ${report.warmupSeconds} s warm-up`,
  );
  for (const { mode, results, notSustained, saturationGames } of report.modes) {
    console.log(`\n${mode}:\n`);
    console.log(
      '| live games | sockets | rooms held | plays (unanswered in 10 s) | ack p50 / p99 / p99.9 ms | processing p99 ms | loop delay p99 / max ms | server CPU % | server main thread on a core / waiting for one % (CPU pressure %) | database CPU % | load CPU % (loop delay p99 ms) | server RSS + database PSS MB | steps/write | queued p99 ms | durable wait p99 ms | write p99 / max ms | records (p99 ms) | heap/game KB (with its 2 sockets) | heap/idle socket KB |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.games} | ${r.sockets} | ${r.rooms} | ${r.plays} (${r.unanswered}) | ${r.ackMs.p50} / ${r.ackMs.p99} / ${r.ackMs.p999} | ${r.processingMsP99} | ${r.eventLoopDelayMsP99} / ${r.eventLoopDelayMsMax} | ${r.serverCpuPercent} | ${waiting(r.contention)} | ${r.databaseCpuPercent ?? 'not counted'} | ${r.loadCpuPercent} (${r.loadLoopDelayMsP99}) | ${r.rssMB} + ${r.databaseMB ?? '–'} | ${r.stepsPerWrite} | ${r.queuedMsP99} | ${r.durableWaitMsP99} | ${r.writeMsP99} / ${r.writeMsMax} | ${r.records} (${r.recordMsP99}) | ${r.heapPerGameKB} | ${r.heapPerSocketKB} |`,
      );
    }
    for (const games of notSustained) {
      console.log(`| ${games} | not sustained: the server did not seat a new game within 30 s |`);
    }
    if (options.saturation)
      console.log(`saturation (ack p99 > 50 ms): ${saturationGames ?? 'not reached by 4000 games'}`);
    for (const { games, gc } of results) {
      if (!gc) continue;
      const pct = (share: number) => `${round(share * 100, 1)}%`;
      console.log(
        `N=${games}: ${gc.slow} acks over ${options.slowAckMs} ms; ${pct(gc.slowShare)} of them overlapped one of the server's ${gc.collections} mark-compacts (marking to end, ${pct(gc.timeShare)} of the window), against ${pct(gc.otherShare)} of the other acks; ${pct(gc.wake.slowShare)} overlapped one or the ${DRAIN_MS} ms after it (${pct(gc.wake.timeShare)} of the window), against ${pct(gc.wake.otherShare)} of the other acks. The mark-compacts' work on the main thread: ${gc.markCompactMainThreadMs} ms; ${gc.scavenges} scavenges, ${gc.scavengePauseMs} ms of pauses, promoting ${gc.promotedMBPerSecond} MB/s (${gc.promotedKBPerPlay} KB per play)`,
      );
    }
  }
  if (report.floor.length > 0) {
    const durable = report.floor.some((f) => f.databaseCpuPercent !== undefined);
    console.log(
      durable
        ? "\nfloor, durable (the same traffic, no game logic; each command committed to its own embedded PostgreSQL before it is answered; CPU % with the database's):\n"
        : '\nfloor (the same traffic, no game logic, no database):\n',
    );
    console.log(
      '| live games | plays (unanswered) | ack p50 / p99 / p99.9 ms | loop delay p99 / max ms | load loop delay p99 ms | CPU % (database %) | commands per commit | main thread on a core / waiting for one % (CPU pressure %) | CPU ms per play | RSS MB | packets per socket per s (bytes each) | bot plays per game per s |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const f of report.floor) {
      console.log(
        `| ${f.games} | ${f.plays} (${f.unanswered}) | ${f.ackMs.p50} / ${f.ackMs.p99} / ${f.ackMs.p999} | ${f.eventLoopDelayMsP99} / ${f.eventLoopDelayMsMax} | ${f.loadLoopDelayMsP99} | ${f.cpuPercent} (${f.databaseCpuPercent ?? '–'}) | ${f.stepsPerWrite ?? '–'} | ${waiting(f.contention)} | ${f.cpuMsPerPlay} | ${f.rssMB} | ${f.packetsPerSocketPerSecond} (${f.bytesPerPacket}) | ${f.botPlaysPerGamePerSecond} |`,
      );
    }
    console.log('\nagainst the floor (× the floor at the same step):\n');
    console.log(
      '| mode | live games | ack p99 × | ack p99.9 × | loop delay p99 × | CPU per play × (server + database) | memory × | packets per socket per s (bytes each) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const { mode, rows } of report.ratios) {
      for (const x of rows) {
        const r = report.modes.find((m) => m.mode === mode)?.results.find((y) => y.games === x.games) as Row;
        console.log(
          `| ${mode} | ${x.games} | ${x.ackP99} | ${x.ackP999} | ${x.loopDelayP99 ?? '–'} | ${x.cpuPerPlay} (${r.cpuMsPerPlay} ms) | ${x.memory} | ${r.packetsPerSocketPerSecond} (${r.bytesPerPacket}) |`,
        );
      }
    }
  }
  printOnCpu(report);
}

/** --oncpu: each window's split, the server's rows and the floor's. */
function printOnCpu(report: ServerReport): void {
  const rows = [
    ...report.modes.flatMap(({ mode, results }) => results.map((r) => ({ who: mode, games: r.games, c: r.onCpu }))),
    ...report.floor.map((f) => ({ who: 'floor', games: f.games, c: f.onCpu })),
  ].filter((row): row is { who: string; games: number; c: OnCpu } => row.c !== undefined);
  if (rows.length === 0) return;
  console.log('\non a core (perf, every CPU sampled; % of one core over the window):\n');
  console.log(
    '| who | live games | main thread: all / collector / kernel / JSON / the rest | its other threads | load | database | other | idle or not sampled |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { who, games, c } of rows) {
    const m = c.mainThread;
    console.log(
      `| ${who} | ${games} | ${m.total} / ${m.gc} / ${m.kernel} / ${m.json} / ${m.rest} | ${c.serverOthers} | ${c.load} | ${c.database} | ${c.other} | ${c.idle} |`,
    );
  }
}
