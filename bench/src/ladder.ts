// npm run ladder [-- --games 2000 --json --check]: the README's bot-ladder tables, measured.
// --json prints everything as one JSON object; --check exits 1 when a band (ladder-bands.ts) is missed.
import { BOT_DIFFICULTIES, type BotDifficulty } from '@memeslam/engine';
import { HUMAN_PRESETS, type HumanPreset } from './human.ts';
import { ladderBands, type LadderFigures } from './ladder-bands.ts';
import { simulateMatch } from './match.ts';
import { type SimulationOptions, simulate } from './simulation.ts';
import { parseArgs } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const games = Number(args.get('games') ?? '2000');
const clock = () => performance.now();
const base: Omit<SimulationOptions, 'players' | 'bots' | 'rotate'> = {
  games,
  speed: 'normal',
  cardsPerPlayer: 30,
  seed: 'memeslam-ladder',
};

// A simulated person against one bot, 2 players, seats alternating.
const humans: LadderFigures['humans'] = {};
for (const [model, seconds] of Object.entries(HUMAN_PRESETS) as [HumanPreset, number][]) {
  humans[model] = {};
  for (const bot of BOT_DIFFICULTIES) {
    const report = simulate({ ...base, players: 2, bots: [`human:${seconds}`, bot], rotate: true }, clock);
    (humans[model] as LadderFigures['humans'][string])[bot] = {
      winRate: report.byDifficulty[`human:${seconds}`]?.winRate ?? 0,
      median: report.gameLengthSeconds.median,
      p90: report.gameLengthSeconds.p90,
      openingPowerUps: report.openingPowerUps,
      refreezes: report.refreezesWithin20s,
    };
  }
}

// "Match me": per model, 400 simulated people play 5 games to build their recorded pace, then 5 counted
// games (2000 per model) against a bot matched to it.
const match: LadderFigures['match'] = {};
for (const [model, seconds] of Object.entries(HUMAN_PRESETS)) {
  const people = Math.max(1, Math.round(games / 5));
  match[model] = simulateMatch({ human: seconds, people, warmUp: 5, counted: 5, seed: `memeslam-match-${model}` });
}

// Head to head, 2 players, seats alternating: win rate of the row difficulty against the column.
const headToHead: Record<string, Record<string, number>> = {};
for (const a of BOT_DIFFICULTIES) {
  headToHead[a] = {};
  for (const b of BOT_DIFFICULTIES) {
    if (a === b) continue;
    const report = simulate({ ...base, players: 2, bots: [a, b], rotate: true }, clock);
    (headToHead[a] as Record<string, number>)[b] = report.byDifficulty[a]?.winRate ?? 0;
  }
}

// Seat fairness with equal bots, and game lengths for normal bots at normal speed.
const fairness = BOT_DIFFICULTIES.map((bot) => {
  const report = simulate({ ...base, players: 2, bots: [bot, bot], rotate: false }, clock);
  return { bot, firstSeatWinRate: report.bySeat[0]?.winRate ?? 0 };
});
const lengths = [2, 3, 4].map((players) => {
  const report = simulate({ ...base, players, bots: ['normal'], rotate: false }, clock);
  return { players, ...report.gameLengthSeconds, deadlocksPerGame: report.deadlocksPerGame };
});

const ordered = BOT_DIFFICULTIES.slice(1).every((bot, k) => {
  const below = BOT_DIFFICULTIES[k] as BotDifficulty;
  return (headToHead[bot]?.[below] ?? 0) >= 60;
});
const figures: LadderFigures = { games, humans, match, headToHead, ordered };
const bands = ladderBands(figures);
const allInBand = bands.every((b) => b.ok);

if (args.has('json')) {
  console.log(JSON.stringify({ ...figures, fairness, lengths, bands, allInBand }));
} else {
  console.log(
    `A simulated person against one bot, 2 players, 30 cards, normal speed, ${games} games per cell (seats alternating): the person's win %, game length median / p90 in game-clock seconds`,
  );
  console.log(`| person (median per play) | ${BOT_DIFFICULTIES.join(' | ')} |`);
  console.log(`|---|${BOT_DIFFICULTIES.map(() => '---').join('|')}|`);
  for (const [model, seconds] of Object.entries(HUMAN_PRESETS)) {
    const row = BOT_DIFFICULTIES.map((b) => {
      const c = humans[model]?.[b];
      return c ? `${c.winRate}% · ${c.median} / ${c.p90} s` : '';
    });
    console.log(`| **${model}** (${seconds} s) | ${row.join(' | ')} |`);
  }
  console.log(
    `\n"Match me": each simulated person plays 5 games, then 5 counted games against a bot matched to their recorded pace`,
  );
  console.log('| person | counted games | recorded pace (median) | person wins |\n|---|---|---|---|');
  for (const [model, m] of Object.entries(match)) {
    console.log(`| **${model}** (${m.human} s) | ${m.games} | ${m.recordedPaceMs} ms | ${m.winRate}% |`);
  }
  console.log(`\nLadder bands`);
  console.log('| what | measured | band | |\n|---|---|---|---|');
  for (const b of bands) console.log(`| ${b.what} | ${b.value} | ${b.band} | ${b.ok ? 'yes' : 'NO'} |`);
  console.log(
    `\nHead to head, 2 players, 30 cards, normal speed, ${games} games per pair (seats alternating): win % of the row against the column`,
  );
  console.log(`| | ${BOT_DIFFICULTIES.join(' | ')} |`);
  console.log(`|---|${BOT_DIFFICULTIES.map(() => '---').join('|')}|`);
  for (const a of BOT_DIFFICULTIES) {
    console.log(`| **${a}** | ${BOT_DIFFICULTIES.map((b) => (a === b ? '–' : `${headToHead[a]?.[b]}`)).join(' | ')} |`);
  }
  console.log(`\nEqual bots, 2 players, ${games} games: first-seat win %`);
  console.log(
    `| ${fairness.map((f) => f.bot).join(' | ')} |\n|${fairness.map(() => '---').join('|')}|\n| ${fairness.map((f) => f.firstSeatWinRate).join(' | ')} |`,
  );
  console.log(`\nNormal bots, normal speed, 30 cards, ${games} games: game length in game-clock seconds`);
  console.log('| players | median | p90 | deadlocks per game |\n|---|---|---|---|');
  for (const l of lengths) console.log(`| ${l.players} | ${l.median} | ${l.p90} | ${l.deadlocksPerGame} |`);
  console.log(`\nAll bands met: ${allInBand ? 'yes' : 'NO'}`);
}
if (args.has('check') && !allInBand) process.exit(1);
