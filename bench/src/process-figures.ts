/**
 * CPU time and memory of a process's descendants, read from Linux's /proc: the embedded PostgreSQL
 * (postmaster and backends) that the server process started. Memory is PSS (each shared page split
 * among the processes that map it), so the shared buffers every backend maps count once. And what the
 * scheduler did: how long a thread was ready to run but waited for a core, and how long some task on
 * the machine did (Linux's pressure stall information).
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function stat(pid: number): { ppid: number; cpuTicks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state, ppid (4th field), … utime (14th), stime (15th).
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (not root itself). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** User + system CPU seconds of the processes (those gone since are not counted). */
export function cpuSeconds(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (stat(pid)?.cpuTicks ?? 0), 0) / TICKS_PER_SECOND;
}

/** Their proportional set size, in MB. */
export function pssMB(pids: readonly number[]): number {
  let kB = 0;
  for (const pid of pids) {
    try {
      kB += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kB / 1024;
}

/** A process's resident set size (VmRSS), in MB; 0 once it is gone. */
export function rssMB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** CPU clock ticks of each of the processes now. */
export function cpuTicks(pids: readonly number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) ticks.set(pid, s.cpuTicks);
  }
  return ticks;
}

/**
 * CPU seconds used between two readings by the processes of the second: each one's growth, a process
 * started in between counted whole. One that exited in between is missed (its time went with it).
 */
export function cpuSecondsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / TICKS_PER_SECOND;
}

/**
 * One thread's scheduler figures (by default a process's main thread, whose id is the process's):
 * nanoseconds on a core, nanoseconds ready to run but waiting for one, and how many times it was given
 * one (/proc/<pid>/task/<tid>/schedstat). Null once the thread is gone, or where the kernel keeps none.
 */
export function schedStat(pid: number, tid = pid): { runNs: number; waitNs: number; slices: number } | null {
  let fields: number[];
  try {
    fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  } catch {
    return null;
  }
  const [runNs = NaN, waitNs = NaN, slices = NaN] = fields;
  return [runNs, waitNs, slices].some(Number.isNaN) ? null : { runNs, waitNs, slices };
}

/**
 * Microseconds since boot during which at least one runnable task on the machine waited for a core
 * (the "some" total of /proc/pressure/cpu); null where the kernel has no pressure stall information.
 */
export function cpuPressureMicros(): number | null {
  try {
    const total = /^some .*\btotal=(\d+)$/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1];
    return total === undefined ? null : Number(total);
  } catch {
    return null;
  }
}

/**
 * Contention over a window: the share of it a process's main thread ran and waited for a core, and
 * the machine's CPU pressure.
 */
export interface Contention {
  /** % of the window the main thread was on a core. */
  mainThreadRunPercent: number | null;
  /** % of the window the main thread was ready to run but had no core. */
  mainThreadWaitPercent: number | null;
  /** % of the window during which some runnable task on the machine waited for a core. */
  cpuPressurePercent: number | null;
}

/** Starts a window for `pid`; the function it returns ends it and gives the window's figures. */
export function contentionFrom(pid: number): () => Contention {
  const thread = schedStat(pid);
  const pressure = cpuPressureMicros();
  const started = performance.now();
  return () => {
    const wallMs = performance.now() - started;
    const threadNow = schedStat(pid);
    const pressureNow = cpuPressureMicros();
    const percent = (ms: number) => Math.round((ms / wallMs) * 1000) / 10;
    return {
      mainThreadRunPercent: thread && threadNow ? percent((threadNow.runNs - thread.runNs) / 1e6) : null,
      mainThreadWaitPercent: thread && threadNow ? percent((threadNow.waitNs - thread.waitNs) / 1e6) : null,
      cpuPressurePercent: pressure !== null && pressureNow !== null ? percent((pressureNow - pressure) / 1000) : null,
    };
  };
}
