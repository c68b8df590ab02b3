/**
 * The cluster's ownership of games (games/redis-ownership.ts) between two or three "nodes" in this
 * process: an in-memory Redis and bus (helpers/fake-redis.ts), an in-memory games table, rooms that
 * only say which games they run, and a manual clock. Takeover, forwarding, the user's turn, lease
 * loss and Redis away, without processes or real time. What needs real processes (SIGKILL, sockets
 * across nodes, PostgreSQL's fencing) stays in cluster*.test.ts.
 */
import { SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { LEASE_TTL_MS, RENEW_EVERY_MS } from '../src/cluster/leases.ts';
import { type GameDirectory, type LocalRooms, localOwnership } from '../src/games/ownership.ts';
import { HANDOVER_WAIT_MS, RedisOwnership, SCAN_EVERY_MS, USER_TURN_MS } from '../src/games/redis-ownership.ts';
import type { Forwarded, GameRequest } from '../src/games/requests.ts';
import { type Outcome, type StoredGame, fail, ok } from '../src/games/types.ts';
import { FakeRedis, type FakeRedisClient } from './helpers/fake-redis.ts';

const quiet = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => quiet,
} as unknown as FastifyBaseLogger;

const G = '00000000-0000-4000-8000-000000000001';
const CODE = 'ABCD';
const alice = { id: 'user-alice', username: 'alice' };
const ready: GameRequest = { type: 'ready', isReady: true };

/** The games table every node shares (PostgreSQL's part: unfinished games, their codes, seats and epochs). */
class Games implements GameDirectory {
  readonly rows = new Map<string, { code: string; epoch: number; seats: string[] }>();

  add(id: string, code: string, seats: string[] = []): void {
    this.rows.set(id, { code, epoch: 1, seats });
  }

  async unfinishedIds(): Promise<string[]> {
    return [...this.rows.keys()];
  }

  async unfinishedIdByCode(code: string): Promise<string | null> {
    return [...this.rows].find(([, row]) => row.code === code.toUpperCase())?.[0] ?? null;
  }

  async unfinished(onlyId?: string): Promise<StoredGame[]> {
    const ids = onlyId === undefined ? [...this.rows.keys()] : this.rows.has(onlyId) ? [onlyId] : [];
    return ids.map((id) => ({ id, roomCode: this.rows.get(id)?.code }) as StoredGame);
  }

  async raiseEpoch(id: string): Promise<number | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    row.epoch += 1;
    return row.epoch;
  }

  async setAside(id: string): Promise<void> {
    this.rows.delete(id);
  }

  async seatedIn(userId: string): Promise<string[]> {
    return [...this.rows].filter(([, row]) => row.seats.includes(userId)).map(([id]) => id);
  }
}

let clock: ManualClock;
let redis: FakeRedis;
let games: Games;
const nodes: Node[] = [];

/** A node: its ownership, and rooms that only know which games run here and what they were asked. */
class Node {
  readonly id: string;
  readonly runs = new Set<string>();
  readonly served: Forwarded[] = [];
  readonly lost: string[] = [];
  stopping = false;
  readonly connection: FakeRedisClient;
  readonly own: RedisOwnership;

  constructor(id: string) {
    this.id = id;
    this.connection = redis.client();
    const rooms: LocalRooms = {
      stopping: () => this.stopping,
      runs: (idOrCode) => this.runs.has(idOrCode) || [...this.runs].some((g) => games.rows.get(g)?.code === idOrCode),
      seats: () => false,
      install: async (stored) => {
        this.runs.add(stored.id);
      },
      serve: async (body) => {
        this.served.push(body);
        if (body.kind === 'live') return { games: [], summary: { botGames: 0, humanGames: this.runs.size } };
        return body.kind === 'handle' ? ok({ on: this.id, type: body.request.type }) : null;
      },
      lost: (gameId) => {
        this.runs.delete(gameId);
        this.lost.push(gameId);
      },
      present: async () => new Set<string>(),
    };
    this.own = new RedisOwnership({
      rooms,
      store: games,
      redis: this.connection,
      pubsub: this.connection,
      nodeId: id,
      clock,
      log: quiet,
    });
    nodes.push(this);
  }

