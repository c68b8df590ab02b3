/**
 * Load figures the server keeps about itself: how long socket commands take from receipt to answer,
 * event-loop delay, heap, CPU, rooms and sockets. `GET /metrics` (loopback only) reads them; the
 * server benchmark resets them between measurement windows.
 */
import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

const CAPACITY = 1 << 18;
/** The histogram samples the loop every this many ms and records whole intervals; the excess is the delay. */
const LOOP_RESOLUTION_MS = 5;

const delay = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - LOOP_RESOLUTION_MS);

export class Metrics {
  readonly #commandMs = new Float64Array(CAPACITY);
  #commands = 0;
  readonly #loop: ELDHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });

  constructor() {
    this.#loop.enable();
  }

  recordCommand(ms: number): void {
    this.#commandMs[this.#commands % CAPACITY] = ms;
    this.#commands += 1;
  }

  read<Extra extends object>(extra: Extra) {
    const kept = this.#commandMs.slice(0, Math.min(this.#commands, CAPACITY)).sort();
    const at = (q: number) =>
      kept.length === 0 ? 0 : (kept[Math.min(kept.length - 1, Math.floor(q * kept.length))] as number);
    const cpu = process.cpuUsage();
    return {
      commands: { count: this.#commands, p50Ms: at(0.5), p99Ms: at(0.99), p999Ms: at(0.999) },
      eventLoopDelayMs: {
        p50: delay(this.#loop.percentile(50)),
        p99: delay(this.#loop.percentile(99)),
        max: delay(this.#loop.max),
      },
      heapUsedBytes: process.memoryUsage().heapUsed,
      rssBytes: process.memoryUsage.rss(),
      cpuMicros: cpu.user + cpu.system,
      uptimeMs: Math.round(process.uptime() * 1000),
      ...extra,
    };
  }

  reset(): void {
    this.#commands = 0;
    this.#loop.reset();
  }

  close(): void {
    this.#loop.disable();
  }
}
