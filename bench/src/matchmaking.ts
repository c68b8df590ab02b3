/**
 * Play now in simulation: a population with hidden skills (each person's median time per
 * play, the human model of human.ts) comes to the queue at a chosen rate, is seated by the server's
 * own pairing rules (apps/server/src/matchmaking/pairing.ts) and plays out its games in the engine;
 * games between people move Glicko-2 ratings as the server's record does. Someone offered a bot
 * game takes it. Seeded and run on simulated time: the same options give the same report.
 */
import {
  type BotDifficulty,
  INITIAL_RATING,
  type Rating,
  Random,
  matchLabel,
  rateGame,
  seedRng,
} from '@memeslam/engine';
import { type Seeker, type TableSize, pair } from '../../apps/server/src/matchmaking/pairing.ts';
import { type HumanModel, humanModel, playWithHumans } from './human.ts';
import { median, percentile } from './stats.ts';

export interface MatchmakingOptions {
  /** People in the population. */
  readonly people: number;
  /** Mean seconds between two arrivals at the queue (exponential gaps). */
  readonly arrivalEverySeconds: number;
  /** Simulated hours. */
  readonly hours: number;
  /** Hidden skills: medians of time per play, uniform in [fastest, slowest] seconds. */
  readonly skillSeconds: readonly [number, number];
  /** The share of arrivals asking for each table size. */
  readonly sizeMix: Readonly<Record<'2' | '3' | '4' | 'any', number>>;
  readonly seed: string;
}

export interface MatchmakingReport {
  readonly arrivals: number;
  readonly games: number;
  readonly medianWaitSeconds: number;
  readonly p90WaitSeconds: number;
  /** Seats filled by bots over all seats of the games played (bot offers taken included), percent. */
  readonly botSeatPercent: number;
  /** Mean absolute rating gap between two people of one game (ratings before it). */
  readonly meanRatingGap: number;
  /** Spearman's rank correlation of rating and hidden skill, over people with that many rated games. */
  readonly rankCorrelation: ReadonlyMap<number, { readonly people: number; readonly rho: number | null }>;
}

interface Person {
  readonly id: string;
  readonly model: HumanModel;
  rating: Rating;
  ratedGames: number;
  /** Rating when the person reached each checkpoint of rated games. */
  readonly at: Map<number, number>;
  busyUntil: number;
}