  async start(): Promise<this> {
    await this.own.start(() => []);
    return this;
  }

  /** Makes a new game here, as a create does: the lease first (epoch 1), then the row. */
  async create(gameId: string, code: string, seats: string[] = []): Promise<void> {
    expect(await this.own.claimNew(gameId)).toBe(true);
    games.add(gameId, code, seats);
    this.runs.add(gameId);
    for (const userId of seats) this.own.seat(userId, gameId);
    await flush();
  }

  /** SIGKILL: no hand-over; it hears nothing more and renews nothing. */
  die(): void {
    this.connection.kill();
    void this.own.handOver();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 4; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** `ms` of the clock, in steps of 10 ms, letting promise chains and due timers run in between. */
async function pass(ms: number): Promise<void> {
  for (let done = 0; done < ms; done += 10) {
    clock.advance(Math.min(10, ms - done));
    await flush();
  }
}

/** A promise's state after the work due so far: its value, or 'pending'. */
function watch<T>(promise: Promise<T>): { readonly value: T | 'pending' } {
  const state: { value: T | 'pending' } = { value: 'pending' };
  void promise.then((value) => (state.value = value));
  return state;
}

beforeEach(() => {
  clock = new ManualClock();
  redis = new FakeRedis(clock);
  games = new Games();
});

afterEach(async () => {
  for (const node of nodes.splice(0)) node.die();
  await flush();
});

describe('takeover', () => {
  it("takes over a dead node's game once its lease has run out, not before", async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    await pass(RENEW_EVERY_MS);
    a.die();
    await pass(LEASE_TTL_MS - 200);
    expect(b.runs.has(G)).toBe(false);
    await pass(200 + SCAN_EVERY_MS + 100);
    expect(b.runs.has(G)).toBe(true);
    expect(games.rows.get(G)?.epoch).toBe(2);
    expect(b.own.epochOf(G)).toBe(2);
  });

  it("a node starting up takes none of a live node's games", async () => {
    const a = await new Node('a').start();
    await a.create(G, CODE);
    await pass(RENEW_EVERY_MS);
    const b = await new Node('b').start();
    await pass(5 * LEASE_TTL_MS);
    expect(b.runs.has(G)).toBe(false);
    expect(a.lost).toEqual([]);
    expect(games.rows.get(G)?.epoch).toBe(1);
  });

  it("takes a stopping node's games at once", async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    a.stopping = true;
    await a.own.handOver();
    await pass(50);
    expect(b.runs.has(G)).toBe(true);
    expect(b.own.epochOf(G)).toBe(2);
  });

  it('takes a game nobody holds over when a request needs it, and runs the request here', async () => {
    const b = await new Node('b').start();
    games.add(G, CODE, [alice.id]);
    const answer = watch(b.own.forward(G, alice, ready, true, async () => ok('ran here')));
    await flush();
    expect(answer.value).toEqual(ok('ran here'));
    expect(b.runs.has(G)).toBe(true);
  });
});

