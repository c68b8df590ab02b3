/** "Match me": a player's pace measured from their games, and bots paced to it. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MATCH_PACE_MS,
  MATCH_PACE_RANGE_MS,
  configProblem,
  matchLabel,
  matchProfile,
  medianPlayInterval,
  recordedPace,
  PACE_SIGMA,
  type GameConfig,
  createGame,
} from '../src/index.ts';
import { SEED, SPREAD, playerOf } from './scenario.ts';

describe('"Match me"', () => {
  it('measures a game: the median interval between card plays, none under 3 intervals', () => {
    expect(medianPlayInterval([0, 1000, 3000, 3500])).toBe(1000);
    expect(medianPlayInterval([3500, 0, 3000, 1000, 9000])).toBe(1500);
    expect(medianPlayInterval([0, 1000, 2000])).toBeNull();
  });

  it('records the median of the last 10 games, the default with none, within the accepted range', () => {
    expect(recordedPace([])).toBe(DEFAULT_MATCH_PACE_MS);
    expect(recordedPace([3000, 1000, 2000])).toBe(2000);
    const old = Array.from({ length: 10 }, () => 9000);
    expect(recordedPace([...old, ...Array.from({ length: 10 }, () => 1500)])).toBe(1500);
    expect(recordedPace([100])).toBe(MATCH_PACE_RANGE_MS[0]);
    expect(recordedPace([99_000])).toBe(MATCH_PACE_RANGE_MS[1]);
  });

  it('paces the bot by the person: slower person, slower bot, later reactions, more overlooks', () => {
    const quick = matchProfile(1500);
    const slow = matchProfile(4000);
    expect(quick.paceMs).toBeLessThan(slow.paceMs);
    expect(quick.reactionMs).toBeLessThan(slow.reactionMs);
    expect(quick.overlook).toBeLessThan(slow.overlook);
    expect(quick.paceMs / 1500).toBeGreaterThan(0.9);
    expect(quick.paceMs / 1500).toBeLessThan(1.1);
    expect(matchLabel(1500)).toBe('expert');
    expect(matchLabel(2400)).toBe('normal');
    expect(matchLabel(4000)).toBe('easy');
  });

  it('a seat with botPaceMs plays the matched profile: its first look is a time per play of that pace', () => {
    const firstLooks = (botPaceMs: number) =>
      Array.from({ length: 60 }, (_, n) => {
        const s = createGame({
          seed: n.toString(16).padStart(32, 'e'),
          seats: [
            { id: 'h', username: 'H', bot: null },
            { id: 'm', username: 'M', bot: 'normal', botPaceMs },
          ],
          cardsPerPlayer: 30,
          speed: 'normal',
          startAt: 0,
        });
        expect(playerOf(s, 'm').botPaceMs).toBe(botPaceMs);
        return playerOf(s, 'm').nextBotActionAt as number;
      }).sort((a, b) => a - b);
    const fast = firstLooks(1000);
    const slow = firstLooks(8000);
    expect(fast[30]! * 4).toBeLessThan(slow[30]!);
    const pace = matchProfile(8000).paceMs;
    expect(slow[0]).toBeGreaterThanOrEqual(Math.floor(pace * Math.exp(-SPREAD * PACE_SIGMA)));
    expect(slow[59]).toBeLessThanOrEqual(Math.ceil(pace * Math.exp(SPREAD * PACE_SIGMA)));
  });

  it('refuses a pace out of range, or on a person', () => {
    const config = (seat: object): GameConfig => ({
      seed: SEED,
      seats: [
        { id: 'h', username: 'H', bot: null },
        { id: 'm', username: 'M', bot: 'normal', ...seat },
      ],
      cardsPerPlayer: 30,
      speed: 'normal',
      startAt: 0,
    });
    expect(configProblem(config({ botPaceMs: 2400 }))).toBeNull();
    expect(configProblem(config({ botPaceMs: 100 }))).toMatch(/botPaceMs/);
    expect(configProblem(config({ botPaceMs: Number.NaN }))).toMatch(/botPaceMs/);
    expect(configProblem(config({ bot: null, botPaceMs: 2400 }))).toMatch(/botPaceMs/);
  });
});
