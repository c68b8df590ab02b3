/**
 * A seeded chaos run against a real cluster: three nodes on one PostgreSQL database and a
 * Redis of the run's own, steady players each playing bot games and recording every acknowledged
 * play, lobby hoppers moving between each other's lobbies, and faults one after another (and two at
 * once): a node SIGKILLed and restarted, SIGTERMed and restarted, paused past its lease; Redis killed
 * and restarted; the database's connections terminated; the database unreachable for 20 s.
 *
 * The invariants, checked while it runs and at the end:
 * - nothing acknowledged is lost: every acknowledged play is in its game's log or replay;
 * - nobody sits in two unfinished games: from the database (lobby seats, and each game in play
 *   replayed from its log through the engine to see who still sits in it) and from `my-games`;
 * - every finished game is recorded once: its seats once, and each player's games-played count
 *   equals their recorded seats;
 * - every request is answered (a clear error is an answer) within 10 s of its node being healthy;
 * - SIGTERM ends a node within 10 s.
 * The seed decides the order of the faults, their nodes, and the players' choices: a failing seed
 * runs the same plan again.
 */
import { LOBBY_TEXTS } from '@memeslam/protocol';
import pg from 'pg';
import { type Cluster, type OwnRedis, connectTo, register, startCluster, startRedis } from './cluster.ts';
import {
  type Check,
  type RequestRecord,
  ANSWER_WITHIN_MS,
  doubleSeats,
  finalChecks,
  withDatabase,
} from './chaos-checks.ts';
import type { Client } from './sockets.ts';

export type { Check } from './chaos-checks.ts';

export type FaultKind = 'sigkill' | 'sigterm' | 'pause' | 'redis' | 'pg-terminate' | 'pg-away' | 'overlap';
export const FAULT_KINDS: readonly FaultKind[] = [
  'sigkill',
  'sigterm',
  'pause',
  'redis',
  'pg-terminate',
  'pg-away',
  'overlap',
];

export interface ChaosOptions {
  readonly seed: number;
  /** How long faults go on; every kind comes at least once, then they repeat in seeded order. */
  readonly seconds: number;
  /** A superuser's URL on the cluster database's server (to refuse and terminate its connections). */
  readonly adminUrl: string;
  readonly log?: (line: string) => void;
}

export interface ChaosReport {
  readonly seed: number;
  readonly faults: readonly { kind: FaultKind; node: number; startMs: number; endMs: number }[];
  readonly acknowledgedPlays: number;
  readonly requests: number;
  readonly finishedGames: number;
  readonly checks: readonly Check[];
}

const NODES = 3;
const STEADY_PLAYERS = 3;
const HOPPERS = 3;
const LEASE_PAUSE_MS = 4500;
const DATABASE_AWAY_MS = 20_000;

/** mulberry32: a small seeded PRNG, so a seed replays the same plan. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A socket on one node that reconnects elsewhere when its node goes away. */
class Actor {
  client: Client | null = null;
  node: number;
  /** The game a steady player plays in. */
  gameId: string | null = null;
  readonly token: string;
  readonly userId: string;
  readonly #run: Run;

  constructor(run: Run, token: string, userId: string, node: number) {
    this.#run = run;
    this.token = token;
    this.userId = userId;
    this.node = node;
  }

