/**
 * The countdown overlay's timeline (a pre-game count of 5 s): system checks, player readiness, the bots' AI status,
 * the 5-to-1 count at 1 s ticks, GO!, completion 1 s after zero, and how the server's startsAt
 * shortens the count. The expected numbers are written out here, not read from the code.
 */
import type { BotDifficulty } from '@memeslam/engine';
import { describe, expect, it } from 'vitest';
import { aiStatus, bigText, plan } from '../src/game/countdownPlan.ts';
import type { Game } from '../src/game/state.ts';

// The overlay's timings, in ms.
const CHECKS = { 'Discard Piles': 200, 'Player Hands': 600, 'Game State': 1000 } as const;
const AI_SYSTEM_HUMANS_ONLY = 1200;
const aiSystemInBotGame = (bots: number) => Math.max(1500, bots * 400);
const HUMAN_READY = 800;
const BOT_READY = { easy: 1000, normal: 1300, hard: 1600 } as const;
const AI_DELAY = { easy: 500, normal: 800, hard: 1200 } as const;
const ANALYZING_AT = 0.3;
const COUNT_FROM = 5;
const TICK = 1000;
const COMPLETE_AFTER_ZERO = 1000;

type SpecDifficulty = keyof typeof BOT_READY;
const SPEC_DIFFICULTIES = Object.keys(BOT_READY) as SpecDifficulty[];

const OPENED = 1_700_000_000_000;

function seat(userId: string, position: number, bot: BotDifficulty | null | 'unset'): Game['players'][number] {
  return {
    userId,
    username: userId,
    isBot: bot !== null,
    botDifficulty: bot === null || bot === 'unset' ? null : bot,
    isReady: true,
    position,
    cardsLeft: 30,
    powerUps: { available: [], used: [] },
    powerUpsUsed: [],
    isHost: position === 0,
  };
}

/** A game with one person (position 0) and the given bots after. */
function game(bots: (BotDifficulty | 'unset')[], opts: { humans?: number; isBotGame?: boolean } = {}): Game {
  const humans = opts.humans ?? 1;
  const players = [
    ...Array.from({ length: humans }, (_, i) => seat(`human-${i}`, i, null)),
    ...bots.map((d, i) => seat(`bot-${i}`, humans + i, d)),
  ];
  return {
    gameId: 'g-1',
    roomCode: 'ABC123',
    host: { userId: 'human-0', username: 'human-0' },
    status: 'starting',
    players,
    playersCount: players.length,
    maxPlayers: 6,
    isOpen: false,
    isBotGame: opts.isBotGame ?? bots.length > 0,
    botSettings: null,
    botInfo: null,
    gameSettings: { cardsPerPlayer: 30, gameSpeed: 'normal', allowSpectators: true },
    createdAt: '2024-01-01T00:00:00.000Z',
    gameState: null,
  };
}

const checkTimes = (g: Game) => Object.fromEntries(plan(g, null, OPENED).checks.map((c) => [c.name, c.readyAt]));

/** The big text sampled every `step` ms from 0 to `until`, with consecutive repeats collapsed. */
function sequence(timeline: ReturnType<typeof plan>, until: number, step = 10): { at: number; text: string | null }[] {
  const out: { at: number; text: string | null }[] = [];
  for (let t = 0; t <= until; t += step) {
    const text = bigText(timeline, t);
    if (out.length === 0 || out.at(-1)!.text !== text) out.push({ at: t, text });
  }
  return out;
}

describe('system checks', () => {
  it('Discard Piles 200, Player Hands 600, Game State 1000, AI System 1200 without bots', () => {
    expect(checkTimes(game([], { humans: 2 }))).toEqual({ ...CHECKS, 'AI System': AI_SYSTEM_HUMANS_ONLY });
  });

  it('marks the AI System as idle in a game without bots only (no check mark for nothing checked)', () => {
    const idle = (g: Game) =>
      plan(g, null, OPENED)
        .checks.filter((c) => c.idle)
        .map((c) => c.name);
    expect(idle(game([], { humans: 2 }))).toEqual(['AI System']);
    expect(idle(game(['easy']))).toEqual([]);
  });

  it.each([1, 2, 3, 4, 5])('AI System in a bot game with %i bots: max(1500, bots × 400)', (n) => {
    const times = checkTimes(game(Array.from({ length: n }, () => 'easy' as const)));
    expect(times).toEqual({ ...CHECKS, 'AI System': aiSystemInBotGame(n) });
  });

  it('the checks are listed in their fixed order', () => {
    expect(plan(game([]), null, OPENED).checks.map((c) => c.name)).toEqual([
      'Discard Piles',
      'Player Hands',
      'Game State',
      'AI System',
    ]);
  });
});