describe('forwarding', () => {
  it('sends a request to the node that runs its game and brings the answer back', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE, [alice.id]);
    expect(await b.own.placeOfRequest(alice.id, ready)).toBe(G);
    expect(await b.own.placeOfRequest(alice.id, { type: 'join', roomCode: CODE })).toBe(G);
    expect(await b.own.seatsElsewhere(alice.id)).toEqual([G]);
    let ranHere = false;
    const answer = await b.own.forward(G, alice, ready, true, async () => {
      ranHere = true;
      return ok(null);
    });
    expect(answer).toEqual(ok({ on: 'a', type: 'ready' }));
    expect(ranHere).toBe(false);
    expect(a.served).toEqual([{ kind: 'handle', gameId: G, user: alice, request: ready, present: true }]);
    expect(b.runs.has(G)).toBe(false);
  });

  it('gathers the lobby list from every node', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    const query = { includeBotGames: true, limit: 10 };
    const list = await b.own.liveGames('viewer', query);
    expect(list.summary).toEqual({ botGames: 0, humanGames: 1 });
  });

  it('a node named as owner that does not run the game refuses, and the asker tries again until the takeover', async () => {
    const old = await new Node('a').start();
    const b = await new Node('b').start();
    await old.create(G, CODE, [alice.id]);
    await pass(RENEW_EVERY_MS);
    // Node a is killed and restarted at once: Redis still names it as the owner, but it runs nothing.
    old.die();
    const a = await new Node('a').start();
    const answer = watch(b.own.forward(G, alice, ready, true, async () => ok({ on: 'b', type: 'ready' })));
    await pass(LEASE_TTL_MS - 300);
    expect(answer.value).toBe('pending');
    expect(a.served).toEqual([]);
    await pass(300 + SCAN_EVERY_MS + 300);
    expect(answer.value).not.toBe('pending');
    const owner = a.runs.has(G) ? 'a' : 'b';
    expect(answer.value).toEqual(ok({ on: owner, type: 'ready' }));
    expect(a.runs.has(G) !== b.runs.has(G)).toBe(true);
  });

  it('gives up after HANDOVER_WAIT_MS when no node can run the game', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    // Node a's process hangs (it holds its lease, answers nothing): b's requests wait, then give up.
    a.connection.cut();
    await redis.client().set(a.connection.key('owner', G), 'a|1', 60_000);
    const answer = watch(b.own.forward(G, alice, ready, true, async () => ok(null)));
    await pass(HANDOVER_WAIT_MS - 500);
    expect(answer.value).toBe('pending');
    await pass(1000);
    expect(answer.value).toEqual(fail('RECONNECTING', SERVER_TEXTS.clusterUnavailable));
  });
});

describe("the user's turn", () => {
  it('serializes two creates of one user on two nodes', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    const order: string[] = [];
    let finishFirst: () => void = () => {};
    const first = a.own.inUserTurn(alice.id, async () => {
      order.push('a starts');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      order.push('a ends');
      return ok('a');
    });
    await flush();
    const second = b.own.inUserTurn(alice.id, async () => {
      order.push('b starts');
      return ok('b');
    });
    await pass(1000);
    expect(order).toEqual(['a starts']);
    finishFirst();
    await pass(100);
    expect(order).toEqual(['a starts', 'a ends', 'b starts']);
    expect(await first).toEqual(ok('a'));
    expect(await second).toEqual(ok('b'));
  });

  it('lapses after USER_TURN_MS when its node dies holding it', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    void a.own.inUserTurn(alice.id, () => new Promise<Outcome<unknown>>(() => {}));
    await flush();
    a.die();
    let ran = false;
    const run = async () => {
      ran = true;
      return ok(null);
    };
    // Within HANDOVER_WAIT_MS the turn is still held: refused.
    const early = watch(b.own.inUserTurn(alice.id, run));
    await pass(HANDOVER_WAIT_MS + 100);
    expect(early.value).toEqual(fail('RECONNECTING', SERVER_TEXTS.clusterUnavailable));
    expect(ran).toBe(false);
    // A later try waits for the turn to lapse, and runs then.
    await pass(USER_TURN_MS - HANDOVER_WAIT_MS - 100 - 3000);
    const late = watch(b.own.inUserTurn(alice.id, run));
    await pass(2900);
    expect(late.value).toBe('pending');
    await pass(200);
    expect(late.value).toEqual(ok(null));
    expect(ran).toBe(true);
  });
});

