import {
  type BotDifficulty,
  BOT_DIFFICULTIES,
  type EndReason,
  type GameSpeed,
  Random,
  playHeadless,
  seedRng,
} from '@memeslam/engine';
import { percentile, round } from './stats.ts';

export interface SimulationOptions {
  readonly players: number;
  /** Seat difficulties, repeated to fill the seats. */
  readonly bots: readonly BotDifficulty[];
  readonly games: number;
  readonly speed: GameSpeed;
  readonly cardsPerPlayer: number;
  /** Seeds of all games derive from it, so a run is repeatable. */
  readonly seed: string;
  /** Rotate the seating every game so that each difficulty sits in each seat equally often. */
  readonly rotate: boolean;
}

export interface SimulationReport {
  readonly options: SimulationOptions;
  readonly games: number;
  readonly byDifficulty: Record<string, { seats: number; wins: number; winRate: number }>;
  readonly bySeat: { seat: number; wins: number; winRate: number }[];
  readonly gameLengthSeconds: { median: number; p90: number };
  readonly deadlocksPerGame: number;
  readonly unresolvableReportsPerGame: number;
  readonly unresolvableEndingsPerGame: number;
  readonly endings: Partial<Record<EndReason, number>>;
  readonly gamesPerSecond: number;
}

/** Seats for game `g`: the difficulty list repeated, rotated by g when asked. */
export function seatingFor(options: SimulationOptions, g: number): BotDifficulty[] {
  const shift = options.rotate ? g % options.players : 0;
  return Array.from(
    { length: options.players },
    (_, seat) => options.bots[(seat + shift) % options.bots.length] as BotDifficulty,
  );
}

/** Headless bot-only games, no real waiting; wall-clock time only measures the throughput. */
export function simulate(options: SimulationOptions, clock: () => number): SimulationReport {
  const seeds = new Random(seedRng(options.seed));
  const lengths: number[] = [];
  const difficultyWins = new Map<string, { seats: number; wins: number }>();
  const seatWins = Array.from({ length: options.players }, () => 0);
  const endings: Partial<Record<EndReason, number>> = {};
  let deadlocks = 0;
  let unresolvable = 0;
  const started = clock();
  for (let g = 0; g < options.games; g += 1) {
    const seed = Array.from({ length: 4 }, () =>
      seeds
        .int(2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    const seating = seatingFor(options, g);
    const outcome = playHeadless({
      seed,
      seats: seating.map((bot, seat) => ({ id: `seat${seat}`, username: `${bot}-${seat}`, bot })),
      cardsPerPlayer: options.cardsPerPlayer,
      speed: options.speed,
      startAt: 0,
    });
    const { result } = outcome;
    lengths.push(result.durationMs / 1000);
    deadlocks += outcome.deadlocks;
    unresolvable += outcome.unresolvable;
    endings[result.reason] = (endings[result.reason] ?? 0) + 1;
    const winnerSeat = result.winnerId === null ? -1 : Number(result.winnerId.slice(4));
    seating.forEach((bot, seat) => {
      const entry = difficultyWins.get(bot) ?? { seats: 0, wins: 0 };
      entry.seats += 1;
      if (seat === winnerSeat) {
        entry.wins += 1;
        seatWins[seat] = (seatWins[seat] ?? 0) + 1;
      }
      difficultyWins.set(bot, entry);
    });
  }
  const elapsedMs = clock() - started;
  lengths.sort((a, b) => a - b);
  const games = options.games;
  const byDifficulty: SimulationReport['byDifficulty'] = {};
  for (const bot of BOT_DIFFICULTIES) {
    const entry = difficultyWins.get(bot);
    // Win rate per game in which the difficulty took part (several seats of one difficulty add up).
    if (entry) byDifficulty[bot] = { ...entry, winRate: round((100 * entry.wins) / games) };
  }
  return {
    options,
    games,
    byDifficulty,
    bySeat: seatWins.map((wins, seat) => ({ seat, wins, winRate: round((100 * wins) / games) })),
    gameLengthSeconds: { median: round(percentile(lengths, 50)), p90: round(percentile(lengths, 90)) },
    deadlocksPerGame: round(deadlocks / games, 3),
    unresolvableReportsPerGame: round(unresolvable / games, 3),
    unresolvableEndingsPerGame: round((endings.deadlock ?? 0) / games, 3),
    endings,
    gamesPerSecond: round(games / (elapsedMs / 1000), 0),
  };
}
