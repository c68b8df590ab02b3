/**
 * The bus between nodes (cluster/bus.ts) on an in-memory Redis and a manual clock: every message is
 * parsed by its schema (cluster/messages.ts) on receipt, and a refusal travels as a code. A request
 * or an answer out of schema is logged and refused with INVALID_MESSAGE; nothing throws out of the
 * listener, and the node keeps serving. The whole path between real nodes is in cluster*.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { NodeBus, NodeRefused, NodeUnreachable, type Serve } from '../src/cluster/bus.ts';
import type { NodeRequest } from '../src/cluster/messages.ts';
import { FakeRedis, type FakeRedisClient } from './helpers/fake-redis.ts';

const G = '00000000-0000-4000-8000-000000000001';
const connect = { kind: 'connect', gameId: G, userId: 'user-alice' } as const;
const live = { kind: 'live', viewerId: 'user-alice', query: { includeBotGames: true, limit: 10 } } as const;

let clock: ManualClock;
let redis: FakeRedis;

/** A node's bus, what it served and what it logged. */
function node(id: string, serve: Serve = async () => null) {
  const served: NodeRequest[] = [];
  const warnings: string[] = [];
  const connection = redis.client();
  const log = { warn: (_details: unknown, message?: string) => void warnings.push(message ?? '') };
  const bus = new NodeBus(connection, id, clock, log);
  const start = bus.start(async (request) => {
    served.push(request);
    return serve(request);
  });
  return { bus, served, warnings, connection, start };
}

/** What arrives on a channel, as parsed JSON: a raw listener standing in for a node that sends by hand. */
function listen(connection: FakeRedisClient, channel: string): unknown[] {
  const heard: unknown[] = [];
  connection.onMessage((on, text) => {
    if (on === channel) heard.push(JSON.parse(text));
  });
  void connection.subscribe(channel);
  return heard;
}

async function flush(): Promise<void> {
  for (let i = 0; i < 4; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

beforeEach(() => {
  clock = new ManualClock(1_000_000);
  redis = new FakeRedis(clock);
});

describe('a request out of schema', () => {
  it('is refused with INVALID_MESSAGE and logged, never served, and the node keeps serving', async () => {
    const a = node('a');
    await a.start;
    const raw = redis.client();
    const answers = listen(raw, raw.key('node', 'x'));
    const malformed = { kind: 'handle', gameId: G, user: { id: 7 }, request: { type: 'fly' }, present: 'yes' };
    const reached = await raw.publish(raw.key('node', 'a'), JSON.stringify({ id: 'r1', from: 'x', body: malformed }));
    expect(reached).toBe(1);
    await flush();
    expect(answers).toEqual([{ reply: 'r1', ok: false, code: 'INVALID_MESSAGE', detail: expect.any(String) }]);
    expect(a.served).toEqual([]);
    expect(a.warnings).toEqual(['a node request out of schema; refused']);

    const b = node('b');
    await b.start;
    await expect(b.bus.request('a', connect)).resolves.toBeNull();
    expect(a.served).toEqual([connect]);
  });

  it('reaches the asker as a NodeRefused with its code, not a thrown listener', async () => {
    const a = node('a');
    await a.start;
    const b = node('b');
    await b.start;
    // Sent as a typed request would never be: a kind's body without its fields.
    const request = b.bus.request('a', { kind: 'room', gameId: G } as unknown as NodeRequest & { kind: 'room' });
    await expect(request).rejects.toBeInstanceOf(NodeRefused);
    await expect(request).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(a.served).toEqual([]);
  });

  it('a message that is not JSON, or not an envelope, is logged and dropped', async () => {
    const a = node('a');
    await a.start;
    const raw = redis.client();
    await raw.publish(raw.key('node', 'a'), '{not json');
    await raw.publish(raw.key('node', 'a'), JSON.stringify({ hello: 'there' }));
    await flush();
    expect(a.warnings).toEqual(['a bus message out of schema; dropped', 'a bus message out of schema; dropped']);
    expect(a.served).toEqual([]);
  });
});

describe('an answer out of schema', () => {
  it('fails the request with INVALID_MESSAGE, logged on the asker', async () => {
    const a = node('a', async () => ({ gameId: G, rejoin: { event: 'gameRejoined', payload: 'no hand' } }));
    await a.start;
    const b = node('b');
    await b.start;
    await expect(b.bus.request('a', connect)).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(b.warnings).toEqual(['a node answered out of schema']);
  });

  it('is left out of a gather, whose other answers count', async () => {
    const good = { games: [], summary: { botGames: 1, humanGames: 2 } };
    const a = node('a', async () => good);
    await a.start;
    const b = node('b', async () => ({ games: 'none' }));
    await b.start;
    expect(await a.bus.gather(live)).toEqual([good]);
    expect(a.warnings).toEqual(['a node answered out of schema']);
  });
});

describe('refusals travel as codes', () => {
  it('NODE_STOPPING and NOT_THE_OWNER send the asker on (NodeUnreachable with the code)', async () => {
    let code: 'NODE_STOPPING' | 'NOT_THE_OWNER' = 'NODE_STOPPING';
    const a = node('a', () => Promise.reject(new NodeRefused(code)));
    await a.start;
    const b = node('b');
    await b.start;
    for (const sent of ['NODE_STOPPING', 'NOT_THE_OWNER'] as const) {
      code = sent;
      const request = b.bus.request('a', connect);
      await expect(request).rejects.toBeInstanceOf(NodeUnreachable);
      await expect(request).rejects.toMatchObject({ code: sent });
    }
  });

  it('an error thrown while serving is FAILED, whatever its text says', async () => {
    const a = node('a', () => Promise.reject(new Error('NOT_THE_OWNER node stopping')));
    await a.start;
    const b = node('b');
    await b.start;
    const request = b.bus.request('a', connect);
    await expect(request).rejects.toBeInstanceOf(NodeRefused);
    await expect(request).rejects.toMatchObject({ code: 'FAILED' });
  });

  it('a node nobody listens for is unreachable at once, with no code', async () => {
    const b = node('b');
    await b.start;
    await expect(b.bus.request('gone', connect)).rejects.toMatchObject({ code: null });
  });
});

describe('broadcasts', () => {
  it('are parsed: one out of schema is logged and its listener not called', async () => {
    const a = node('a');
    await a.start;
    const heard: string[][] = [];
    await a.bus.onBroadcast('released', (ids) => void heard.push(ids));
    const raw = redis.client();
    await raw.publish(raw.key('broadcast', 'released'), JSON.stringify({ ids: [G] }));
    await a.bus.broadcast('released', [G]);
    await flush();
    expect(heard).toEqual([[G]]);
    expect(a.warnings).toEqual(['a node broadcast out of schema; ignored']);
  });
});