describe('lease loss', () => {
  it('a node that lost Redis while another took its game over stops running it, its writes fenced', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    a.connection.cut();
    await pass(LEASE_TTL_MS + SCAN_EVERY_MS + 200);
    expect(b.runs.has(G)).toBe(true);
    expect(a.own.epochOf(G)).toBe(1);
    a.connection.heal();
    await pass(50);
    expect(a.lost).toEqual([G]);
    expect(a.own.epochOf(G)).toBeNull();
    expect(b.own.epochOf(G)).toBe(2);
  });

  it('a renewal that finds the lease in another hand loses the game', async () => {
    const a = await new Node('a').start();
    await a.create(G, CODE);
    await redis.client().set(a.connection.key('owner', G), 'c|7', LEASE_TTL_MS);
    await pass(RENEW_EVERY_MS);
    expect(a.lost).toEqual([G]);
    expect(a.own.epochOf(G)).toBeNull();
  });

  it('keeps its games while its renewals fail for Redis being away, and takes their leases back when it returns empty', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    redis.down();
    await pass(2 * LEASE_TTL_MS);
    redis.restore(true);
    await pass(LEASE_TTL_MS + SCAN_EVERY_MS);
    expect(a.lost).toEqual([]);
    expect(a.own.epochOf(G)).toBe(1);
    expect(b.runs.has(G)).toBe(false);
    expect(await redis.client().get(a.connection.key('owner', G))).toBe('a|1');
  });
});

describe('Redis away', () => {
  it('after Redis returns empty, no node takes a game over before its owner, slower to reconnect, took its lease back', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE);
    redis.down();
    a.connection.cut();
    await pass(2 * LEASE_TTL_MS);
    redis.restore(true);
    await pass(LEASE_TTL_MS - 500);
    expect(b.runs.has(G)).toBe(false);
    a.connection.heal();
    await pass(LEASE_TTL_MS + SCAN_EVERY_MS);
    expect(b.runs.has(G)).toBe(false);
    expect(a.lost).toEqual([]);
    expect(await redis.client().get(a.connection.key('owner', G))).toBe('a|1');
  });

  it('refuses at once what needs another node, with the cluster text', async () => {
    const a = await new Node('a').start();
    const b = await new Node('b').start();
    await a.create(G, CODE, [alice.id]);
    redis.down();
    expect(b.own.available).toBe(false);
    const answer = watch(b.own.forward(G, alice, ready, true, async () => ok('ran here')));
    await flush();
    expect(answer.value).toEqual(fail('RECONNECTING', SERVER_TEXTS.clusterUnavailable));
    expect(await b.own.claimNew('00000000-0000-4000-8000-000000000002')).toBe(false);
    expect(await b.own.ask(G, { kind: 'bots' }, () => ({ gameId: G, isBotGame: false, bots: [] }))).toBeNull();
    await expect(b.own.inUserTurn(alice.id, async () => ok(null))).rejects.toThrow();
    expect(a.served).toEqual([]);
  });
});

describe('one server', () => {
  it('runs everything here: no fencing, no forwarding, nothing elsewhere', async () => {
    const own = localOwnership.open({ rooms: {} as LocalRooms, store: games });
    expect(localOwnership.fenced).toBe(false);
    expect(own.available).toBe(true);
    expect(own.epochOf(G)).toBeNull();
    expect(await own.claimNew(G)).toBe(true);
    expect(await own.placeOfRequest(alice.id, ready)).toBe('local');
    expect(await own.seatsElsewhere(alice.id)).toEqual([]);
    expect(await own.forward(G, alice, ready, true, async () => ok('here'))).toEqual(ok('here'));
    expect(await own.inUserTurn(alice.id, async () => ok('turn'))).toEqual(ok('turn'));
    const live = { games: [], summary: { botGames: 0, humanGames: 0 } };
    expect(await own.liveGames('viewer', { includeBotGames: true, limit: 5 }, () => live)).toBe(live);
    let away = false;
    void own.away(alice.id, async () => (away = true));
    // Called before away() returns, as the disconnect was before the port.
    expect(away).toBe(true);
  });
});
