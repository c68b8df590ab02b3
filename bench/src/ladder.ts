// npm run ladder [-- --games 2000 --json]: the README's bot-ladder table, measured.
import { BOT_DIFFICULTIES, type BotDifficulty } from '@memeslam/engine';
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

if (args.has('json')) {
  console.log(JSON.stringify({ games, headToHead, fairness, lengths, ordered }));
} else {
  console.log(
    `Head to head, 2 players, 30 cards, normal speed, ${games} games per pair (seats alternating): win % of the row against the column`,
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
  console.log(`\nStrictly ordered, each ≥ 60% against the next below: ${ordered ? 'yes' : 'NO'}`);
}
