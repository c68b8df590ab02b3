// npm run bench:matchmaking [-- --arrival 5 --people 120 --hours 48 --seed matchmaking --json]
//
// Play now in simulation (bench/src/matchmaking.ts): people with hidden skills come to the queue every
// `--arrival` seconds on average, are seated by the server's pairing rules, play their games in the
// engine with the human model, and rate each other with Glicko-2. Prints the wait to a game, the
// share of seats bots filled, the rating gap inside games and how well ratings sort people by skill,
// against its targets (docs/benchmarks.md, Matchmaking).
import { CHECKPOINTS, simulateMatchmaking } from './matchmaking.ts';
import { parseArgs, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const options = {
  people: Number(args.get('people') ?? 120),
  arrivalEverySeconds: Number(args.get('arrival') ?? 5),
  hours: Number(args.get('hours') ?? 48),
  skillSeconds: [1.2, 4.0] as const,
  sizeMix: { '2': 0.25, '3': 0.1, '4': 0.05, any: 0.6 },
  seed: args.get('seed') ?? 'matchmaking',
};
const started = performance.now();
const report = simulateMatchmaking(options);
const seconds = (performance.now() - started) / 1000;

const rho = (n: number) => report.rankCorrelation.get(n);
if (args.has('json')) {
  console.log(
    JSON.stringify({ options, ...report, rankCorrelation: Object.fromEntries(report.rankCorrelation), seconds }),
  );
} else {
  const mark = (ok: boolean) => (ok ? 'met' : 'missed');
  console.log(
    `Play now, simulated: ${options.people} people (median time per play ${options.skillSeconds.join('–')} s), ` +
      `an arrival every ${options.arrivalEverySeconds} s on average, ${options.hours} h, seed "${options.seed}" ` +
      `(${round(seconds)} s to run)\n`,
  );
  console.log('| figure | value | target |');
  console.log('|---|---|---|');
  console.log(`| arrivals / games | ${report.arrivals} / ${report.games} | |`);
  console.log(
    `| wait to a game, median / p90 | ${round(report.medianWaitSeconds)} / ${round(report.p90WaitSeconds)} s | median ≤ 10 s: ${mark(report.medianWaitSeconds <= 10)} |`,
  );
  console.log(
    `| seats filled by bots | ${round(report.botSeatPercent)}% | ≤ 30%: ${mark(report.botSeatPercent <= 30)} |`,
  );
  console.log(`| mean rating gap inside a game (people) | ${round(report.meanRatingGap)} | |`);
  for (const n of CHECKPOINTS) {
    const r = rho(n);
    const value = r?.rho === null || r === undefined ? '–' : round(r.rho, 2);
    const target = n === 30 ? `≥ 0.8: ${mark((r?.rho ?? 0) >= 0.8)}` : '';
    console.log(
      `| rank correlation of rating and skill after ${n} rated games (${r?.people ?? 0} people) | ${value} | ${target} |`,
    );
  }
}
