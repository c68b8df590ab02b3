/**
 * "Match me" in simulation: simulated people of one model each play a series of games against
 * a bot matched to their recorded pace, the way the server does it: the first game against the default
 * pace (no history), then each game's median time per play (`medianPlayInterval` over their card plays)
 * joins their history and the next bot is `matchProfile(recordedPace(history))`. The person's win rate
 * is counted over the games after the first `warmUp`.
 */
import { type BotDifficulty, Random, matchLabel, medianPlayInterval, recordedPace, seedRng } from '@memeslam/engine';
import { humanModel } from './human.ts';
import { playWithHumans } from './human.ts';
import { round } from './stats.ts';

export interface MatchOptions {
  /** The person's median time per play, seconds. */
  readonly human: number;
  /** Simulated people. */
  readonly people: number;
  /** Games each plays before the counted ones. */
  readonly warmUp: number;
  /** Counted games per person. */
  readonly counted: number;
  readonly seed: string;
}

export interface MatchReport {
  readonly human: number;
  readonly games: number;
  readonly winRate: number;
  /** The recorded pace (ms) the bots were matched to in the counted games: median over people. */
  readonly recordedPaceMs: number;
}

export function simulateMatch(options: MatchOptions): MatchReport {
  const seeds = new Random(seedRng(options.seed));
  const model = humanModel(options.human);
  let wins = 0;
  let games = 0;
  const paces: number[] = [];
  for (let person = 0; person < options.people; person += 1) {
    const history: number[] = [];
    for (let g = 0; g < options.warmUp + options.counted; g += 1) {
      const seed = Array.from({ length: 4 }, () =>
        seeds
          .int(2 ** 32)
          .toString(16)
          .padStart(8, '0'),
      ).join('');
      const pace = recordedPace(history);
      const seats = [
        { id: 'person', username: 'person', bot: null },
        { id: 'match', username: 'match', bot: matchLabel(pace) as BotDifficulty, botPaceMs: pace },
      ];
      const outcome = playWithHumans(
        {
          seed,
          seats: (person + g) % 2 === 0 ? seats : seats.reverse(),
          cardsPerPlayer: 30,
          speed: 'normal',
          startAt: 0,
        },
        new Map([['person', model]]),
        seed,
      );
      const median = medianPlayInterval(outcome.playTimes.get('person') ?? []);
      if (median !== null) history.push(median);
      if (g >= options.warmUp) {
        games += 1;
        paces.push(pace);
        if (outcome.result.winnerId === 'person') wins += 1;
      }
    }
  }
  paces.sort((a, b) => a - b);
  return {
    human: options.human,
    games,
    winRate: round((100 * wins) / games),
    recordedPaceMs: paces[paces.length >> 1] ?? 0,
  };
}
