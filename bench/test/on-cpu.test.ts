import { describe, expect, it } from 'vitest';
import { SAMPLE_HZ, samplesOf, splitOnCpu } from '../src/on-cpu.ts';

const NODE = '/work/main/node_modules/node/bin/node';
const KERNEL = '[kernel.kallsyms]';

/** One sample as `perf script -F pid,tid,ip,sym,dso` prints it: the sampled frame first. */
function sample(pid: number, tid: number, frames: [symbol: string, dso: string][]): string {
  const lines = frames.map(([symbol, dso], i) => `\t    ${(0x1000 + i).toString(16)} ${symbol} (${dso})`);
  return [`   ${pid}/${tid}     `, ...lines, ''].join('\n');
}

const SERVER = 100;
const LOAD = 200;
const DATABASE = 300;

/** A window of SAMPLE_HZ samples (one second of one core), the counts chosen so each share is plain. */
function window(): string {
  const out: string[] = [];
  const add = (n: number, text: string) => {
    for (let i = 0; i < n; i += 1) out.push(text);
  };
  // The server's main thread: a scavenge under JavaScript, marking with a kernel frame on top (still
  // the collector's), a write in the kernel, JSON.stringify, and JavaScript.
  add(
    50,
    sample(SERVER, SERVER, [
      ['v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>', NODE],
      ['JS:*broadcast file:///app/local-adapter.ts:31:21', '/tmp/perf-100.map'],
    ]),
  );
  add(
    25,
    sample(SERVER, SERVER, [
      ['pvm_irq_enable', KERNEL],
      ['v8::internal::MarkCompactCollector::ProcessMarkingWorklist<(v8::internal::X)0>', NODE],
    ]),
  );
  add(
    40,
    sample(SERVER, SERVER, [
      ['tcp_sendmsg', KERNEL],
      ['__GI___writev', '/usr/lib/x86_64-linux-gnu/libc.so.6'],
      ['[unknown]', '/tmp/perf-100.map'],
    ]),
  );
  add(
    30,
    sample(SERVER, SERVER, [
      ['v8::internal::JsonStringifier::Serialize_<true>', NODE],
      ['[unknown]', '/tmp/perf-100.map'],
    ]),
  );
  add(55, sample(SERVER, SERVER, [['Builtins_KeyedLoadIC_Megamorphic', NODE]]));
  // A V8 helper thread of the server's, the load, a database backend, a kernel thread, and idle.
  add(60, sample(SERVER, SERVER + 2, [['v8::internal::ConcurrentMarking::RunMajor', NODE]]));
  add(80, sample(LOAD, LOAD, [['[unknown]', '/tmp/perf-200.map']]));
  add(20, sample(DATABASE, DATABASE, [['hash_search', '/usr/lib/postgresql/bin/postgres']]));
  add(9, sample(77, 77, [['kdamond_fn', KERNEL]]));
  add(SAMPLE_HZ - 369, sample(0, 0, [['pvm_safe_halt_hc', KERNEL]]));
  return out.join('\n');
}

const percent = (samples: number) => Math.round((samples / SAMPLE_HZ) * 1000) / 10;

describe('bench:server --oncpu: where the cores went', () => {
  it("reads perf's samples: each one's process, thread and frames, the sampled one first", () => {
    const [first, second] = [
      ...samplesOf(
        sample(5, 6, [
          ['tcp_sendmsg', KERNEL],
          ['__GI___writev', 'libc.so.6'],
        ]) + sample(5, 5, [['Builtins_LoadIC', NODE]]),
      ),
    ];
    expect(first).toEqual({ pid: 5, tid: 6, frames: ['tcp_sendmsg', '__GI___writev'], kernelLeaf: true });
    expect(second).toEqual({ pid: 5, tid: 5, frames: ['Builtins_LoadIC'], kernelLeaf: false });
  });

  it("splits the server's main thread by the collector, the kernel and JSON, and the rest of the machine by owner", () => {
    const split = splitOnCpu(window(), { server: SERVER, load: LOAD, database: new Set([DATABASE]) }, 1);
    expect(split).toEqual({
      mainThread: {
        total: percent(200),
        // Marking counts as the collector's even with a kernel frame sampled on top of it.
        gc: percent(75),
        kernel: percent(40),
        json: percent(30),
        rest: percent(55),
      },
      serverOthers: percent(60),
      load: percent(80),
      database: percent(20),
      other: percent(9),
      idle: percent(SAMPLE_HZ - 369),
    });
  });

  it('gives shares of one core over the whole window', () => {
    const split = splitOnCpu(window(), { server: SERVER, load: LOAD, database: new Set() }, 2);
    // Two seconds hold twice the samples: the same counts are half the share, and the database's
    // backend, no longer named, is "other".
    expect(split.mainThread.total).toBe(Math.round((200 / (2 * SAMPLE_HZ)) * 1000) / 10);
    expect(split.database).toBe(0);
    expect(split.other).toBe(Math.round((29 / (2 * SAMPLE_HZ)) * 1000) / 10);
  });
});