/** Spearman's rho (ranks with ties averaged); null for fewer than 3 values. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length < 3) return null;
  const ranks = (values: readonly number[]) => {
    const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(values.length);
    for (let i = 0; i < order.length;) {
      let j = i;
      while (
        j + 1 < order.length &&
        (order[j + 1] as readonly [number, number])[0] === (order[i] as readonly [number, number])[0]
      )
        j += 1;
      for (let k = i; k <= j; k += 1) r[(order[k] as readonly [number, number])[1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const rx = ranks(xs);
  const ry = ranks(ys);
  const mean = (rx.length - 1) / 2;
  let num = 0;
  let dx = 0;
  let dy = 0;
  for (let i = 0; i < rx.length; i += 1) {
    const a = (rx[i] as number) - mean;
    const b = (ry[i] as number) - mean;
    num += a * b;
    dx += a * a;
    dy += b * b;
  }
  return dx === 0 || dy === 0 ? null : num / Math.sqrt(dx * dy);
}

export const CHECKPOINTS = [10, 30, 100] as const;

export function simulateMatchmaking(options: MatchmakingOptions): MatchmakingReport {
  const random = new Random(seedRng(options.seed));
  const [fast, slow] = options.skillSeconds;
  const people: Person[] = Array.from({ length: options.people }, (_, i) => ({
    id: `p${i}`,
    model: humanModel(fast + random.float() * (slow - fast)),
    rating: INITIAL_RATING,
    ratedGames: 0,
    at: new Map(),
    busyUntil: 0,
  }));
  const byId = new Map(people.map((p) => [p.id, p]));
  const sizes = Object.entries(options.sizeMix) as [string, number][];
  const totalMix = sizes.reduce((sum, [, share]) => sum + share, 0);
  const drawSize = (): TableSize => {
    let x = random.float() * totalMix;
    for (const [size, share] of sizes) {
      x -= share;
      if (x < 0) return size === 'any' ? 'any' : (Number(size) as TableSize);
    }
    return 'any';
  };
  const gameSeed = () =>
    Array.from({ length: 4 }, () =>
      random
        .int(2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');

  const queue = new Map<string, Seeker>();
  const offered = new Set<string>();
  const waits: number[] = [];
  const gaps: number[] = [];
  let seats = 0;
  let botSeats = 0;
  let games = 0;
  let arrivals = 0;
  const end = options.hours * 3600_000;
  let nextArrival = 0;

  /** Plays a table out: people with their models, bots paced at `botPaceMs`; ratings move for people only. */
  const play = (table: readonly Seeker[], bots: number, botPaceMs: number | null, now: number) => {
    const seated = table.map((s) => byId.get(s.userId) as Person);
    for (const s of table) waits.push((now - s.since) / 1000);
    const pace = botPaceMs ?? 2400;
    const config = {
      seed: gameSeed(),
      seats: [
        ...seated.map((p) => ({ id: p.id, username: p.id, bot: null })),
        ...Array.from({ length: bots }, (_, k) => ({
          id: `bot-${k}`,
          username: `bot-${k}`,
          bot: matchLabel(pace) as BotDifficulty,
          botPaceMs: pace,
        })),
      ],
      cardsPerPlayer: 30 as const,
      speed: 'normal' as const,
      startAt: 0,
    };
    const outcome = playWithHumans(config, new Map(seated.map((p) => [p.id, p.model])), config.seed);
    games += 1;
    seats += seated.length + bots;
    botSeats += bots;
    for (const p of seated) p.busyUntil = now + outcome.result.durationMs;
    if (bots > 0 || seated.length < 2) return;
    for (const a of seated)
      for (const b of seated) if (a.id < b.id) gaps.push(Math.abs(a.rating.rating - b.rating.rating));
    const after = rateGame(
      outcome.result.ranking.map((r) => ({
        id: r.playerId,
        place: r.place,
        before: (byId.get(r.playerId) as Person).rating,
      })),
    );
    for (const p of seated) {
      p.rating = after.get(p.id) as Rating;
      p.ratedGames += 1;
      if ((CHECKPOINTS as readonly number[]).includes(p.ratedGames)) p.at.set(p.ratedGames, p.rating.rating);
    }
  };

  for (let now = 0; now < end; now += 1000) {
    while (nextArrival <= now) {
      nextArrival += -Math.log(1 - random.float()) * options.arrivalEverySeconds * 1000;
      const free = people.filter((p) => p.busyUntil <= now && !queue.has(p.id));
      if (free.length === 0) continue;
      const person = free[random.int(free.length)] as Person;
      arrivals += 1;
      queue.set(person.id, {
        userId: person.id,
        rating: person.rating.rating,
        size: drawSize(),
        since: now,
        address: person.id,
        paceMs: person.model.medianMs,
      });
    }
    const decisions = pair([...queue.values()], {
      now,
      meetingsWithin: () => 0,
      offered: (s) => offered.has(s.userId),
    });
    for (const d of decisions) {
      const taken = d.kind === 'table' ? d.people : [d.seeker];
      for (const s of taken) {
        queue.delete(s.userId);
        offered.delete(s.userId);
      }
      // An offer is taken at once: a game against one bot paced to the person.
      if (d.kind === 'table') play(d.people, d.bots, d.botPaceMs, now);
      else play([d.seeker], 1, d.botPaceMs, now);
    }
  }

  const sortedWaits = [...waits].sort((a, b) => a - b);
  const skill = (p: Person) => -p.model.medianMs;
  const rankCorrelation = new Map(
    CHECKPOINTS.map((n) => {
      const reached = people.filter((p) => p.at.has(n));
      return [
        n,
        {
          people: reached.length,
          rho: spearman(
            reached.map((p) => p.at.get(n) as number),
            reached.map(skill),
          ),
        },
      ] as const;
    }),
  );
  return {
    arrivals,
    games,
    medianWaitSeconds: median(waits),
    p90WaitSeconds: percentile(sortedWaits, 90),
    botSeatPercent: seats === 0 ? 0 : (100 * botSeats) / seats,
    meanRatingGap: gaps.length === 0 ? 0 : gaps.reduce((a, b) => a + b, 0) / gaps.length,
    rankCorrelation,
  };
}
