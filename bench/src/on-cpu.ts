/**
 * bench:server --oncpu: where the machine's cores went during a measured window, from Linux's `perf`
 * sampling every CPU's clock (the cpu-clock software event, with call chains; needs `perf` on PATH
 * and the right to watch every process, as root).
 *
 * `node --cpu-prof` samples the main thread by wall time: a thread taken off its core inside a system
 * call (a `writev` that wakes the reader) still counts as busy there, and it sees neither
 * V8's helper threads nor the other processes. perf counts a sample only where a thread was on a core.
 * JavaScript frames are not named here (that needs `--perf-basic-prof`, whose names go stale as code
 * moves), so the main thread is split by the names of its native frames: V8's heap code (the
 * collector), the kernel, V8's JSON code, and the rest (JavaScript, V8's builtins and runtime, Node's
 * C++). The server's other threads are counted whole: they are mostly V8's helper, whose work is
 * mostly the collector's.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { round } from './stats.ts';

/** Samples per second and CPU. */
export const SAMPLE_HZ = 499;

/** Whose threads are whose, by process id. */
export interface Owners {
  /** The server (or the floor): its main thread has the process's id. */
  readonly server: number;
  readonly load: number;
  /** The embedded PostgreSQL's processes. */
  readonly database: ReadonlySet<number>;
}

/** Each figure is a % of one core over the window (a 2-core machine has 200). */
export interface OnCpu {
  mainThread: { total: number; gc: number; kernel: number; json: number; rest: number };
  /** The server's other threads: V8's helpers (concurrent marking, parallel scavenges, sweeping) and libuv's. */
  serverOthers: number;
  load: number;
  database: number;
  /** Everything else that ran: kernel threads, other processes (perf itself among them). */
  other: number;
  /**
   * The cores' time left: idle, or not sampled. Counted as what the others leave, not from the idle
   * task's samples: in a virtual machine a halted CPU may take no sample at all.
   */
  idle: number;
}

/** V8's heap code by name: scavenges, marking, sweeping, evacuation and compaction. */
const COLLECTOR = /^v8::internal::\S*(Scaveng|Mark|Sweep|Evacuat|CollectGarbage|Compact)/;
const JSON_CODE = /^v8::internal::(JsonStringifier|JsonParser)/;

interface Sample {
  pid: number;
  tid: number;
  /** Symbols, the sampled one first. */
  frames: string[];
  kernelLeaf: boolean;
}

/** The samples of `perf script -F pid,tid,ip,sym,dso` output. */
export function* samplesOf(script: string): Generator<Sample> {
  let current: Sample | null = null;
  for (const line of script.split('\n')) {
    const head = /^\s*(\d+)\/(\d+)\s*$/.exec(line);
    if (head) {
      if (current) yield current;
      current = { pid: Number(head[1]), tid: Number(head[2]), frames: [], kernelLeaf: false };
      continue;
    }
    // The object it ran in is the last parenthesised part: a symbol may have parentheses of its own.
    const frame = /^\s+[0-9a-f]+\s+(.*)\s+\(([^()]*)\)\s*$/.exec(line);
    if (!current || !frame) continue;
    if (current.frames.length === 0) current.kernelLeaf = frame[2] === '[kernel.kallsyms]';
    current.frames.push(frame[1] as string);
  }
  if (current) yield current;
}

/**
 * The window's split, from perf's script of it; `seconds` is the window's length and `cores` the
 * machine's. A main-thread sample with the collector's frames is the collector's whatever ran on top
 * of it (a page fault in the kernel, say); one in the kernel is the kernel's, JSON's caller or not.
 */
export function splitOnCpu(script: string, owners: Owners, seconds: number, cores: number): OnCpu {
  const main = { total: 0, gc: 0, kernel: 0, json: 0, rest: 0 };
  const counts = { serverOthers: 0, load: 0, database: 0, other: 0 };
  for (const sample of samplesOf(script)) {
    if (sample.pid === 0) continue;
    if (sample.pid === owners.server && sample.tid === owners.server) {
      main.total += 1;
      if (sample.frames.some((f) => COLLECTOR.test(f))) main.gc += 1;
      else if (sample.kernelLeaf) main.kernel += 1;
      else if (sample.frames.some((f) => JSON_CODE.test(f))) main.json += 1;
      else main.rest += 1;
    } else if (sample.pid === owners.server) counts.serverOthers += 1;
    else if (sample.pid === owners.load) counts.load += 1;
    else if (owners.database.has(sample.pid)) counts.database += 1;
    else counts.other += 1;
  }
  const core = (n: number) => round((n / (SAMPLE_HZ * seconds)) * 100, 1);
  const busy = main.total + counts.serverOthers + counts.load + counts.database + counts.other;
  return {
    mainThread: {
      total: core(main.total),
      gc: core(main.gc),
      kernel: core(main.kernel),
      json: core(main.json),
      rest: core(main.rest),
    },
    serverOthers: core(counts.serverOthers),
    load: core(counts.load),
    database: core(counts.database),
    other: core(counts.other),
    idle: round(Math.max(0, cores * 100 - core(busy)), 1),
  };
}

/** Fails at once, before any server starts, where perf is missing or may not sample every CPU. */
export function checkPerf(): void {
  const tried = spawnSync('perf', ['record', '-a', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], {
    stdio: 'ignore',
  });
  if (tried.error || tried.status !== 0) {
    throw new Error('--oncpu needs Linux perf on PATH (Debian: apt-get install linux-perf), run as root');
  }
}

/**
 * Samples every CPU for `seconds` into `file`; resolves when perf has written it. perf starts sampling
 * once it has set up (a fraction of a second), so the recording ends that much after the window.
 */
export function recordOnCpu(file: string, seconds: number): Promise<void> {
  const perf = spawn(
    'perf',
    ['record', '-a', '-g', '-e', 'cpu-clock', '-F', String(SAMPLE_HZ), '-o', file, '--', 'sleep', String(seconds)],
    { stdio: 'ignore' },
  );
  return new Promise((resolve, reject) => {
    perf.once('error', reject);
    perf.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited with ${code}`))));
  });
}

/** The split of a recording made by recordOnCpu (perf's script of it is read without blocking the load). */
export async function readOnCpu(file: string, owners: Owners, seconds: number, cores: number): Promise<OnCpu> {
  const { stdout } = await promisify(execFile)('perf', ['script', '-i', file, '-F', 'pid,tid,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 2 ** 28,
  });
  return splitOnCpu(stdout, owners, seconds, cores);
}

/**
 * Starts recording, into `dir`, a window of `seconds` that starts now: `recorded` settles once perf has
 * written it (await it before anything after the window that the recording must not catch), `read`
 * gives its split.
 */
export function recordWindow(
  dir: string,
  label: string,
  seconds: number,
): { recorded: Promise<void>; read(owners: Owners): Promise<OnCpu> } {
  const file = join(dir, `${label}.data`);
  const recorded = recordOnCpu(file, seconds);
  // Awaited after the window; a failure then is reported there, not as an unhandled rejection now.
  recorded.catch(() => {});
  return {
    recorded,
    read: async (owners) => {
      await recorded;
      return readOnCpu(file, owners, seconds, availableParallelism());
    },
  };
}
