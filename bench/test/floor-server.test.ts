import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPostgres } from '../../apps/server/test/helpers/databases.ts';
import { descendants } from '../src/process-figures.ts';
import { type ServerProcess, floorScript, startServerProcess, stopServerProcess } from '../src/server-process.ts';

interface LoopFigures {
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

let floor: ServerProcess;
const loopFigures = async (query = ''): Promise<LoopFigures> =>
  (await (await fetch(`${floor.base}/metrics?format=json${query}`)).json()) as LoopFigures;

beforeAll(async () => {
  floor = await startServerProcess({ env: {}, script: floorScript, args: ['--bot-events', '0'] });
});
afterAll(async () => {
  await stopServerProcess(floor);
});

describe("the floor's event-loop delay, which bench:server holds the server's against", () => {
  it('reports a stall of its loop in the window since the last reset, and forgets it at the next', async () => {
    await loopFigures('&reset=1');
    // The process stopped by a signal: its loop cannot run for at least these 300 ms.
    floor.child.kill('SIGSTOP');
    await sleep(300);
    floor.child.kill('SIGCONT');
    // The late tick is recorded when the resumed loop reaches its timers, which on a busy machine can
    // come after it has answered a request that arrived meanwhile: ask until the window shows it.
    let stalled = await loopFigures();
    await expect
      .poll(
        async () => {
          stalled = await loopFigures();
          return stalled.eventLoopDelayMs.max;
        },
        { timeout: 5000 },
      )
      .toBeGreaterThanOrEqual(250);
    expect(stalled.eventLoopDelayMs.p50).toBeLessThanOrEqual(stalled.eventLoopDelayMs.p99);
    expect(stalled.eventLoopDelayMs.p99).toBeLessThanOrEqual(stalled.eventLoopDelayMs.max);

    await loopFigures('&reset=1');
    await sleep(100);
    const after = await loopFigures();
    expect(after.eventLoopDelayMs.max).toBeLessThan(250);
  });

  it('answers any other request as before: 404', async () => {
    expect((await fetch(`${floor.base}/metrics`)).status).toBe(404);
  });
});

describe('the durable floor (bench:server --floor durable)', () => {
  let durable: ServerProcess;
  beforeAll(async () => {
    durable = await startServerProcess({ env: {}, script: floorScript, args: ['--bot-events', '0', '--durable'] });
  });
  afterAll(async () => {
    await stopServerProcess(durable);
  });

  it('answers a play only once it is committed to its PostgreSQL, which runs with fsync on', async () => {
    const socket = io(durable.base, { transports: ['websocket'] });
    try {
      const call = (event: string, payload: object) =>
        new Promise<{ success: boolean }>((resolve) => socket.emit(event, payload, resolve));
      expect((await call('createGame', {})).success).toBe(true);
      const database = descendants(durable.child.pid as number);
      expect(database.length).toBeGreaterThan(0);
      // Its database stopped: the play is not answered, however long it waits.
      for (const pid of database) process.kill(pid, 'SIGSTOP');
      let answered = false;
      const played = call('playCard', { cardId: 'any', pileIndex: 0 }).then((answer) => {
        answered = true;
        return answer;
      });
      await sleep(300);
      expect(answered).toBe(false);
      for (const pid of database) process.kill(pid, 'SIGCONT');
      expect((await played).success).toBe(true);

      const { durable: figures } = (await (await fetch(`${durable.base}/metrics?format=json`)).json()) as {
        durable: { committed: number; batches: number; settings: Record<string, string> };
      };
      expect(figures.committed).toBe(1);
      expect(figures.batches).toBe(1);
      expect(figures.settings).toEqual({ fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' });
    } finally {
      socket.disconnect();
    }
  });
});

describe("bench:cluster's floor node (--database-url)", () => {
  it('logs every command to a table of its own in the given database, answers /health, and drops the table at its end', async () => {
    const scratch = await scratchPostgres();
    const tables = async () => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          `select tablename as name from pg_tables where tablename like 'floor_log%'`,
        );
        const counts = await Promise.all(
          rows.map(async ({ name }) => Number((await client.query(`select count(*) from ${name}`)).rows[0].count)),
        );
        return counts;
      } finally {
        await client.end();
      }
    };
    const node = await startServerProcess({
      env: {},
      script: floorScript,
      args: ['--bot-events', '0', '--database-url', scratch.url],
    });
    try {
      const health = await fetch(`${node.base}/health`, { headers: { 'x-request-id': 'from-nginx' } });
      expect(health.status).toBe(200);
      expect(health.headers.get('x-request-id')).toBe('from-nginx');
      const socket = io(node.base, { transports: ['websocket'] });
      try {
        const call = (event: string, payload: object) =>
          new Promise<{ success: boolean }>((resolve) => socket.emit(event, payload, resolve));
        expect((await call('createGame', {})).success).toBe(true);
        expect((await call('playCard', { cardId: 'any', pileIndex: 0 })).success).toBe(true);
        // Its own table holds the play, committed before the ack.
        expect(await tables()).toEqual([1]);
        const figures = (await (await fetch(`${node.base}/metrics?format=json`)).json()) as {
          rooms: number;
          sockets: number;
          cpuMicros: number;
          rssBytes: number;
        };
        expect(figures).toMatchObject({ rooms: 1, sockets: 1 });
        expect(figures.cpuMicros).toBeGreaterThan(0);
        expect(figures.rssBytes).toBeGreaterThan(0);
        // No embedded PostgreSQL of its own.
        expect(descendants(node.child.pid as number)).toEqual([]);
      } finally {
        socket.disconnect();
      }
    } finally {
      await stopServerProcess(node);
    }
    expect(await tables()).toEqual([]);
    await scratch.drop();
  });
});