  async ensureConnected(): Promise<Client | null> {
    if (this.client?.socket.connected) return this.client;
    this.client?.close();
    this.client = null;
    const running = this.#run.cluster.nodes.flatMap((n, i) => (n.running ? [i] : []));
    if (running.length === 0) return null;
    const node = running.includes(this.node)
      ? this.node
      : (running[Math.floor(this.#run.rng() * running.length)] as number);
    try {
      this.client = await connectTo(this.#run.cluster.url(node), this.token, { transports: ['websocket'] });
      this.node = node;
      return this.client;
    } catch {
      // Paused, starting or stopping: another try next turn, perhaps on another node.
      this.node = running[Math.floor(this.#run.rng() * running.length)] as number;
      return null;
    }
  }

  /** The ids of the user's unfinished games (GET /game/my-games on its node); [] if it did not answer. */
  async myGames(): Promise<string[]> {
    try {
      const res = await fetch(`${this.#run.cluster.url(this.node)}/api/game/my-games`, {
        headers: { authorization: `Bearer ${this.token}` },
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json()) as { data?: { games?: { gameId: string }[] } };
      return (body.data?.games ?? []).map((g) => g.gameId);
    } catch {
      return [];
    }
  }

  /** One request, timed; null if the socket closed first (or there was none). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the harness reads whatever the ack holds
  async emit(event: string, payload: unknown): Promise<{ success: boolean; data?: any; error?: string } | null> {
    const client = await this.ensureConnected();
    if (!client) return null;
    const record: RequestRecord = { event, node: this.node, sentAt: Date.now(), answeredAt: null, dropped: false };
    this.#run.requests.push(record);
    const socket = client.socket;
    const onDisconnect = () => (record.dropped = true);
    socket.once('disconnect', onDisconnect);
    try {
      const answer = await socket.timeout(60_000).emitWithAck(event, payload);
      record.answeredAt = Date.now();
      return answer;
    } catch {
      if (!socket.connected) record.dropped = true;
      return null;
    } finally {
      socket.off('disconnect', onDisconnect);
    }
  }
}

interface Run {
  readonly cluster: Cluster;
  readonly rng: () => number;
  readonly requests: RequestRecord[];
  /** gameId → card ids whose play was acknowledged. */
  readonly acked: Map<string, Set<string>>;
  readonly violations: string[];
  stopping: boolean;
}

async function steadyPlayer(run: Run, actor: Actor): Promise<void> {
  while (!run.stopping) {
    const state = await actor.emit('requestHand', {});
    if (!state) {
      await sleep(200);
      continue;
    }
    if (!state.success) {
      if (state.error !== LOBBY_TEXTS.notInGame) {
        // Reconnecting, or a bot game still counting down: ask again shortly.
        await sleep(300);
        continue;
      }
      // No game (the last one ended, or was never made): a new one against a bot.
      actor.gameId = null;
      const created = await actor.emit('create-bot-game', {
        numberOfBots: 1,
        botDifficulty: 'easy',
        gameSpeed: 'blitz',
        autoStart: true,
        cardsPerPlayer: 20,
      });
      if (created?.success) actor.gameId = created.data.gameId as string;
      await sleep(300);
      continue;
    }
    // A game made by a create whose answer was lost with its node: my-games names it.
    actor.gameId ??= await actor.myGames().then((games) => games[0] ?? null);
    const gameId = actor.gameId;
    if (!gameId) continue;
    const tops = (state.data.gameState.discardPiles as { number: number; color: string; logo: string }[][]).map((p) =>
      p.at(-1),
    );
    const hand = state.data.hand as { id: string; number: number; color: string; logo: string }[];
    let played = false;
    for (const card of hand) {
      const pileIndex = tops.findIndex(
        (top) => top && (top.number === card.number || top.color === card.color || top.logo === card.logo),
      );
      if (pileIndex < 0) continue;
      const ack = await actor.emit('playCard', { cardId: card.id, pileIndex });
      if (ack?.success) {
        const set = run.acked.get(gameId) ?? new Set<string>();
        set.add(card.id);
        run.acked.set(gameId, set);
      }
      played = true;
      break;
    }
    await sleep(played ? 150 : 300);
  }
}

async function hopper(run: Run, actor: Actor, codes: string[]): Promise<void> {
  while (!run.stopping) {
    const roll = run.rng();
    if (roll < 0.35) {
      const created = await actor.emit('createGame', { maxPlayers: 4, gameSpeed: 'blitz', cardsPerPlayer: 20 });
      if (created?.success) codes.push(created.data.roomCode as string);
    } else if (roll < 0.75 && codes.length > 0) {
      await actor.emit('joinGame', { roomCode: codes[Math.floor(run.rng() * codes.length)] });
    } else {
      await actor.emit('leaveGame', {});
    }
    if (codes.length > 20) codes.splice(0, codes.length - 20);
    await sleep(300 + Math.floor(run.rng() * 500));
  }
}

/** The seed's faults: every kind once in a seeded order, then seeded repeats; each with its node and the pause after it. */
export function faultPlan(seed: number): { kind: FaultKind; node: number; gapMs: number }[] {
  const rng = random(seed);
  const first = FAULT_KINDS.map((kind) => ({ kind, order: rng() }))
    .sort((a, b) => a.order - b.order)
    .map((f) => f.kind);
  const repeats = Array.from({ length: 500 }, () => FAULT_KINDS[Math.floor(rng() * FAULT_KINDS.length)] as FaultKind);
  return [...first, ...repeats].map((kind) => ({
    kind,
    node: Math.floor(rng() * NODES),
    gapMs: 1500 + Math.floor(rng() * 1000),
  }));
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const plan = faultPlan(options.seed);
  // The players' choices draw from a generator of their own: the plan never depends on their timing.
  const rng = random(options.seed + 1);
  const redis: OwnRedis = await startRedis();
  const cluster = await startCluster({ nodes: NODES, front: false, redis });
  const databaseName = new URL(cluster.databaseUrl).pathname.slice(1);
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: options.adminUrl });
    client.on('error', () => {}); // as in withDatabase: a query's rejection is what counts
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const run: Run = { cluster, rng, requests: [], acked: new Map(), violations: [], stopping: false };
  const faults: { kind: FaultKind; node: number; startMs: number; endMs: number }[] = [];
  const t0 = Date.now();
  const checks: Check[] = [];
  const actors: Actor[] = [];
  try {
    for (let i = 0; i < STEADY_PLAYERS + HOPPERS; i += 1) {
      const node = i % NODES;
      const { token, userId } = await register(cluster.url(node), i < STEADY_PLAYERS ? 'steady' : 'hopper');
      actors.push(new Actor(run, token, userId, node));
    }
    const codes: string[] = [];
    const playing = actors.map((actor, i) =>
      i < STEADY_PLAYERS ? steadyPlayer(run, actor) : hopper(run, actor, codes),
    );

    // Snapshots of the seats while faults go on.
    const watching = (async () => {
      while (!run.stopping) {
        await sleep(3000);
        // A connection of its own each time: the faults terminate the database's connections.
        const doubles = await withDatabase(cluster.databaseUrl, doubleSeats).catch(() => null);
        if (doubles && doubles.length > 0)
          run.violations.push(`double seat at ${Date.now() - t0} ms: ${doubles.join('; ')}`);
      }
    })();

    await sleep(3000);
    const deadline = t0 + options.seconds * 1000;
    for (const [i, { kind, node, gapMs }] of plan.entries()) {
      if (i >= FAULT_KINDS.length && Date.now() >= deadline) break;
      const startMs = Date.now() - t0;
      log(`[chaos] ${startMs} ms: ${kind} on node ${node + 1}`);
      await fault(kind, node);
      faults.push({ kind, node, startMs, endMs: Date.now() - t0 });
      await sleep(gapMs);
    }

    // Healing: every node up, then a quiet while for requests under way to be answered.
    for (const [i, node] of cluster.nodes.entries()) if (!node.running) await cluster.restart(i);
    await sleep(ANSWER_WITHIN_MS);
    run.stopping = true;
    await Promise.all(playing);
    await watching;

    checks.push(...(await withDatabase(cluster.databaseUrl, (db) => finalChecks(run, db, actors, faults, t0))));
  } finally {
    run.stopping = true;
    for (const actor of actors) actor.client?.close();
    await admin(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`).catch(() => {});
    await cluster.close();
    await redis.close();
  }
  const report: ChaosReport = {
    seed: options.seed,
    faults,
    acknowledgedPlays: [...run.acked.values()].reduce((n, s) => n + s.size, 0),
    requests: run.requests.length,
    finishedGames: Number(
      checks.find((c) => c.name === 'finished games recorded once')?.detail.match(/^(\d+)/)?.[1] ?? 0,
    ),
    checks,
  };
  return report;

  async function fault(kind: FaultKind, node: number): Promise<void> {
    switch (kind) {
      case 'sigkill':
        await cluster.kill(node, 'SIGKILL');
        await sleep(2000);
        await cluster.restart(node);
        return;
      case 'sigterm': {
        const started = Date.now();
        const code = await cluster.kill(node, 'SIGTERM');
        const took = Date.now() - started;
        if (took > 10_000 || code !== 0)
          run.violations.push(`SIGTERM of node ${node + 1}: exit ${code} after ${took} ms`);
        await cluster.restart(node);
        return;
      }
      case 'pause':
        cluster.pause(node, true);
        await sleep(LEASE_PAUSE_MS);
        cluster.pause(node, false);
        return;
      case 'redis':
        await redis.stop('SIGKILL');
        await sleep(3000);
        await redis.start();
        return;
      case 'pg-terminate':
        await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName}'`);
        return;
      case 'pg-away':
        await admin(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS false`);
        await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName}'`);
        await sleep(DATABASE_AWAY_MS);
        await admin(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`);
        return;
      case 'overlap':
        // A node paused past its lease while Redis goes away and comes back empty.
        cluster.pause(node, true);
        await redis.stop('SIGKILL');
        await sleep(LEASE_PAUSE_MS);
        await redis.start();
        cluster.pause(node, false);
        return;
    }
  }
}
