import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { contentionFrom, cpuPressureMicros, schedStat } from '../src/process-figures.ts';

/** A process that only spins, on one given core (taskset execs it: its pid is the spinning one's). */
function spinner(core: number): ChildProcess {
  return spawn('taskset', ['-c', String(core), process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' });
}

const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
});

describe("the scheduler's figures bench:server reports", () => {
  it("reads a thread's time on a core, time waiting for one, and how often it got one", () => {
    const started = performance.now();
    const before = schedStat(process.pid);
    const cpuBefore = process.threadCpuUsage();
    while (performance.now() < started + 50);
    const after = schedStat(process.pid);
    const cpuAfter = process.threadCpuUsage();
    const wallNs = (performance.now() - started) * 1e6;
    expect(before).not.toBeNull();
    expect(after).not.toBeNull();
    if (!before || !after) return;
    // The time on a core is the thread's own CPU clock, to the microsecond. (Run and wait together do
    // not always cover the wall time of a thread that never sleeps: on a virtual machine, the time
    // the host takes the virtual core away counts as neither; a CI run measured 44.3 of 50 ms.)
    const cpuNs = (cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system)) * 1000;
    expect(Math.abs(after.runNs - before.runNs - cpuNs)).toBeLessThanOrEqual(2e6);
    expect(after.runNs).toBeGreaterThan(before.runNs);
    // schedstat's sums of a running thread are brought up to date at scheduler events, so each read may
    // lag by up to one scheduler tick (4 ms at Debian's HZ=250): a crowded full-suite run measured
    // run + wait 0.36 ms past wall + 2 ms. Run and wait may not exceed the wall time by more than that.
    expect(after.runNs - before.runNs + (after.waitNs - before.waitNs)).toBeLessThanOrEqual(wallNs + 4e6);
    expect(after.waitNs).toBeGreaterThanOrEqual(before.waitNs);
    expect(after.slices).toBeGreaterThanOrEqual(before.slices);
    expect(schedStat(2 ** 22 + 1)).toBeNull();
  });

  it("counts the wait of a main thread that shares its core with another, and the machine's CPU pressure", async () => {
    const [first, second] = [spinner(0), spinner(0)];
    running.push(first, second);
    await sleep(200);
    const pressure = cpuPressureMicros();
    expect(pressure).not.toBeNull();
    const end = contentionFrom(first.pid as number);
    await sleep(1000);
    const { mainThreadRunPercent, mainThreadWaitPercent, cpuPressurePercent } = end();
    // Two spinners on one core: each runs and waits about half the time each (it never sleeps).
    expect(mainThreadWaitPercent).toBeGreaterThanOrEqual(25);
    expect(mainThreadRunPercent).toBeGreaterThan(0);
    expect(mainThreadRunPercent).toBeLessThanOrEqual(75);
    expect((mainThreadRunPercent ?? 0) + (mainThreadWaitPercent ?? 0)).toBeGreaterThanOrEqual(90);
    // One of them is always waiting.
    expect(cpuPressurePercent).toBeGreaterThanOrEqual(50);
    expect(cpuPressureMicros()).toBeGreaterThan(pressure as number);
  });
});
