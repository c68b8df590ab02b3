import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    await sleep(50);
    const stalled = await loopFigures('&reset=1');
    expect(stalled.eventLoopDelayMs.max).toBeGreaterThanOrEqual(250);
    expect(stalled.eventLoopDelayMs.p50).toBeLessThanOrEqual(stalled.eventLoopDelayMs.p99);
    expect(stalled.eventLoopDelayMs.p99).toBeLessThanOrEqual(stalled.eventLoopDelayMs.max);

    await sleep(100);
    const after = await loopFigures();
    expect(after.eventLoopDelayMs.max).toBeLessThan(250);
  });

  it('answers any other request as before: 404', async () => {
    expect((await fetch(`${floor.base}/metrics`)).status).toBe(404);
  });
});
