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
    20,
    sample(SERVER, SERVER, [
      ['v8::internal::JsonStringifier::Serialize_<true>', NODE],
      ['[unknown]', '/tmp/perf-100.map'],
    ]),
  );
  add(10, sample(SERVER, SERVER, [['v8::internal::JsonParser<unsigned char>::ParseJsonValue', NODE]]));
  // A write JSON.stringify's caller made: the kernel's. Sweeping with a symbol holding " (": the collector's.
  add(
    5,
    sample(SERVER, SERVER, [
      ['copy_user_generic', KERNEL],
      ['v8::internal::JsonStringifier::Serialize_<false>', NODE],
    ]),
  );
  add(5, sample(SERVER, SERVER, [['v8::internal::Sweeper::RawSweep(v8::internal::PageMetadata*) (clone)', NODE]]));
  // V8 code whose name only looks like the collector's is not: "Mark" must follow v8::internal::.
  add(5, sample(SERVER, SERVER, [['Builtins_MarkAsUsed', NODE]]));
  add(40, sample(SERVER, SERVER, [['Builtins_KeyedLoadIC_Megamorphic', NODE]]));
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
        ]) + sample(5, 5, [['v8::internal::Foo<void (v8::internal::Bar)>', NODE]]),
      ),
    ];
    expect(first).toEqual({ pid: 5, tid: 6, frames: ['tcp_sendmsg', '__GI___writev'], kernelLeaf: true });
    expect(second).toEqual({
      pid: 5,
      tid: 5,
      frames: ['v8::internal::Foo<void (v8::internal::Bar)>'],
      kernelLeaf: false,
    });
  });

  it("splits the server's main thread by the collector, the kernel and JSON, and the rest of the machine by owner", () => {
    const split = splitOnCpu(window(), { server: SERVER, load: LOAD, database: new Set([DATABASE]) }, 1, 1);
    expect(split).toEqual({
      mainThread: {
        total: percent(200),
        // Marking counts as the collector's even with a kernel frame sampled on top of it.
        gc: percent(80),
        kernel: percent(45),
        json: percent(30),
        rest: percent(45),
      },
      serverOthers: percent(60),
      load: percent(80),
      database: percent(20),
      other: percent(9),
      idle: percent(SAMPLE_HZ - 369),
    });
  });

  it("counts idle as what the others leave of the cores, not from the idle task's samples", () => {
    // A halted CPU in a virtual machine may take no sample: without the idle task's samples the split
    // is the same. Over two seconds of two cores the same counts are a quarter of the machine.
    const busyOnly = window()
      .split('\n\n')
      .filter((text) => !/^\s*0\/0/.test(text))
      .join('\n\n');
    const split = splitOnCpu(busyOnly, { server: SERVER, load: LOAD, database: new Set() }, 2, 2);
    const share = (samples: number) => Math.round((samples / (2 * SAMPLE_HZ)) * 1000) / 10;
    expect(split.mainThread.total).toBe(share(200));
    // The database's backend, not named, is "other".
    expect(split.database).toBe(0);
    expect(split.other).toBe(share(29));
    // 369 samples ran: 200 of the main thread, 60 of the helper, 80 of the load, 29 others.
    expect(split.idle).toBe(Math.round((200 - share(369)) * 10) / 10);
  });
});
