// npm run bench:cluster [-- --json --games 200,400,800 --split 40 --addresses 32 --warmup 10 --seconds 20 --kills 20
//                          --forwarding 200]
//
// Two nodes, each pinned to one core (taskset -c 0 / -c 1), on a fresh database on DATABASE_URL's
// server (dropped after) and the shared REDIS_URL, behind nginx running deploy/nginx.conf; this load
// process runs unpinned beside them. Needs nginx, taskset, DATABASE_URL and REDIS_URL (it says which
// is missing and stops).
//
// 1. Games per node: the standard load (bench:server's: two socket.io clients at human pace
//    and two normal bots per game, power-ups once each, finished games replaced) at each total N of
//    --games. Clients connect through nginx from 127.0.0.2, 127.0.0.3, ... (--addresses of them, table
//    by table in turn; both players of a table share one), so that nginx's client-IP hash spreads the
//    games over the nodes. The answer is the largest step whose ack p99 is ≤ 20 ms.
// 2. Forwarding: --split of the N games have their host connected straight to one node (which owns
//    the game: it was created there) and their guest straight to the other, whose every command is
//    forwarded to the owner over Redis. Their acks are reported apart: forwarded (guests) against
//    direct (hosts), at each step; the front's players above are the nginx ones.
// 3. Forwarding's cost: --forwarding games (0: skipped), first all straight to their owner (host and
//    guest on the node that created the game, owners in turn), then all split (every guest's command
//    forwarded). Node CPU per acknowledged play (both nodes, bots included) in each; half the split
//    run's plays are forwarded, so a forwarded play costs 2 × split − straight, against straight.
// 4. Failover: once the load has stopped, --kills times in turn per node: a game owned by one node,
//    a player on the other, SIGKILL of the owner; from the kill to that player's first bot move seen
//    and to its own first acknowledged play. The node is started again on its port before the next.
//
// Choices are deterministic (tables take addresses and owners in turn, kills alternate nodes); the
// players' pace is random as in bench:server. Every process started is stopped on exit, error or Ctrl-C.
import { loadavg } from 'node:os';
import { type BenchCluster, requireClusterTools, startBenchCluster } from './cluster-nodes.ts';
import { type Failover, probeFailover } from './failover.ts';
import { Table, load, newPlayer } from './load-players.ts';
import { type Metrics, metrics } from './server-process.ts';
import { median, parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const steps = (args.get('games') ?? '200,400,800').split(',').map(Number);
const split = Number(args.get('split') ?? '40');
const addresses = Number(args.get('addresses') ?? '32');
const warmupMs = Number(args.get('warmup') ?? '10') * 1000;
const measureMs = Number(args.get('seconds') ?? '20') * 1000;
const kills = Number(args.get('kills') ?? '20');
const forwardingGames = Number(args.get('forwarding') ?? '200');
const ACK_P99_TARGET_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    plays: sorted.length,
    p50: round(percentile(sorted, 50), 2),
    p99: round(percentile(sorted, 99), 2),
    p999: round(percentile(sorted, 99.9), 2),
  };
};