describe('player readiness', () => {
  it('people at 800 ms; bots at 1000 / 1300 / 1600 ms for easy / normal / hard; in seat order', () => {
    const g = game(['hard', 'easy', 'normal'], { humans: 2 });
    const shuffled = { ...g, players: [...g.players].reverse() };
    const players = plan(shuffled, null, OPENED).players;
    expect(players.map((p) => [p.player.userId, p.readyAt])).toEqual([
      ['human-0', HUMAN_READY],
      ['human-1', HUMAN_READY],
      ['bot-0', BOT_READY.hard],
      ['bot-1', BOT_READY.easy],
      ['bot-2', BOT_READY.normal],
    ]);
  });

  it('a bot without a difficulty is normal (botDifficulty defaults to normal)', () => {
    const [, bot] = plan(game(['unset']), null, OPENED).players;
    expect(bot!.readyAt).toBe(BOT_READY.normal);
    expect(bot!.aiDelay).toBe(AI_DELAY.normal);
  });

  it('people have no AI status; bots have the 500 / 800 / 1200 ms delay of their difficulty', () => {
    const players = plan(game(['easy', 'normal', 'hard']), null, OPENED).players;
    expect(players.map((p) => p.aiDelay)).toEqual([null, AI_DELAY.easy, AI_DELAY.normal, AI_DELAY.hard]);
  });
});

describe('bot AI status: initializing → analyzing at 30% → ready', () => {
  it.each(SPEC_DIFFICULTIES)('%s', (difficulty) => {
    const delay = AI_DELAY[difficulty];
    const analyzing = delay * ANALYZING_AT;
    expect(aiStatus(0, delay)).toBe('initializing');
    expect(aiStatus(analyzing - 1, delay)).toBe('initializing');
    expect(aiStatus(analyzing, delay)).toBe('analyzing');
    expect(aiStatus(delay - 1, delay)).toBe('analyzing');
    expect(aiStatus(delay, delay)).toBe('ready');
    expect(aiStatus(delay * 10, delay)).toBe('ready');
  });
});

describe('when everyone is ready', () => {
  it.each([
    ['people only', game([], { humans: 2 }), AI_SYSTEM_HUMANS_ONLY],
    ['one easy bot', game(['easy']), aiSystemInBotGame(1)],
    ['one hard bot', game(['hard']), BOT_READY.hard],
    ['five easy bots', game(['easy', 'easy', 'easy', 'easy', 'easy']), aiSystemInBotGame(5)],
  ] as const)('%s: the last check or player', (_, g, allReady) => {
    expect(plan(g, null, OPENED).allReadyAt).toBe(allReady);
  });
});

describe('full local sequence (no startsAt, or one already past)', () => {
  const cases = [
    ['startsAt unknown', null],
    ['startsAt now', OPENED],
    ['startsAt past', OPENED - 3000],
  ] as const;

  it.each(cases)('%s: 5 to 1 at 1 s ticks once all are ready, GO! at zero, complete 1 s later', (_, startsAt) => {
    const g = game(['hard']);
    const timeline = plan(g, startsAt, OPENED);
    const ready = BOT_READY.hard;
    expect(timeline.allReadyAt).toBe(ready);
    expect(timeline.zeroAt).toBe(ready + COUNT_FROM * TICK);
    expect(timeline.completeAt).toBe(ready + COUNT_FROM * TICK + COMPLETE_AFTER_ZERO);
    expect(sequence(timeline, timeline.completeAt)).toEqual([
      { at: 0, text: null },
      { at: ready, text: '5' },
      { at: ready + 1 * TICK, text: '4' },
      { at: ready + 2 * TICK, text: '3' },
      { at: ready + 3 * TICK, text: '2' },
      { at: ready + 4 * TICK, text: '1' },
      { at: ready + 5 * TICK, text: 'GO!' },
    ]);
  });

  it('a number holds for a whole tick, up to the millisecond before the next', () => {
    const timeline = plan(game([], { humans: 2 }), null, OPENED);
    const ready = AI_SYSTEM_HUMANS_ONLY;
    expect(bigText(timeline, ready - 1)).toBeNull();
    expect(bigText(timeline, ready)).toBe('5');
    expect(bigText(timeline, ready + TICK - 1)).toBe('5');
    expect(bigText(timeline, ready + TICK)).toBe('4');
    expect(bigText(timeline, ready + 5 * TICK - 1)).toBe('1');
    expect(bigText(timeline, ready + 5 * TICK)).toBe('GO!');
    expect(bigText(timeline, timeline.completeAt + 5000)).toBe('GO!');
  });
});

