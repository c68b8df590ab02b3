/**
 * The cluster's front: two server processes on one PostgreSQL database and the shared Redis,
 * behind nginx running deploy/nginx.conf as an operator installs it. HTTP and socket.io pass through;
 * socket.io's long-polling keeps each session on the node that made it (client-IP hash); a SIGKILLed
 * node's requests go to the other node at once, and a restarted one gets its clients back. Nothing
 * here depends on the nodes knowing of each other.
 */
import { connect as connectTcp } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/boot.ts';
import {
  type Cluster,
  clientAddressFor,
  clusterSkipReason,
  connectTo,
  healthFrom,
  register,
  startCluster,
  startRedis,
} from './helpers/cluster.ts';
import type { Client } from './helpers/sockets.ts';

const skip = clusterSkipReason({ front: true });

describe.skipIf(skip !== null)('two nodes behind nginx (deploy/nginx.conf)', () => {
  let cluster: Cluster;
  const clients: Client[] = [];
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 2 });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.close();
  });
  const front = () => {
    if (!cluster.front) throw new Error('no front');
    return cluster.front;
  };

  /** The node that answered the request nginx gave this id, after any retries. */
  const servedBy = async (requestId: string) => cluster.indexOf((await front().upstreamsOf(requestId)).at(-1) ?? '');

  it('answers /health through the front, with the request id nginx gave it', async () => {
    const res = await fetch(`${front().url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, database: 'external' });
    // nginx's $request_id reached the node, which answers with it: the two logs can be matched up.
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    expect([0, 1]).toContain(await servedBy(requestId));
  });

  it('an account registered through the front signs in through it', async () => {
    const { account, userId } = await register(front().url, 'front');
    const login = await call(front().url, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user.id).toBe(userId);
    expect(typeof login.body.data.token).toBe('string');
  });

  it('sets X-Forwarded-For to the peer: a header the client sent is not believed', async () => {
    // /metrics opens to loopback clients only (TRUST_PROXY=loopback reads the forwarded address). Had
    // nginx appended to the client's X-Forwarded-For, the node would see 203.0.113.9 and refuse.
    const res = await fetch(`${front().url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# HELP');
  });

  it("refuses bodies over the server's 64 KiB limit itself, so no node is blamed for refusing one", async () => {
    /** A login body of exactly this many bytes. */
    const body = (bytes: number) => {
      const shape = JSON.stringify({ email: '', password: 'p' });
      return JSON.stringify({ email: 'x'.repeat(bytes - shape.length), password: 'p' });
    };
    expect(body(64 * 1024)).toHaveLength(64 * 1024);
    // At the limit: the node gets it (its answer carries the request id) and judges it.
    const atLimit = await call(front().url, 'POST', '/auth/login', { body: body(64 * 1024) });
    expect(atLimit.headers.get('x-request-id')).not.toBeNull();
    expect(atLimit.status).not.toBe(413);
    // One byte over: nginx answers 413 and no node ever sees it.
    const over = await call(front().url, 'POST', '/auth/login', { body: body(64 * 1024 + 1) });
    expect(over.status).toBe(413);
    expect(over.headers.get('x-request-id')).toBeNull();
  });

  it('a long-polling socket keeps its session on one node, on either node (client-IP stickiness)', async () => {
    const { token } = await register(front().url, 'poller');
    for (const index of [0, 1]) {
      const from = await clientAddressFor(cluster, index);
      const client = await connectTo(front().url, token, { transports: ['polling'], from });
      clients.push(client);
      expect(client.socket.io.engine.transport.name).toBe('polling');
      expect((await client.waitFor('connected')).username).toBeDefined();
      // An event and its ack: a poll and a post of the same session after the handshake.
      const ack = await client.emit('requestHand', {});
      expect(ack.success).toBe(false);
      expect(typeof ack.error).toBe('string');
      // Every request of the session went to one node, the one its address hashes to. Without the
      // hash the second would meet a node that answers 400 "Session ID unknown".
      const sid = client.socket.io.engine.id;
      await expect
        .poll(
          () =>
            front()
              .accessLog()
              .split('\n')
              .filter((l) => l.includes(`sid=${sid}`)).length,
        )
        .toBeGreaterThanOrEqual(2);
      const lines = front()
        .accessLog()
        .split('\n')
        .filter((l) => l.includes(`sid=${sid}`));
      expect(lines.every((l) => l.includes(` upstream=${cluster.nodes[index]?.address} `))).toBe(true);
      expect(lines.every((l) => / 200 /.test(l))).toBe(true);
      client.close();
    }
  });

  it('a WebSocket connects through the front (Upgrade passed on) and acks events', async () => {
    const { token } = await register(front().url, 'socket');
    const client = await connectTo(front().url, token, { transports: ['websocket'] });
    clients.push(client);
    expect(client.socket.io.engine.transport.name).toBe('websocket');
    expect((await client.waitFor('connected')).username).toBeDefined();
    const ack = await client.emit('requestHand', {});
    expect(ack).toMatchObject({ success: false });
    client.close();
  });

  it('SIGKILL of a node: the next request goes on to the other node; a restarted node gets its clients back', async () => {
    const first = await fetch(`${front().url}/health`);
    const victim = await servedBy(first.headers.get('x-request-id') ?? '');
    const survivor = 1 - victim;
    expect(await cluster.kill(victim, 'SIGKILL')).toBeNull();

    // The very next request meets the dead node first, and nginx passes it on (proxy_next_upstream).
    const next = await fetch(`${front().url}/health`);
    expect(next.status).toBe(200);
    const tried = await front().upstreamsOf(next.headers.get('x-request-id') ?? '');
    expect(tried).toEqual([cluster.nodes[victim]?.address, cluster.nodes[survivor]?.address]);
    // The dead node is now out (max_fails=1): a POST goes straight to the survivor.
    const { account } = await register(front().url, 'survivor');
    const login = await call(front().url, 'POST', '/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(200);
    expect(await front().upstreamsOf(login.headers.get('x-request-id') ?? '')).toEqual([
      cluster.nodes[survivor]?.address,
    ]);

    // Same port, same NODE_ID: nginx tries it again after fail_timeout (2 s), and the hash sends
    // this client back to it.
    await cluster.restart(victim);
    expect(cluster.nodes[victim]?.running).toBe(true);
    await expect
      .poll(async () => servedBy(await healthFrom(front().url, '127.0.0.1')), { timeout: 6000, interval: 250 })
      .toBe(victim);
    // Its output runs on across both starts.
    await cluster.nodes[victim]?.waitForOutput(/MemeSlam is served on [^]*MemeSlam is served on /);
  });
});

describe.skipIf(clusterSkipReason({ front: false, ownRedis: true }) !== null)(
  "a test's own Redis (for outage tests)",
  () => {
    it('stops, refusing connections, and starts again on the same port', async () => {
      const redis = await startRedis();
      const client = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.set('ms:harness:probe', '1');
        await redis.stop();
        expect(redis.running).toBe(false);
        const refused = await new Promise<string>((resolve) => {
          const probe = connectTcp(redis.port, '127.0.0.1');
          probe.once('connect', () => resolve('connected'));
          probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        });
        expect(refused).toBe('ECONNREFUSED');
        await redis.start();
        const again = new Redis(redis.url, { lazyConnect: true });
        await again.connect();
        // Same port, and empty: nothing was saved.
        expect(await again.get('ms:harness:probe')).toBeNull();
        again.disconnect();
      } finally {
        client.disconnect();
        await redis.close();
      }
    });
  },
);
