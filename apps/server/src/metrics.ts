/**
 * What the server tells about itself. `GET /metrics` answers in Prometheus' text format (prom-client):
 * socket-command ack latency (a histogram), event-loop delay, live rooms and sockets, games recorded,
 * tournament payouts, rate-limit refusals, heap and CPU. `GET /metrics?format=json` gives the server
 * benchmark its windowed figures (percentiles of commands, loop delay and the game log; `reset=1`
 * starts a new window). Both answer only on loopback or with `METRICS_TOKEN` as a bearer token.
 */
import { timingSafeEqual } from 'node:crypto';
import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const CAPACITY = 1 << 18;
/** The histogram samples the loop every this many ms and records whole intervals; the excess is the delay. */
const LOOP_RESOLUTION_MS = 5;
/** Ack latency buckets (seconds): a command should be acked within a few ms; the tail up to 2.5 s. */
const ACK_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const delay = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - LOOP_RESOLUTION_MS);

export type RateLimitScope = 'http' | 'socket';
export type PayoutResult = 'paid' | 'failed';

/** Figures read when /metrics is scraped. */
export interface LiveFigures {
  rooms(): number;
  sockets(): number;
  /** What the server holds for games, users and sockets (counts by kind). */
  held(): Record<string, number>;
  /** Admission control (games/headroom.ts), with the last window's signals. */
  admission(): { admitting: boolean; refused: number; signals: Signals };
}

/** One window's signals of the process's headroom (admission control, games/headroom.ts). */
export interface Signals {
  readonly loopDelayP99Ms: number;
  readonly ackP99Ms: number;
  /** Of one core (process.cpuUsage over wall time). */
  readonly cpuShare: number;
}

/** The headroom signals' window: admission control's decision changes at most once per window. */
export const SIGNAL_WINDOW_MS = 2000;

