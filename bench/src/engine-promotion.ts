// Bytes the engine promotes to V8's old generation per game step, when every game's state lives until
// its next step as on a busy server (each byte promoted brings the next full collection
// nearer). 10,000 games of two humans and two normal bots are stepped in turn, so a state lives
// through about 40 MB of allocation, past any young-generation collection. Seeded: the same steps
// every run, so the figure moves only when the engine's allocations do.
//
// `promotedBytesPerStep()` runs this file in a child Node with `--trace-gc-nvp` and a 16 MB semi-space
// (`npm start`'s until 2026-11-29, kept so the figure compares with the README's earlier ones), and
// sums what the scavenges promoted while the measured steps ran.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { advance, apply, createGame, type GameState, matches, nextDeadline, Random, seedRng } from '@memeslam/engine';

/** A game of two people and two normal bots, 30 cards each, at normal speed: this and `bench:engine`'s apply() timing. */
export function peopleAndBots(seed: string): GameState {
  return createGame({
    seed,
    seats: [
      { id: 'h0', username: 'h0', bot: null },
      { id: 'h1', username: 'h1', bot: null },
      { id: 'b2', username: 'b2', bot: 'normal' },
      { id: 'b3', username: 'b3', bot: 'normal' },
    ],
    cardsPerPlayer: 30,
    speed: 'normal',
    startAt: 0,
  });
}

const GAMES = 10_000;
const STEPS = 400_000;
const START = 'promotion: measured steps start';
const END = 'promotion: measured steps end';

function run(): void {
  const pick = new Random(seedRng('memeslam-promotion'));
  let dealt = 0;
  const deal = (): GameState => peopleAndBots((dealt += 1).toString(16).padStart(32, '0'));
  const states = Array.from({ length: GAMES }, deal);
  const clocks = new Float64Array(GAMES);
  // A step: the game advanced 0.3–1 s (its bots act), then one of its humans plays a matching card.
  const step = (g: number) => {
    let state = states[g] as GameState;
    if (nextDeadline(state) === null) {
      states[g] = deal();
      clocks[g] = 0;
      return;
    }
    const now = (clocks[g] as number) + 300 + pick.int(700);
    clocks[g] = now;
    state = advance(state, now).state;
    const human = state.players[pick.int(2)] as GameState['players'][number];
    const tops = state.piles.map((pile) => pile.at(-1));
    for (const card of state.status === 'active' ? human.hand : []) {
      const pileIndex = tops.findIndex((top) => top !== undefined && matches(card, top));
      if (pileIndex < 0) continue;
      const played = apply(state, { type: 'playCard', playerId: human.id, cardId: card.id, pileIndex }, now);
      if (played.ok) state = played.state;
      break;
    }
    states[g] = state;
  };
  for (let i = 0; i < GAMES * 5; i += 1) step(i % GAMES);
  console.log(START);
  for (let i = 0; i < STEPS; i += 1) step(i % GAMES);
  console.log(END);
}

/** Bytes promoted per step, measured in a child process. */
export function promotedBytesPerStep(): number {
  const child = spawnSync(
    process.execPath,
    ['--trace-gc-nvp', '--max-semi-space-size=16', fileURLToPath(import.meta.url), '--child'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`promotion run failed: ${child.stderr}`);
  const measured = child.stdout.slice(child.stdout.indexOf(START), child.stdout.indexOf(END));
  let promoted = 0;
  for (const line of measured.split('\n')) {
    if (line.includes(' gc=s ')) promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
  return promoted / STEPS;
}

if (process.argv.includes('--child')) run();
