import {
  type BotDifficulty,
  BOT_DIFFICULTIES,
  type EndReason,
  type GameResult,
  type GameSpeed,
  Random,
  playHeadless,
  seedRng,
} from '@memeslam/engine';
import { type HumanModel, parseHumanSeat, playWithHumans } from './human.ts';
import { percentile, round } from './stats.ts';

export interface SimulationOptions {
  readonly players: number;
  /** Seats (a bot difficulty or `human:<median seconds per play>`), repeated to fill the seats. */
  readonly bots: readonly string[];
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
  /** By seat kind: a bot difficulty or `human:<seconds>`. */
  readonly byDifficulty: Record<string, { seats: number; wins: number; winRate: number }>;
  readonly bySeat: { seat: number; wins: number; winRate: number }[];
  readonly gameLengthSeconds: { median: number; p90: number };
  readonly deadlocksPerGame: number;
  readonly unresolvableReportsPerGame: number;
  readonly unresolvableEndingsPerGame: number;
  readonly endings: Partial<Record<EndReason, number>>;
  readonly gamesPerSecond: number;
  /** Games with a human seated: bot power-ups aimed at a player (Freeze, Reversal) in the first 10 s. */
  readonly openingPowerUps: number;
  /** Games with a human seated: a player frozen again less than 20 s after their last freeze. */
  readonly refreezesWithin20s: number;
}

/** Seats for game `g`: the difficulty list repeated, rotated by g when asked. */
export function seatingFor(options: SimulationOptions, g: number): string[] {
  const shift = options.rotate ? g % options.players : 0;
  return Array.from(
    { length: options.players },
    (_, seat) => options.bots[(seat + shift) % options.bots.length] as string,
  );
}

/** Headless games, bots and simulated humans (`human.ts`); no real waiting. */

/** Wall-clock time only measures the throughput. */
export function simulate(options: SimulationOptions, clock: () => number): SimulationReport {
  const seeds = new Random(seedRng(options.seed));
  const lengths: number[] = [];
  const difficultyWins = new Map<string, { seats: number; wins: number }>();
  const seatWins = Array.from({ length: options.players }, () => 0);
  const endings: Partial<Record<EndReason, number>> = {};
  let deadlocks = 0;
  let unresolvable = 0;
  let openingPowerUps = 0;
  let refreezes = 0;
  const started = clock();
  for (let g = 0; g < options.games; g += 1) {
    const seed = Array.from({ length: 4 }, () =>
      seeds
        .int(2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    const seating = seatingFor(options, g);
    const humans = new Map<string, HumanModel>();
    const config = {
      seed,
      seats: seating.map((kind, seat) => {
        const human = parseHumanSeat(kind);
        if (human) humans.set(`seat${seat}`, human);
        return { id: `seat${seat}`, username: `${kind}-${seat}`, bot: human ? null : (kind as BotDifficulty) };
      }),
      cardsPerPlayer: options.cardsPerPlayer,
      speed: options.speed,
      startAt: 0,
    };
    let result: GameResult;
    if (humans.size > 0) {
      const outcome = playWithHumans(config, humans, seed);
      result = outcome.result;
      deadlocks += outcome.deadlocks;
      openingPowerUps += outcome.botPowerUpsOnPlayers.filter((u) => u.at < 10_000).length;
      const lastFrozen = new Map<string, number>();
      for (const f of outcome.freezes) {
        const last = lastFrozen.get(f.on);
        if (last !== undefined && f.at - last < 20_000) refreezes += 1;
        lastFrozen.set(f.on, f.at);
      }
    } else {
      const outcome = playHeadless(config);
      result = outcome.result;
      deadlocks += outcome.deadlocks;
      unresolvable += outcome.unresolvable;
    }
    lengths.push(result.durationMs / 1000);
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
  const kinds = [
    ...BOT_DIFFICULTIES,
    ...[...difficultyWins.keys()].filter((k) => !BOT_DIFFICULTIES.includes(k as BotDifficulty)).sort(),
  ];
  for (const kind of kinds) {
    const entry = difficultyWins.get(kind);
    // Win rate per game in which the kind took part (several seats of one kind add up).
    if (entry) byDifficulty[kind] = { ...entry, winRate: round((100 * entry.wins) / games) };
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
    openingPowerUps,
    refreezesWithin20s: refreezes,
  };
}