requireClusterTools();
const loadBefore = loadavg().map((l) => round(l, 2));
const cluster: BenchCluster = await startBenchCluster(2);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the cluster`);
    void cluster.close().finally(() => process.exit(130));
  });
}

type NodeRow = {
  id: string;
  rooms: number;
  sockets: number;
  cpuPercent: number;
  processingMsP99: number;
  eventLoopDelayMsP99: number;
  rssMB: number;
};
type Row = {
  games: number;
  /** The players connected through nginx. */
  ackMs: ReturnType<typeof quantiles>;
  unanswered: number;
  /** The split games' guests (forwarded) and hosts (direct), both straight to a node. */
  forwardedAckMs: ReturnType<typeof quantiles>;
  directAckMs: ReturnType<typeof quantiles>;
  nodes: NodeRow[];
  loadCpuPercent: number;
  failedDeals: number;
  /** Both nodes' CPU over every acknowledged play of the window (nginx's and the split games'). */
  cpuMsPerPlay: number;
};

const tables: Table[] = [];
const forwarded: number[] = [];
const direct: number[] = [];
const rows: Row[] = [];
const notSustained: number[] = [];
const failovers: Failover[] = [];

/** `count` games with both players straight to a node: the guest on the other node (split) or the owner's. */
async function splitTables(count = split, guestsForwarded = true): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const [owner, other] = i % 2 === 0 ? [0, 1] : [1, 0];
    const host = await newPlayer(undefined, { base: cluster.nodes[owner]?.url as string });
    const guest = await newPlayer(undefined, {
      base: cluster.nodes[guestsForwarded ? other : owner]?.url as string,
    });
    host.acks = direct;
    guest.acks = guestsForwarded ? forwarded : direct;
    const table = new Table(host, guest);
    tables.push(table);
    await table.deal();
  }
}

async function grow(to: number): Promise<void> {
  while (tables.length < to) {
    const batch = Math.min(50, to - tables.length);
    const made = await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const from = `127.0.0.${2 + ((tables.length + i) % addresses)}`;
        return new Table(await newPlayer(undefined, { from }), await newPlayer(undefined, { from }));
      }),
    );
    for (const table of made) {
      tables.push(table);
      await table.deal();
    }
  }
}

async function measure(games: number): Promise<Row> {
  await grow(games);
  await sleep(warmupMs);
  const bases = cluster.nodes.map((node) => node.url);
  await Promise.all(bases.map((base) => metrics(base, '?reset=1')));
  for (const acks of [load.ackMs, forwarded, direct]) acks.length = 0;
  load.unanswered = 0;
  const before = await Promise.all(bases.map((base) => metrics(base)));
  const loadCpu = process.cpuUsage();
  const t0 = performance.now();
  await sleep(measureMs);
  const after: Metrics[] = await Promise.all(bases.map((base) => metrics(base)));
  const wallMs = performance.now() - t0;
  const loadCpuUsed = process.cpuUsage(loadCpu);
  const nodeCpuMs = after.reduce((sum, m, i) => sum + (m.cpuMicros - (before[i] as Metrics).cpuMicros) / 1000, 0);
  const plays = load.ackMs.length + forwarded.length + direct.length;
  return {
    cpuMsPerPlay: round(nodeCpuMs / Math.max(1, plays), 3),
    games,
    ackMs: quantiles(load.ackMs),
    unanswered: load.unanswered,
    forwardedAckMs: quantiles(forwarded),
    directAckMs: quantiles(direct),
    nodes: after.map((m, i) => ({
      id: cluster.nodes[i]?.id as string,
      rooms: m.rooms,
      sockets: m.sockets,
      cpuPercent: round(((m.cpuMicros - (before[i] as Metrics).cpuMicros) / 1000 / wallMs) * 100, 1),
      processingMsP99: round(m.commands.p99Ms, 2),
      eventLoopDelayMsP99: round(m.eventLoopDelayMs.p99, 2),
      rssMB: round(m.rssBytes / 2 ** 20, 0),
    })),
    loadCpuPercent: round(((loadCpuUsed.user + loadCpuUsed.system) / 1000 / wallMs) * 100, 1),
    failedDeals: load.failedDeals,
  };
}

/** Forwarding's cost (3. above): the same games all straight to their owner, then all split. */
async function forwardingCost(games: number) {
  const run = async (guestsForwarded: boolean) => {
    load.playing = true;
    await splitTables(games, guestsForwarded);
    const row = await measure(games);
    await stopLoad();
    await sleep(2000);
    return row;
  };
  const straight = await run(false);
  const splitRow = await run(true);
  const forwardedCpuMs = 2 * splitRow.cpuMsPerPlay - straight.cpuMsPerPlay;
  return {
    games,
    straightCpuMsPerPlay: straight.cpuMsPerPlay,
    splitCpuMsPerPlay: splitRow.cpuMsPerPlay,
    forwardedCpuMsPerPlay: round(forwardedCpuMs, 3),
    forwardedOverStraight: round(forwardedCpuMs / straight.cpuMsPerPlay, 2),
    straightAckMs: straight.directAckMs,
    /** The split run's acks: forwarded (guests) and direct (hosts). */
    splitForwardedAckMs: splitRow.forwardedAckMs,
    splitDirectAckMs: splitRow.directAckMs,
  };
}
let forwarding: Awaited<ReturnType<typeof forwardingCost>> | null = null;

/** Every player leaves (forfeits) its game and disconnects: the failover probes run on a quiet cluster. */
async function stopLoad(): Promise<void> {
  load.playing = false;
  await Promise.all(
    tables.flatMap((table) =>
      [table.host, table.guest].map(async (player) => {
        await player.socket
          .timeout(5000)
          .emitWithAck('leaveGame', {})
          .catch(() => null);
        player.socket.disconnect();
      }),
    ),
  );
  tables.length = 0;
}

try {
  load.base = cluster.front.url;
  load.playing = true;
  await splitTables();
  for (const games of steps) {
    try {
      const row = await measure(games);
      rows.push(row);
      if (!args.has('json')) console.error(`N=${games}: ${JSON.stringify(row)}`);
    } catch (error) {
      console.error(`N=${games}: not sustained (${(error as Error).message})`);
      notSustained.push(games);
      break;
    }
  }
  await stopLoad();
  await sleep(2000);
  if (forwardingGames > 0) {
    forwarding = await forwardingCost(forwardingGames);
    if (!args.has('json')) console.error(`forwarding: ${JSON.stringify(forwarding)}`);
  }
  for (let k = 0; k < kills; k += 1) {
    const [owner, other] = k % 2 === 0 ? cluster.nodes : [...cluster.nodes].reverse();
    if (!owner || !other) throw new Error('failover needs two nodes');
    const result = await probeFailover(owner, other);
    failovers.push(result);
    if (!args.has('json')) console.error(`kill ${k + 1}: ${JSON.stringify(result)}`);
  }
} finally {
  await cluster.close();
}

const met = rows.filter((row) => row.ackMs.p99 <= ACK_P99_TARGET_MS).at(-1) ?? null;
const times = (pick: (f: Failover) => number | null) => {
  const values = failovers.map(pick).filter((v): v is number => v !== null);
  return {
    p50: values.length ? round(median(values), 0) : null,
    max: values.length ? round(Math.max(...values), 0) : null,
    missing: failovers.length - values.length,
  };
};
const report = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadavg().map((l) => round(l, 2)),
  warmupSeconds: warmupMs / 1000,
  measureSeconds: measureMs / 1000,
  splitGames: split,
  steps: rows,
  notSustained,
  /** The largest step whose ack p99 (players through nginx) is ≤ 20 ms, and its games per node. */
  ackP99Within20ms: met ? { games: met.games, roomsPerNode: met.nodes.map((n) => n.rooms) } : null,
  forwarding,
  failover: {
    kills: failovers.length,
    firstEventMs: times((f) => f.firstEventMs),
    firstAckMs: times((f) => f.firstAckMs),
    each: failovers,
  },
};

if (args.has('json')) {
  console.log(JSON.stringify(report));
} else {
  console.log(
    `cluster benchmark, ${report.date}, Node ${report.node}, 2 nodes (one core each) behind nginx, ${report.measureSeconds} s windows after ${report.warmupSeconds} s warm-up; load average ${loadBefore.join(' ')} before, ${report.loadAverageAfter.join(' ')} after\n`,
  );
  console.log(
    '| live games | games (rooms) per node | sockets per node | plays via nginx (unanswered) | ack p50 / p99 / p99.9 ms | forwarded ack p50 / p99 ms | direct ack p50 / p99 ms | forwarded − direct p50 / p99 ms | node CPU % | node CPU per play ms | processing p99 ms | loop delay p99 ms | RSS MB | load CPU % |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const each = (pick: (n: NodeRow) => number) => r.nodes.map(pick).join(' / ');
    console.log(
      `| ${r.games} | ${each((n) => n.rooms)} | ${each((n) => n.sockets)} | ${r.ackMs.plays} (${r.unanswered}) | ${r.ackMs.p50} / ${r.ackMs.p99} / ${r.ackMs.p999} | ${r.forwardedAckMs.p50} / ${r.forwardedAckMs.p99} | ${r.directAckMs.p50} / ${r.directAckMs.p99} | ${round(r.forwardedAckMs.p50 - r.directAckMs.p50, 2)} / ${round(r.forwardedAckMs.p99 - r.directAckMs.p99, 2)} | ${each((n) => n.cpuPercent)} | ${r.cpuMsPerPlay} | ${each((n) => n.processingMsP99)} | ${each((n) => n.eventLoopDelayMsP99)} | ${each((n) => n.rssMB)} | ${r.loadCpuPercent} |`,
    );
  }
  for (const games of notSustained) console.log(`| ${games} | not sustained: a new game was not seated within 30 s |`);
  console.log(
    `\nack p99 ≤ ${ACK_P99_TARGET_MS} ms: ${met ? `up to ${met.games} live games (${met.nodes.map((n) => n.rooms).join(' / ')} per node)` : 'no step meets it'}`,
  );
  if (forwarding) {
    const f = forwarding;
    console.log(
      `\nforwarding at ${f.games} games: node CPU per play ${f.straightCpuMsPerPlay} ms all straight, ${f.splitCpuMsPerPlay} ms all split; a forwarded play ${f.forwardedCpuMsPerPlay} ms = ${f.forwardedOverStraight}× a straight one; split run ack p50 forwarded ${f.splitForwardedAckMs.p50} ms, direct ${f.splitDirectAckMs.p50} ms (+${round(f.splitForwardedAckMs.p50 - f.splitDirectAckMs.p50, 2)} ms); straight run ack p50 ${f.straightAckMs.p50} ms`,
    );
  }
  const { firstEventMs: e, firstAckMs: a } = report.failover;
  console.log(
    `failover over ${failovers.length} SIGKILLs: first bot move p50 ${e.p50} ms, max ${e.max} ms (${e.missing} none in 30 s); first acknowledged play p50 ${a.p50} ms, max ${a.max} ms (${a.missing} none in 30 s)`,
  );
}
