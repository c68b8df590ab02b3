/**
 * Admission control across a cluster (games/headroom.ts, docs/capacity.md): two server processes on
 * one PostgreSQL database and the shared Redis, each calibrated for one room. A node past its
 * headroom hands a new game to the node that has some: the game runs there, and its player, whose
 * socket stays on the first node, plays it as any split game's player does. With no headroom
 * anywhere, the start is refused at once with NO_HEADROOM.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, clusterSkipReason, connectTo, register, startCluster } from './helpers/cluster.ts';
import type { Client } from './helpers/sockets.ts';

const skip = clusterSkipReason({ front: false });

describe.skipIf(skip !== null)('admission control across a cluster', () => {
  let cluster: Cluster;
  const dir = mkdtempSync(join(tmpdir(), 'memeslam-admission-'));
  const clients: Client[] = [];
  beforeAll(async () => {
    // One room per node; the window signals' limits are out of reach here.
    const file = join(dir, 'admission.json');
    writeFileSync(file, JSON.stringify({ rooms: 1, loopDelayP99Ms: 1e6, ackP99Ms: 1e6, cpuShare: 1e6 }));
    cluster = await startCluster({ nodes: 2, front: false, env: { ADMISSION_FILE: file } });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function person(index: number, name: string) {
    const { token, userId } = await register(cluster.url(index), name);
    const client = await connectTo(cluster.url(index), token);
    clients.push(client);
    return { token, userId, client };
  }

  const admission = async (index: number) => {
    const figures = (await (await fetch(`${cluster.url(index)}/metrics?format=json`)).json()) as {
      rooms: number;
      admission: { admitting: boolean; refused: number };
    };
    return { rooms: figures.rooms, ...figures.admission };
  };

  it('a node without headroom hands the new game to one with some; with none anywhere, the start is refused at once', async () => {
    const first = await person(0, 'ad1');
    expect((await first.client.emit('createGame', {})).success).toBe(true);
    expect(await admission(0)).toMatchObject({ rooms: 1, admitting: false });

    // Node 1 is full: the second game is made on node 2, for a player whose socket is on node 1.
    const second = await person(0, 'ad2');
    const created = await second.client.emit('createGame', { withBots: true, numberOfBots: 1, maxPlayers: 2 });
    expect(created.success).toBe(true);
    expect(await admission(1)).toMatchObject({ rooms: 1, admitting: false, refused: 0 });
    expect(await admission(0)).toMatchObject({ rooms: 1, refused: 1 });
    // Played from node 1 as any split game is: the commands go to node 2, its events come back.
    expect((await second.client.emit('setPlayerReady', { isReady: true })).success).toBe(true);
    expect((await second.client.emit('startGame', {})).success).toBe(true);
    await second.client.waitFor('gameStarted');

    // Both nodes are full: refused within 100 ms, with the text the web app shows.
    const third = await person(1, 'ad3');
    const started = performance.now();
    const refused = await third.client.emit('createGame', {});
    expect(performance.now() - started).toBeLessThan(100);
    expect(refused).toMatchObject({ success: false, code: 'NO_HEADROOM', error: SERVER_TEXTS.inLine });
  });
});