export class Metrics {
  readonly registry = new Registry();
  readonly #commandMs = new Float64Array(CAPACITY);
  #commands = 0;
  readonly #loop: ELDHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  /** Loop delay since the last scrape: the gauges show the window between two scrapes. */
  readonly #scrapeLoop: ELDHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  #live: LiveFigures = {
    rooms: () => 0,
    sockets: () => 0,
    held: () => ({}),
    admission: () => ({ admitting: true, refused: 0, signals: { loopDelayP99Ms: 0, ackP99Ms: 0, cpuShare: 0 } }),
  };
  #windows: SignalWindows | null = null;
  readonly #ack: Histogram;
  readonly #gamesRecorded: Counter;
  readonly #payouts: Counter<'result'>;
  readonly #refusals: Counter<'scope'>;

  constructor() {
    this.#loop.enable();
    this.#scrapeLoop.enable();
    const registers = [this.registry];
    this.#ack = new Histogram({
      name: 'memeslam_socket_ack_seconds',
      help: 'Socket commands: time from receipt to the ack leaving (durable first)',
      buckets: ACK_BUCKETS,
      registers,
    });
    this.#gamesRecorded = new Counter({
      name: 'memeslam_games_recorded_total',
      help: 'Finished games written to the history (results, seats, replay, stats)',
      registers,
    });
    this.#payouts = new Counter({
      name: 'memeslam_tournament_payouts_total',
      help: 'Tournament payout attempts by result (paid: the ledger was credited; failed: retried later)',
      labelNames: ['result'],
      registers,
    });
    for (const result of ['paid', 'failed'] as const) this.#payouts.inc({ result }, 0);
    this.#refusals = new Counter({
      name: 'memeslam_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (http: answered 429; socket: over the event budget)',
      labelNames: ['scope'],
      registers,
    });
    for (const scope of ['http', 'socket'] as const) this.#refusals.inc({ scope }, 0);
    const live = () => this.#live;
    const loop = this.#scrapeLoop;
    for (const [name, read] of [
      ['p50', () => delay(loop.percentile(50))],
      ['p99', () => delay(loop.percentile(99))],
      ['max', () => delay(loop.max)],
    ] as const) {
      new Gauge({
        name: `memeslam_event_loop_delay_${name}_seconds`,
        help: `Event-loop delay since the previous scrape, ${name === 'max' ? 'maximum' : name}`,
        registers,
        collect() {
          this.set(loop.count === 0 ? 0 : read() / 1000);
        },
      });
    }
    new Gauge({
      name: 'memeslam_live_rooms',
      help: 'Game rooms open on this server (lobbies and games in play)',
      registers,
      collect() {
        this.set(live().rooms());
      },
    });
    new Gauge({
      name: 'memeslam_sockets',
      help: 'socket.io connections open on this server',
      registers,
      collect() {
        this.set(live().sockets());
      },
    });
    new Gauge({
      name: 'memeslam_admitting_games',
      help: 'Admission control: 1 while this node starts new games, 0 while it refuses them (docs/capacity.md)',
      registers,
      collect() {
        this.set(live().admission().admitting ? 1 : 0);
      },
    });
    new Gauge({
      name: 'memeslam_games_refused_total',
      help: 'Admission control: new games this node refused for want of headroom since it started',
      registers,
      collect() {
        this.set(live().admission().refused);
      },
    });
    new Gauge({
      name: 'memeslam_heap_used_bytes',
      help: 'V8 heap in use',
      registers,
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
    new Gauge({
      name: 'memeslam_resident_memory_bytes',
      help: 'Resident set size of the process',
      registers,
      collect() {
        this.set(process.memoryUsage.rss());
      },
    });
    new Gauge({
      name: 'memeslam_cpu_seconds',
      help: 'CPU time used by the process (user + system) since it started',
      registers,
      collect() {
        const cpu = process.cpuUsage();
        this.set((cpu.user + cpu.system) / 1e6);
      },
    });
  }

  /** Where the rooms and sockets gauges read from (set once the gateway exists). */
  set live(figures: LiveFigures) {
    this.#live = figures;
  }

  recordCommand(ms: number): void {
    this.#commandMs[this.#commands % CAPACITY] = ms;
    this.#commands += 1;
    this.#ack.observe(ms / 1000);
    this.#windows?.ack(ms);
  }

  /** Calls `observe` with the headroom signals of each window (admission control). */
  watch(observe: (signals: Signals) => void, windowMs = SIGNAL_WINDOW_MS): void {
    this.#windows = new SignalWindows(observe, windowMs);
  }

  gameRecorded(): void {
    this.#gamesRecorded.inc();
  }

  payout(result: PayoutResult): void {
    this.#payouts.inc({ result });
  }

  rateLimited(scope: RateLimitScope): void {
    this.#refusals.inc({ scope });
  }

  /** The Prometheus text exposition; the loop-delay gauges then start a new window. */
  async prometheus(): Promise<{ contentType: string; text: string }> {
    const text = await this.registry.metrics();
    this.#scrapeLoop.reset();
    return { contentType: this.registry.contentType, text };
  }

  /** The benchmark's figures (JSON): percentiles over the window since the last reset. */
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
      rooms: this.#live.rooms(),
      sockets: this.#live.sockets(),
      admission: this.#live.admission(),
      // A soak's check that nothing outlives its game: the server's holdings, and the process's timers and handles.
      held: { ...this.#live.held(), ...activeResources() },
      ...extra,
    };
  }

  reset(): void {
    this.#commands = 0;
    this.#loop.reset();
  }

  close(): void {
    this.#loop.disable();
    this.#scrapeLoop.disable();
    this.#windows?.close();
  }
}
/**
 * The process's own signals, window by window: loop delay from a histogram reset each window, the
 * acks recorded in it (`ack`), and CPU from process.cpuUsage. `observe` gets each window's figures.
 */
class SignalWindows {
  readonly #loop: ELDHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  #acks: number[] = [];
  #cpu = process.cpuUsage();
  #at = performance.now();
  readonly #timer: NodeJS.Timeout;

  constructor(observe: (signals: Signals) => void, windowMs: number) {
    this.#loop.enable();
    this.#timer = setInterval(() => observe(this.#take()), windowMs);
    this.#timer.unref();
  }

  ack(ms: number): void {
    this.#acks.push(ms);
  }

  #take(): Signals {
    const now = performance.now();
    const cpu = process.cpuUsage(this.#cpu);
    const acks = this.#acks.sort((a, b) => a - b);
    const signals = {
      loopDelayP99Ms: this.#loop.count === 0 ? 0 : delay(this.#loop.percentile(99)),
      ackP99Ms: acks.length === 0 ? 0 : (acks[Math.min(acks.length - 1, Math.floor(0.99 * acks.length))] as number),
      cpuShare: (cpu.user + cpu.system) / 1000 / Math.max(1, now - this.#at),
    };
    this.#loop.reset();
    this.#acks = [];
    this.#cpu = process.cpuUsage();
    this.#at = now;
    return signals;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#loop.disable();
  }
}

/** The process's active timers, immediates, sockets and other handles, by kind (process.getActiveResourcesInfo). */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[`active${kind}`] = (counts[`active${kind}`] ?? 0) + 1;
  return counts;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may read /metrics: a client whose address (as trustProxy makes it out) is loopback, or one that
 * presents METRICS_TOKEN as its bearer token.
 */
export function mayReadMetrics(ip: string, authorization: string | undefined, token: string | null): boolean {
  if (LOOPBACK.has(ip)) return true;
  if (!token || !authorization?.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