describe("the server's startsAt ahead: the overlay ends when play begins", () => {
  it("startsAt 5 s ahead (the server's countdown): ends at startsAt, counting the whole seconds left", () => {
    const timeline = plan(game([], { humans: 2 }), OPENED + 5000, OPENED);
    expect(timeline.completeAt).toBe(5000);
    expect(timeline.zeroAt).toBe(5000 - COMPLETE_AFTER_ZERO);
    expect(sequence(timeline, timeline.completeAt)).toEqual([
      { at: 0, text: null },
      { at: AI_SYSTEM_HUMANS_ONLY, text: '3' },
      { at: 2000, text: '2' },
      { at: 3000, text: '1' },
      { at: 4000, text: 'GO!' },
    ]);
  });

  it.each([3000, 4000, 4500])('startsAt %i ms ahead of a bot game: ends at startsAt, the checks first', (ahead) => {
    const timeline = plan(game(['hard']), OPENED + ahead, OPENED);
    expect(timeline.allReadyAt).toBe(BOT_READY.hard);
    expect(timeline.completeAt).toBe(ahead);
    expect(timeline.completeAt - timeline.zeroAt).toBe(COMPLETE_AFTER_ZERO);
    expect(bigText(timeline, timeline.allReadyAt - 1)).toBeNull();
    expect(bigText(timeline, timeline.zeroAt)).toBe('GO!');
  });

  it('startsAt too close for the checks: the checks still finish, then GO! and completion 1 s later', () => {
    const timeline = plan(game(['hard']), OPENED + 1000, OPENED);
    expect(timeline.zeroAt).toBe(BOT_READY.hard);
    expect(timeline.completeAt).toBe(BOT_READY.hard + COMPLETE_AFTER_ZERO);
    const texts = sequence(timeline, timeline.completeAt).map((s) => s.text);
    expect(texts).toEqual([null, 'GO!']);
  });

  it('startsAt further ahead than the 5 s countdown (clock skew) counts as 5 s', () => {
    const timeline = plan(game([], { humans: 2 }), OPENED + 60_000, OPENED);
    expect(timeline.completeAt).toBe(COUNT_FROM * TICK);
  });

  it('the count never shows more than 5 and only goes down by one a second', () => {
    for (const ahead of [null, -1, 0, 500, 1600, 2500, 4999, 5000, 9000]) {
      for (const g of [
        game([], { humans: 2 }),
        game(['easy', 'hard']),
        game(['hard', 'hard', 'hard', 'hard', 'hard']),
      ]) {
        const timeline = plan(g, ahead === null ? null : OPENED + ahead, OPENED);
        expect(timeline.zeroAt).toBeGreaterThanOrEqual(timeline.allReadyAt);
        expect(timeline.completeAt - timeline.zeroAt).toBe(COMPLETE_AFTER_ZERO);
        const numbers = sequence(timeline, timeline.completeAt, 1)
          .map((s) => s.text)
          .filter((t): t is string => t !== null && t !== 'GO!')
          .map(Number);
        for (const n of numbers) expect(n).toBeLessThanOrEqual(COUNT_FROM);
        for (let i = 1; i < numbers.length; i += 1) expect(numbers[i]).toBe(numbers[i - 1]! - 1);
        if (numbers.length > 0) expect(numbers.at(-1)).toBe(1);
      }
    }
  });
});
