/**
 * Admission control (docs/capacity.md): whether this node may start another game. It watches its own
 * headroom over short windows — event-loop delay p99, socket-ack p99, CPU share of a core — and the
 * rooms it holds, against limits measured on this machine by a calibration run
 * (`npm run bench:server -- --calibrate`, which writes the admission file). Past any limit it starts
 * no new game until every signal is back under HYSTERESIS of its limit; games in play are never
 * touched. Without a calibration the node admits every game up to the room ceiling, as before.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import type { Signals } from '../metrics.ts';

/** The figures a calibration run measured at the largest load this node carries within its target. */
export const admissionLimitsSchema = z.object({
  /** Rooms (lobbies and games in play) held at the admitted load. */
  rooms: z.number().int().positive(),
  /** The limits of the window signals: the calibrated load's own, with the calibration's margin. */
  loopDelayP99Ms: z.number().positive(),
  ackP99Ms: z.number().positive(),
  /** Of one core (process.cpuUsage over wall time). */
  cpuShare: z.number().positive(),
  /** How the file was made, for the operator reading it. */
  calibratedWith: z.string().optional(),
});
export type AdmissionLimits = z.infer<typeof admissionLimitsSchema>;

/**
 * Refusing, a node admits again once every signal is under this share of its limit. The signals'
 * window is metrics.ts's SIGNAL_WINDOW_MS: the decision changes at most once per window.
 */
export const HYSTERESIS = 0.8;

/** Reads an admission file (its figures checked); null when there is none. A malformed one is an error. */
export function readAdmissionFile(path: string): AdmissionLimits | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = admissionLimitsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues[0]?.message ?? 'not an admission file'}`);
  return parsed.data;
}

export class Headroom {
  readonly #limits: AdmissionLimits | null;
  /** Rooms this node may hold: the calibrated load's (the room ceiling is the game service's own); null uncalibrated. */
  readonly #roomLimit: number | null;
  #refusing = false;
  #last: Signals = { loopDelayP99Ms: 0, ackP99Ms: 0, cpuShare: 0 };
  #refused = 0;

  constructor(limits: AdmissionLimits | null) {
    this.#limits = limits;
    this.#roomLimit = limits?.rooms ?? null;
  }

  /** A window ended with these signals: the decision for the next window. */
  observe(signals: Signals): void {
    this.#last = signals;
    const limits = this.#limits;
    if (!limits) return;
    const share = this.#refusing ? HYSTERESIS : 1;
    const over =
      signals.loopDelayP99Ms > limits.loopDelayP99Ms * share ||
      signals.ackP99Ms > limits.ackP99Ms * share ||
      signals.cpuShare > limits.cpuShare * share;
    this.#refusing = over;
  }

  /** Whether a new game may start here while this node holds `rooms` rooms (a refusal is counted). */
  admits(rooms: number): boolean {
    const admitted = this.#admitting(rooms);
    if (!admitted) this.#refused += 1;
    return admitted;
  }

  #admitting(rooms: number): boolean {
    return !this.#refusing && (this.#roomLimit === null || rooms < this.#roomLimit);
  }

  /** For /metrics and other nodes: whether new games start, the rooms allowed, refusals so far, the last window. */
  state(rooms: number): { admitting: boolean; roomLimit: number | null; refused: number; signals: Signals } {
    return {
      admitting: this.#admitting(rooms),
      roomLimit: this.#roomLimit,
      refused: this.#refused,
      signals: this.#last,
    };
  }
}
