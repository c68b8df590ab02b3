// npm run simulate -- --players 4 --bots easy,normal,hard,expert --games 2000 --speed normal [--json]
// npm run simulate -- --players 2 --human 2.2 --bots hard --rotate: a simulated person (median 2.2 s per
// play; 1.4 is a quick player, 3.5 a beginner; see human.ts) against hard bots, seats alternating.
import {
  BOT_DIFFICULTIES,
  type BotDifficulty,
  CARDS_PER_PLAYER_OPTIONS,
  GAME_SPEEDS,
  type GameSpeed,
} from '@memeslam/engine';
import { type SimulationOptions, simulate } from './simulation.ts';
import { parseArgs } from './stats.ts';

function fail(message: string): never {
  console.error(`simulate: ${message}`);
  process.exit(2);
}

const args = parseArgs(process.argv.slice(2));
const players = Number(args.get('players') ?? '4');
const botList = (args.get('bots') ?? 'easy,normal,hard,expert').split(',') as BotDifficulty[];
const human = args.get('human');
const games = Number(args.get('games') ?? '2000');
const speed = (args.get('speed') ?? 'normal') as GameSpeed;
const cardsPerPlayer = Number(args.get('cards') ?? '30');
if (!Number.isInteger(players) || players < 2 || players > 6) fail('--players must be 2 to 6');
if (botList.some((b) => !BOT_DIFFICULTIES.includes(b))) fail(`--bots takes ${BOT_DIFFICULTIES.join(', ')}`);
const humanSeconds = Number(human);
if (human !== undefined && !(humanSeconds >= 0.5 && humanSeconds <= 10))
  fail('--human takes a median of 0.5 to 10 seconds per play');
const bots: string[] = human === undefined ? botList : [`human:${humanSeconds}`, ...botList];
if (!Number.isInteger(games) || games < 1) fail('--games must be a positive integer');
if (!GAME_SPEEDS.includes(speed)) fail(`--speed takes ${GAME_SPEEDS.join(', ')}`);
if (!(CARDS_PER_PLAYER_OPTIONS as readonly number[]).includes(cardsPerPlayer)) fail('--cards takes 20, 30 or 40');

const options: SimulationOptions = {
  players,
  bots,
  games,
  speed,
  cardsPerPlayer,
  seed: args.get('seed') ?? 'memeslam-simulation',
  rotate: args.has('rotate'),
};
const report = simulate(options, () => performance.now());

if (args.has('json')) {
  console.log(JSON.stringify(report));
} else {
  console.log(`${games} games, ${players} players (${bots.join(', ')}), ${speed} speed, ${cardsPerPlayer} cards`);
  console.table(
    Object.fromEntries(
      Object.entries(report.byDifficulty).map(([bot, e]) => [
        bot,
        { seats: e.seats, wins: e.wins, 'win %': e.winRate },
      ]),
    ),
  );
  console.table(Object.fromEntries(report.bySeat.map((s) => [`seat ${s.seat}`, { wins: s.wins, 'win %': s.winRate }])));
  console.log(
    `game length (game clock): median ${report.gameLengthSeconds.median} s, p90 ${report.gameLengthSeconds.p90} s`,
  );
  console.log(
    `deadlocks per game ${report.deadlocksPerGame}; unresolvable reports per game ${report.unresolvableReportsPerGame}; unresolvable endings per game ${report.unresolvableEndingsPerGame}`,
  );
  console.log(`endings: ${JSON.stringify(report.endings)}; ${report.gamesPerSecond} games/s`);
  if (human !== undefined) {
    console.log(
      `bot power-ups on a player in the first 10 s: ${report.openingPowerUps}; players frozen again within 20 s: ${report.refreezesWithin20s}`,
    );
  }
}
