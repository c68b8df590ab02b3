// npm run bench:cluster [-- --json --games 200,400,800 --split 40 --addresses 32 --warmup 10 --seconds 20 --kills 20
//                          --forwarding 200]
// npm run bench:cluster -- --scale [G] [--factors 1.7,1.85,2 --floor --addresses 32 --warmup 10 --seconds 20 --json]
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
// Every window also reads Redis's figures (redis-figures.ts): commands (INFO commandstats) and bytes
// in and out (INFO stats) per acknowledged play, both nodes' traffic through it. The shared Redis also
// serves others: their commands in the window count too, so the figures are upper bounds.
//
// --scale [G] (default 200) measures scale-out instead of 1.–4.: one node pinned to one core behind
// nginx at G games (the standard load, through nginx, no split games), its ack p99; then two nodes,
// each pinned to one core, at G × each of --factors in turn, up to the first whose ack p99 is above
// the one node's. Efficiency = the most games two nodes held within the one node's ack p99 ÷ (2 × G)
// (the target, docs/capacity.md: ≥ 0.85, i.e. ≥ 1.7 × G). The load, PostgreSQL, Redis and nginx run unpinned
// beside them on the same two cores: on a two-core machine the two-node step shares its cores with
// them, the one-node step does not, which the figure carries. --floor then runs the same steps with
// durable floor nodes (floor-server.ts, pinned the same way behind the same nginx, each logging every
// command to its own table in the same PostgreSQL before answering it, at the bot plays per game the
// one real node sent): the efficiency the simplest nodes reach on the same machine under the same load.
//
// Choices are deterministic (tables take addresses and owners in turn, kills alternate nodes); the
// players' pace is random as in bench:server. Every process started is stopped on exit, error or Ctrl-C.
import { loadavg } from 'node:os';
import { type BenchCluster, addressesByNode, requireClusterTools, startBenchCluster } from './cluster-nodes.ts';
import { type Failover, probeFailover } from './failover.ts';
import { Table, load, newPlayer } from './load-players.ts';
import { type RedisPerPlay, RedisFigures, perPlay } from './redis-figures.ts';
import { type Metrics, floorBotEvents, metrics } from './server-process.ts';
import { median, parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const steps = (args.get('games') ?? '200,400,800').split(',').map(Number);
const split = Number(args.get('split') ?? '40');
const addresses = Number(args.get('addresses') ?? '32');
const warmupMs = Number(args.get('warmup') ?? '10') * 1000;
const measureMs = Number(args.get('seconds') ?? '20') * 1000;
const kills = Number(args.get('kills') ?? '20');
const forwardingGames = Number(args.get('forwarding') ?? '200');
const scaleGames = args.has('scale') ? Number(args.get('scale') === 'true' ? '200' : args.get('scale')) : null;
const factors = (args.get('factors') ?? '1.7,1.85,2').split(',').map(Number);
const ACK_P99_TARGET_MS = 20;
const EFFICIENCY_TARGET = 0.85;

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
/** What every report of this bench starts with: when, on which Node, how loaded the machine was, the windows. */
const reportHead = () => ({
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadavg().map((l) => round(l, 2)),
  warmupSeconds: warmupMs / 1000,
  measureSeconds: measureMs / 1000,
});
const redis = new RedisFigures(process.env.REDIS_URL as string);
let cluster: BenchCluster = await startBenchCluster(scaleGames === null ? 2 : 1);
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
  /** Socket.io packets each player received per second (a floor's bot rate is derived from it). */
  packetsPerSocketPerSecond: number;
  /** Both nodes' CPU over every acknowledged play of the window (nginx's and the split games'). */
  cpuMsPerPlay: number;
  /** Redis's commands and bytes over the same plays (the shared Redis's others' included). */
  redis: RedisPerPlay;
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

/** --scale: each node's addresses (addressesByNode), taken by tables node by node in turn. */
let balanced: string[][] | null = null;

/** Table `index`'s address: the next in turn, or (--scale) the next of the next node's. */
function addressOf(index: number): string {
  if (!balanced) return `127.0.0.${2 + (index % addresses)}`;
  const own = balanced[index % balanced.length] as string[];
  return own[Math.floor(index / balanced.length) % own.length] as string;
}

async function grow(to: number): Promise<void> {
  while (tables.length < to) {
    const batch = Math.min(50, to - tables.length);
    const made = await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const from = addressOf(tables.length + i);
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
  load.received.packets = 0;
  const before = await Promise.all(bases.map((base) => metrics(base)));
  const redisBefore = await redis.read();
  const loadCpu = process.cpuUsage();
  const t0 = performance.now();
  await sleep(measureMs);
  const redisAfter = await redis.read();
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
    packetsPerSocketPerSecond: round(load.received.packets / (2 * tables.length) / (wallMs / 1000), 2),
    redis: perPlay(redisBefore, redisAfter, plays),
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
    /** Redis per play: all straight, all split (half the split run's plays forwarded). */
    straightRedis: straight.redis,
    splitRedis: splitRow.redis,
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

/** --scale: one node at `games`, then two at `games` × each factor while within its ack p99 (`floor`: floor nodes). */
async function scaleOut(games: number, floor?: { botEvents: number }) {
  const run = async (count: number, steps: readonly number[], within: () => number) => {
    if (cluster.nodes.length !== count || floor) {
      await cluster.close();
      cluster = await startBenchCluster(count, floor);
    }
    // Games evenly over the nodes (nginx's hash alone spread 32 addresses' games 135 / 205).
    balanced = await addressesByNode(cluster, Math.ceil(addresses / count));
    load.base = cluster.front.url;
    load.playing = true;
    load.failedDeals = 0;
    const measured: Row[] = [];
    for (const step of steps) {
      try {
        const row = await measure(step);
        measured.push(row);
        if (!args.has('json'))
          console.error(`${floor ? 'floor ' : ''}${count} node(s), N=${step}: ${JSON.stringify(row)}`);
        if (row.ackMs.p99 > within()) break;
      } catch (error) {
        console.error(
          `${floor ? 'floor ' : ''}${count} node(s), N=${step}: not sustained (${(error as Error).message})`,
        );
        break;
      }
    }
    await stopLoad();
    return measured;
  };
  const [one] = await run(1, [games], () => Number.POSITIVE_INFINITY);
  if (!one) throw new Error(`one node did not sustain ${games} games`);
  const two = await run(
    2,
    factors.map((factor) => Math.round(games * factor)),
    () => one.ackMs.p99,
  );
  const held = two.filter((row) => row.ackMs.p99 <= one.ackMs.p99).at(-1) ?? null;
  return {
    games,
    one,
    two,
    /** The most games two nodes held within one node's ack p99, and the efficiency that makes. */
    twoWithinOneP99: held?.games ?? null,
    efficiency: held ? round(held.games / (2 * games), 3) : null,
  };
}

type ScaleOut = Awaited<ReturnType<typeof scaleOut>>;

function printScaleOut(label: string, scale: ScaleOut): void {
  console.log(
    `\n${label}\n\n| nodes | live games | games (rooms) per node | ack p50 / p99 / p99.9 ms | plays (unanswered) | node CPU % | loop delay p99 ms | Redis ops per play | Redis bytes in / out per play | most called, per play |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of [scale.one, ...scale.two]) {
    const each = (pick: (n: NodeRow) => number) => r.nodes.map(pick).join(' / ');
    const top = Object.entries(r.redis.commands)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    console.log(
      `| ${r.nodes.length} | ${r.games} | ${each((n) => n.rooms)} | ${r.ackMs.p50} / ${r.ackMs.p99} / ${r.ackMs.p999} | ${r.ackMs.plays} (${r.unanswered}) | ${each((n) => n.cpuPercent)} | ${each((n) => n.eventLoopDelayMsP99)} | ${r.redis.ops} | ${r.redis.inBytes} / ${r.redis.outBytes} | ${top} |`,
    );
  }
  console.log(
    `\ntwo nodes held ${scale.twoWithinOneP99 ?? 'no step'} games within one node's ack p99 at ${scale.games} (${scale.one.ackMs.p99} ms): efficiency ${scale.efficiency ?? '< ' + round(factors[0] ?? 0, 2) / 2} (target ≥ ${EFFICIENCY_TARGET})`,
  );
}

if (scaleGames !== null) {
  let scale: ScaleOut;
  let floorScale: ScaleOut | null = null;
  try {
    scale = await scaleOut(scaleGames);
    if (args.has('floor')) {
      const { one } = scale;
      const playsPerSocket = one.ackMs.plays / (2 * one.games) / (measureMs / 1000);
      floorScale = await scaleOut(scaleGames, {
        botEvents: floorBotEvents(one.packetsPerSocketPerSecond, playsPerSocket),
      });
    }
  } finally {
    await cluster.close();
    redis.close();
  }
  const report = { ...reportHead(), scale, floorScale };
  if (args.has('json')) console.log(JSON.stringify(report));
  else {
    console.log(
      `cluster scale-out, ${report.date}, Node ${report.node}, nodes pinned to one core each behind nginx, ${report.measureSeconds} s windows after ${report.warmupSeconds} s warm-up; load average ${loadBefore.join(' ')} before, ${report.loadAverageAfter.join(' ')} after`,
    );
    printScaleOut('MemeSlam nodes:', scale);
    if (floorScale) printScaleOut('durable floor nodes (the same load, no game logic):', floorScale);
  }
  process.exit(0);
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
  redis.close();
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
  ...reportHead(),
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
    '| live games | games (rooms) per node | sockets per node | plays via nginx (unanswered) | ack p50 / p99 / p99.9 ms | forwarded ack p50 / p99 ms | direct ack p50 / p99 ms | forwarded − direct p50 / p99 ms | node CPU % | node CPU per play ms | processing p99 ms | loop delay p99 ms | RSS MB | load CPU % | Redis ops per play | Redis bytes in / out per play |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const each = (pick: (n: NodeRow) => number) => r.nodes.map(pick).join(' / ');
    console.log(
      `| ${r.games} | ${each((n) => n.rooms)} | ${each((n) => n.sockets)} | ${r.ackMs.plays} (${r.unanswered}) | ${r.ackMs.p50} / ${r.ackMs.p99} / ${r.ackMs.p999} | ${r.forwardedAckMs.p50} / ${r.forwardedAckMs.p99} | ${r.directAckMs.p50} / ${r.directAckMs.p99} | ${round(r.forwardedAckMs.p50 - r.directAckMs.p50, 2)} / ${round(r.forwardedAckMs.p99 - r.directAckMs.p99, 2)} | ${each((n) => n.cpuPercent)} | ${r.cpuMsPerPlay} | ${each((n) => n.processingMsP99)} | ${each((n) => n.eventLoopDelayMsP99)} | ${each((n) => n.rssMB)} | ${r.loadCpuPercent} | ${r.redis.ops} | ${r.redis.inBytes} / ${r.redis.outBytes} |`,
    );
  }
  for (const games of notSustained) console.log(`| ${games} | not sustained: a new game was not seated within 30 s |`);
  console.log(
    `\nack p99 ≤ ${ACK_P99_TARGET_MS} ms: ${met ? `up to ${met.games} live games (${met.nodes.map((n) => n.rooms).join(' / ')} per node)` : 'no step meets it'}`,
  );
  if (forwarding) {
    const f = forwarding;
    console.log(
      `\nforwarding at ${f.games} games: node CPU per play ${f.straightCpuMsPerPlay} ms all straight, ${f.splitCpuMsPerPlay} ms all split; a forwarded play ${f.forwardedCpuMsPerPlay} ms = ${f.forwardedOverStraight}× a straight one; split run ack p50 forwarded ${f.splitForwardedAckMs.p50} ms, direct ${f.splitDirectAckMs.p50} ms (+${round(f.splitForwardedAckMs.p50 - f.splitDirectAckMs.p50, 2)} ms); straight run ack p50 ${f.straightAckMs.p50} ms; Redis per play ${f.straightRedis.ops} ops, ${f.straightRedis.inBytes} / ${f.straightRedis.outBytes} bytes in / out all straight, ${f.splitRedis.ops} ops, ${f.splitRedis.inBytes} / ${f.splitRedis.outBytes} all split`,
    );
  }
  const { firstEventMs: e, firstAckMs: a } = report.failover;
  console.log(
    `failover over ${failovers.length} SIGKILLs: first bot move p50 ${e.p50} ms, max ${e.max} ms (${e.missing} none in 30 s); first acknowledged play p50 ${a.p50} ms, max ${a.max} ms (${a.missing} none in 30 s)`,
  );
}
