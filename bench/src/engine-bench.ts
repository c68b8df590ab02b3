// npm run bench:engine [-- --json --runs 5 --seconds 2]: engine throughput and apply() latency on one core, and
// the bytes the engine promotes per step (engine-promotion.ts).
import {
  advance,
  apply,
  type BotDifficulty,
  type GameState,
  matches,
  nextDeadline,
  playHeadless,
  Random,
  seedRng,
} from '@memeslam/engine';
import { peopleAndBots, promotedBytesPerStep } from './engine-promotion.ts';
import { median, parseArgs, percentile, round } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const runs = Number(args.get('runs') ?? '5');
const seconds = Number(args.get('seconds') ?? '2');
const seeds = new Random(seedRng('memeslam-bench'));
const nextSeed = () =>
  Array.from({ length: 4 }, () =>
    seeds
      .int(2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');

/** Full bot-vs-bot games per second, over several timed runs after a warm-up. */
function gamesPerSecond(players: number, cardsPerPlayer: number, bots: readonly BotDifficulty[]): number[] {
  const play = () =>
    playHeadless({
      seed: nextSeed(),
      seats: Array.from({ length: players }, (_, i) => ({
        id: `b${i}`,
        username: `b${i}`,
        bot: bots[i % bots.length] as BotDifficulty,
      })),
      cardsPerPlayer,
      speed: 'normal',
      startAt: 0,
    });
  for (let i = 0; i < 300; i += 1) play();
  const rates: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    let games = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      for (let i = 0; i < 20; i += 1) play();
      games += 20;
    }
    rates.push(games / ((performance.now() - start) / 1000));
  }
  return rates;
}

/**
 * apply() latency: two humans and two normal bots play out games; each human plays a matching card
 * (or a refused card) about every 2 s of game clock; every apply() call is timed on its own.
 */
function applyLatencies(samples: number): number[] {
  const times: number[] = [];
  const pick = new Random(seedRng('memeslam-apply'));
  while (times.length < samples) {
    let state: GameState = peopleAndBots(nextSeed());
    let now = 0;
    while (state.status === 'active' && times.length < samples) {
      now += 500 + pick.int(1500);
      state = advance(state, now).state;
      if (state.status !== 'active') break;
      const human = state.players[pick.int(2)] as GameState['players'][number];
      const tops = state.piles.map((p) => p.at(-1));
      let command = { type: 'playCard', playerId: human.id, cardId: human.hand[0]?.id ?? 'none', pileIndex: 0 };
      for (const card of human.hand) {
        const pileIndex = tops.findIndex((t) => t !== undefined && matches(card, t));
        if (pileIndex >= 0) command = { ...command, cardId: card.id, pileIndex };
      }
      const t0 = process.hrtime.bigint();
      const result = apply(state, command, now);
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
      state = result.state;
      if (nextDeadline(state) === null) break;
    }
  }
  return times.sort((a, b) => a - b);
}

const twoPlayer = gamesPerSecond(2, 30, ['normal']);
const sixPlayer = gamesPerSecond(6, 40, ['easy', 'normal', 'hard', 'expert']);
applyLatencies(20_000); // warm-up
const latencies = applyLatencies(200_000);
const promoted = promotedBytesPerStep();
const report = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  runs,
  secondsPerRun: seconds,
  twoPlayers30Cards: {
    medianGamesPerSecond: round(median(twoPlayer), 0),
    runs: twoPlayer.map((r) => round(r, 0)),
    target: 10_000,
  },
  sixPlayers40Cards: {
    medianGamesPerSecond: round(median(sixPlayer), 0),
    runs: sixPlayer.map((r) => round(r, 0)),
    target: 1_000,
  },
  applyMicroseconds: {
    samples: latencies.length,
    p50: round(percentile(latencies, 50), 2),
    p99: round(percentile(latencies, 99), 2),
    p999: round(percentile(latencies, 99.9), 2),
    targetP99: 20,
  },
  promotedBytesPerStep: round(promoted, 0),
};

if (args.has('json')) {
  console.log(JSON.stringify(report));
} else {
  console.log(`engine benchmark, ${report.date}, Node ${report.node}, ${runs} runs × ${seconds} s, one core`);
  console.log('| measure | median | runs | target |\n|---|---|---|---|');
  console.log(
    `| 2 players × 30 cards, bot games/s | ${report.twoPlayers30Cards.medianGamesPerSecond} | ${report.twoPlayers30Cards.runs.join(', ')} | ≥ 10,000 |`,
  );
  console.log(
    `| 6 players × 40 cards, bot games/s | ${report.sixPlayers40Cards.medianGamesPerSecond} | ${report.sixPlayers40Cards.runs.join(', ')} | ≥ 1,000 |`,
  );
  const a = report.applyMicroseconds;
  console.log(`| apply() µs p50 / p99 / p99.9 (${a.samples} calls) | ${a.p50} / ${a.p99} / ${a.p999} | | p99 ≤ 20 |`);
  console.log(
    `| bytes promoted per step, every state kept until its game's next step | ${report.promotedBytesPerStep} | | |`,
  );
}
