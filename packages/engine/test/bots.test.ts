/**
 * The bots one step at a time: they act only through advance(), at times scaled by the speed, not
 * while frozen, by their level's habits, never with an opening freeze, and react to a new top card.
 * (Whole bot games and their choices of play are in bot-games.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  BOT_DIFFICULTIES,
  BOT_PROFILES,
  type BotDifficulty,
  PACE_SIGMA,
  REACTION_SIGMA,
  GAME_SPEEDS,
  type GameEvent,
  type GameSpeed,
  type GameState,
  SPEED_TABLE,
  advance,
  apply,
  createGame,
  nextDeadline,
} from '../src/index.ts';
import { type PlayerSpec, SEED, SPREAD, accepted, botGame, playerOf, reseeded, scenario } from './scenario.ts';

/** The window of one time per play: the pace's median × e^(±2.5 sigma), times the speed factor. */
function window(difficulty: BotDifficulty, speed: GameSpeed): [number, number] {
  const scaled = BOT_PROFILES[difficulty].paceMs * SPEED_TABLE[speed].botReactionFactor;
  return [Math.floor(scaled * Math.exp(-SPREAD * PACE_SIGMA)), Math.ceil(scaled * Math.exp(SPREAD * PACE_SIGMA))];
}

/** The window of one reaction to a new top card. */
function reactionWindow(difficulty: BotDifficulty, speed: GameSpeed): [number, number] {
  const scaled = BOT_PROFILES[difficulty].reactionMs * SPEED_TABLE[speed].botReactionFactor;
  return [
    Math.floor(scaled * Math.exp(-SPREAD * REACTION_SIGMA)),
    Math.ceil(scaled * Math.exp(SPREAD * REACTION_SIGMA)),
  ];
}

describe('bots act only through advance(), at their scheduled time', () => {
  for (const difficulty of BOT_DIFFICULTIES) {
    it(difficulty, () => {
      const state = createGame(botGame([difficulty], 'normal', SEED, true));
      const bot = playerOf(state, 'b0');
      const [lo, hi] = window(difficulty, 'normal');
      expect(bot.nextBotActionAt).toBeGreaterThanOrEqual(lo);
      expect(bot.nextBotActionAt).toBeLessThanOrEqual(hi);
      const due = nextDeadline(state) as number;
      expect(due).toBe(Math.min(bot.nextBotActionAt as number, state.deadlock.resolveAt ?? Infinity));

      // Nothing happens before the deadline, however the state is driven.
      const early = advance(state, due - 1);
      expect(early.state).toBe(state);
      expect(early.events).toEqual([]);
      const human = accepted(apply(state, { type: 'disconnect', playerId: 'h' }, due + 5000)).state;
      expect(playerOf(human, 'b0')).toBe(bot);

      // At its time it acts and schedules its next action.
      const at = bot.nextBotActionAt as number;
      const next = playerOf(advance(state, at).state, 'b0').nextBotActionAt as number;
      expect(next - at).toBeGreaterThanOrEqual(lo);
      expect(next - at).toBeLessThanOrEqual(hi);
    });
  }

  it('keeps acting while a human is disconnected (the game does not pause)', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
        { hand: 'B2Wi G4Pk', deck: 'Y1Bo O5Bo', bot: 'expert', botAt: 5000 },
      ],
    });
    const off = accepted(apply(s, { type: 'disconnect', playerId: 'p1' }, 1000)).state;
    const { events } = advance(off, 5000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'cardPlayed', playerId: 'p2' }));
  });
});

describe('bot timing scales with the speed', () => {
  it('uses the factors 1.5 / 1.0 / 0.7 / 0.45', () => {
    expect(GAME_SPEEDS.map((s) => SPEED_TABLE[s].botReactionFactor)).toEqual([1.5, 1.0, 0.7, 0.45]);
  });

  for (const difficulty of BOT_DIFFICULTIES) {
    it(`${difficulty}: the same draw, scaled by the speed factor`, () => {
      for (let n = 0; n < 20; n += 1) {
        const seed = n.toString(16).padStart(32, 'c');
        const at = (speed: GameSpeed): number =>
          playerOf(createGame(botGame([difficulty], speed, seed, true)), 'b0').nextBotActionAt as number;
        const normal = at('normal');
        for (const speed of GAME_SPEEDS) {
          const [lo, hi] = window(difficulty, speed);
          expect(at(speed)).toBeGreaterThanOrEqual(lo);
          expect(at(speed)).toBeLessThanOrEqual(hi);
          expect(Math.abs(at(speed) - normal * SPEED_TABLE[speed].botReactionFactor)).toBeLessThanOrEqual(1);
        }
      }
    });
  }

  for (const speed of GAME_SPEEDS) {
    it(`${speed}: every delay between two looks of a whole game is a time per play or a reaction`, () => {
      let state = createGame(botGame(BOT_DIFFICULTIES, speed));
      let checked = 0;
      let reactions = 0;
      for (let due = nextDeadline(state); due !== null; due = nextDeadline(state)) {
        const before = state;
        state = advance(state, due).state;
        if (state.status !== 'active') break;
        before.players.forEach((p, i) => {
          const after = state.players[i]!;
          if (!p.bot) return;
          const next = after.nextBotActionAt as number;
          const inside = (from: number, [lo, hi]: [number, number]): boolean => next - from >= lo && next - from <= hi;
          if (p.nextBotActionAt === due) {
            // Its look: the next one a play's time later, or (frozen) a reaction after the thaw, or a
            // reaction to a new top card its own power-up or a later seat's play gave it.
            const frozenUntil = after.frozenUntil;
            expect(
              inside(due, window(p.bot, speed)) ||
                inside(due, reactionWindow(p.bot, speed)) ||
                (frozenUntil !== null && frozenUntil > due && inside(frozenUntil, reactionWindow(p.bot, speed))),
            ).toBe(true);
            checked += 1;
          } else if (next !== p.nextBotActionAt) {
            // Pulled in: a waiting bot sees a new top card after its reaction time.
            expect(p.stuckSince).not.toBeNull();
            expect(after.stuckSince).toBeNull();
            expect(next).toBeLessThan(p.nextBotActionAt as number);
            expect(inside(due, reactionWindow(p.bot, speed))).toBe(true);
            reactions += 1;
          }
        });
      }
      expect(checked).toBeGreaterThan(20);
      expect(reactions).toBeGreaterThan(0);
    });
  }
});

describe('a frozen bot does not play', () => {
  // p1 holds far more cards than the expert bot, so the bot has no reason for a power-up and plays.
  const s = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [
      { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
      { hand: 'B2Wi G4Pk', deck: 'Y1Bo', bot: 'expert', botAt: 1000 },
    ],
  });

  it('plays when not frozen', () => {
    const { events } = advance(s, 1000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'cardPlayed', playerId: 'p2' }));
  });

  it('skips its turns until the freeze ends, then plays', () => {
    const frozen = accepted(
      apply(s, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'FREEZE', targetPlayerId: 'p2' }, 0),
    ).state;
    const during = advance(frozen, 7999);
    expect(during.events.filter((e) => e.type !== 'playerUnfrozen')).toEqual([]);
    const bot = playerOf(during.state, 'p2');
    expect(bot.cardsPlayed).toBe(0);
    expect(bot.powerUpsUsed).toEqual([]);
    expect(bot.hand).toEqual(playerOf(s, 'p2').hand);
    const [lo, hi] = reactionWindow('expert', 'normal');
    expect(bot.nextBotActionAt).toBeGreaterThanOrEqual(8000 + lo);
    expect(bot.nextBotActionAt).toBeLessThanOrEqual(8000 + hi);

    const after = advance(during.state, bot.nextBotActionAt as number);
    expect(after.events).toContainEqual({ type: 'playerUnfrozen', playerId: 'p2' });
    expect(after.events).toContainEqual(expect.objectContaining({ type: 'cardPlayed', playerId: 'p2' }));
  });
});

/** What one bot action does, over many PRNG states. */
function actions(s: GameState, botId: string, runs: number): { played: number; powerUps: string[] } {
  let played = 0;
  const powerUps: string[] = [];
  const botAt = playerOf(s, botId).nextBotActionAt as number;
  for (let n = 0; n < runs; n += 1) {
    const { events } = advance(reseeded(s, n), botAt);
    const mine = events.filter((e): e is GameEvent => 'playerId' in e && e.playerId === botId);
    const used = mine.find((e) => e.type === 'powerUpUsed');
    if (used?.type === 'powerUpUsed') powerUps.push(used.effect.powerUpType);
    else if (mine.some((e) => e.type === 'cardPlayed')) played += 1;
  }
  return { played, powerUps };
}

describe('bot behaviour by difficulty', () => {
  // The bot can play; the human is far behind, so no tactical power-up is due.
  const canPlay = (bot: BotDifficulty, botAt = 1000) =>
    scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
        { hand: 'B2Wi R1Pk Pu2Pc', deck: 'Y1Bo', bot, botAt },
      ],
    });

  it('overlooks a playable card: easy ~15%, normal ~10%, hard ~4%, expert ~1%', () => {
    const runs = 1000;
    const rate = (bot: BotDifficulty): number => 1 - actions(canPlay(bot), 'p2', runs).played / runs;
    expect(rate('expert')).toBeLessThan(0.03);
    expect(rate('hard')).toBeGreaterThan(0.02);
    expect(rate('hard')).toBeLessThan(0.07);
    expect(rate('normal')).toBeGreaterThan(0.07);
    expect(rate('normal')).toBeLessThan(0.14);
    expect(rate('easy')).toBeGreaterThan(0.11);
    expect(rate('easy')).toBeLessThan(0.2);
  });

  it('easy wastes a power-up now and then, at random (never in the first 10 s)', () => {
    expect(actions(canPlay('easy'), 'p2', 400).powerUps).toEqual([]);
    const { powerUps } = actions(canPlay('easy', 12_000), 'p2', 600);
    expect(powerUps.length).toBeGreaterThan(10);
    expect(powerUps.length).toBeLessThan(45);
    expect(new Set(powerUps).size).toBeGreaterThan(2);
  });

  it('normal wastes one rarely, and reaches for a helpful one when stuck for 4 s, about half the time', () => {
    expect(actions(canPlay('normal', 12_000), 'p2', 400).powerUps.length).toBeLessThan(20);
    const stuck = (since: number) => {
      const s = scenario({
        piles: ['B5Bo', 'G4So'],
        players: [
          { hand: 'B3Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
          { hand: 'R1Pk Pu2Pc', deck: 'Y1Wi', bot: 'normal', botAt: 12_000 },
        ],
      });
      return { ...s, players: s.players.map((p) => (p.id === 'p2' ? { ...p, stuckSince: since } : p)) };
    };
    // Stuck only 2 s: mostly it waits (a rare wasted one aside).
    expect(actions(stuck(10_000), 'p2', 400).powerUps.length).toBeLessThan(20);
    const { powerUps } = actions(stuck(0), 'p2', 400);
    expect(powerUps.length).toBeGreaterThan(160);
    expect(powerUps.length).toBeLessThan(250);
    expect(new Set(powerUps)).toContain('SNIPER');
    expect(new Set(powerUps)).toContain('BOMB');
    expect(new Set(powerUps)).toContain('WHIRLWIND');
  });

  // A card under a pile top, so that a REVERSAL has something to send back (one without is refused).
  const piles = ['Pu4Pk B5Bo', 'G4So'];

  it('normal goes after a leader near the end now and then (Freeze or Reversal)', () => {
    const s = scenario({
      piles,
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc' },
        { hand: 'B2Wi Y2Wi Y3Wi', deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi', bot: 'normal', botAt: 12_000 },
      ],
    });
    const { powerUps } = actions(s, 'p2', 400);
    const reversals = powerUps.filter((t) => t === 'REVERSAL').length;
    expect(reversals).toBeGreaterThan(90);
    expect(reversals).toBeLessThan(180);
  });

  // The bot's 10 cards against the human's 8 (leader), 4 (near winning) or 11 against its 2 (stuck).
  const tenCards = { hand: 'B2Wi Y2Wi Y3Wi', deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi' };
  const tactics: [what: string, human: PlayerSpec, bot: PlayerSpec, expected: string | null][] = [
    ['freezes the leader', { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc' }, tenCards, 'FREEZE'],
    ['reverses when an opponent is near winning', { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc' }, tenCards, 'REVERSAL'],
    [
      'keeps Freeze while the leader is far from the end',
      { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi O1Pe O2Pe O3Pe O4Pe' },
      {
        hand: 'B2Wi Y2Wi Y3Wi',
        deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi O5Wi B1Pk B2Pk B3Pk B4Pk B5Pk G1Pk G2Pk G3Pk G4Pk',
      },
      null,
    ],
    [
      'snipes when stuck',
      { hand: 'B3Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi' },
      { hand: 'Pu2Pc Y1Wi' },
      'SNIPER',
    ],
    [
      'bombs when stuck and Sniper is gone',
      { hand: 'B3Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi' },
      { hand: 'Pu2Pc Y1Wi', deck: 'Y3Pc', powerUpsUsed: ['SNIPER'] },
      'BOMB',
    ],
    [
      'whirls when stuck with nothing better left',
      { hand: 'B3Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi' },
      { hand: 'Pu2Pc Y1Wi', powerUpsUsed: ['SNIPER', 'BOMB'] },
      'WHIRLWIND',
    ],
  ];
  for (const level of ['hard', 'expert'] as const) {
    for (const [what, human, bot, expected] of tactics) {
      it(`${level} ${what}`, () => {
        const s = scenario({ piles, players: [human, { ...bot, bot: level, botAt: 12_000 }] });
        const { events } = advance(s, 12_000);
        const used = events.find((e) => e.type === 'powerUpUsed');
        if (expected === null) {
          expect(used).toBeUndefined();
          return;
        }
        expect(used).toMatchObject({ playerId: 'p2', effect: { powerUpType: expected } });
        if (expected === 'FREEZE') expect(used).toMatchObject({ effect: { targetPlayer: 'p1' } });
      });
    }
  }

  it('hard waits a moment when just stuck before reaching for Sniper', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B3Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi' },
        { hand: 'Pu2Pc Y1Wi', bot: 'hard', botAt: 12_000 },
      ],
    });
    const justStuck = { ...s, players: s.players.map((p) => (p.id === 'p2' ? { ...p, stuckSince: 11_000 } : p)) };
    expect(advance(justStuck, 12_000).events.find((e) => e.type === 'powerUpUsed')).toBeUndefined();
  });
});

describe('no opening freeze', () => {
  const near = scenario({
    piles: ['B5Bo', 'G4So'],
    players: [
      { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc' },
      { hand: 'B2Wi Y2Wi Y3Wi', deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi', bot: 'expert', botAt: 9_999 },
    ],
  });

  for (const level of BOT_DIFFICULTIES) {
    it(`${level}: no power-up in the first 10 s of a game`, () => {
      const s = { ...near, players: near.players.map((p) => (p.id === 'p2' ? { ...p, bot: level } : p)) };
      expect(actions(s, 'p2', 300).powerUps).toEqual([]);
    });
  }

  it('a player frozen less than 20 s ago is not frozen again by a bot', () => {
    // The leader has 8 cards (no Reversal due), the expert 10: Freeze is due, unless they were just frozen.
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc' },
        { hand: 'B2Wi Y2Wi Y3Wi', deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi', bot: 'expert', botAt: 30_000 },
      ],
    });
    const frozenAt = (at: number) => ({
      ...s,
      players: s.players.map((p) => (p.id === 'p1' ? { ...p, lastFrozenAt: at } : p)),
    });
    expect(advance(frozenAt(10_001), 30_000).events.find((e) => e.type === 'powerUpUsed')).toBeUndefined();
    expect(advance(frozenAt(10_000), 30_000).events.find((e) => e.type === 'powerUpUsed')).toMatchObject({
      effect: { powerUpType: 'FREEZE', targetPlayer: 'p1' },
    });
  });

  it('a freeze records when the player was frozen, kept after the thaw', () => {
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe', deck: '' },
        { hand: 'B2Wi', deck: '' },
        { hand: 'G1Wi', deck: '' },
      ],
    });
    const frozen = accepted(
      apply(s, { type: 'usePowerUp', playerId: 'p1', powerUpType: 'FREEZE', targetPlayerId: 'p2' }, 3000),
    ).state;
    expect(playerOf(frozen, 'p2').lastFrozenAt).toBe(3000);
    expect(playerOf(advance(frozen, 20_000).state, 'p2')).toMatchObject({ frozenUntil: null, lastFrozenAt: 3000 });
  });
});

describe('a waiting bot reacts to a new top card', () => {
  it('after its reaction time, not at its next look', () => {
    // The bot (hard) waits with Purple 2 Pc and Purple 3 Wif; the human plays Blue 3 Pepe onto Blue 5 Bonk.
    const s = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'B3Pe O1Pc O2Pc', deck: 'O3Pc O4Pc O5Pc' },
        { hand: 'Pu2Pc Pu3Wi', deck: 'Pu4Wi', bot: 'hard', botAt: 20_000 },
      ],
    });
    expect(playerOf(s, 'p2').stuckSince).toBe(0);
    const [lo, hi] = reactionWindow('hard', 'normal');
    const times = new Set<number>();
    for (let n = 0; n < 30; n += 1) {
      const played = accepted(
        apply(reseeded(s, n), { type: 'playCard', playerId: 'p1', cardId: 'B3Pe', pileIndex: 0 }, 5000),
      ).state;
      const at = playerOf(played, 'p2').nextBotActionAt as number;
      expect(at - 5000).toBeGreaterThanOrEqual(lo);
      expect(at - 5000).toBeLessThanOrEqual(hi);
      times.add(at);
      expect(advance(played, at).events).toContainEqual(
        expect.objectContaining({ type: 'cardPlayed', playerId: 'p2' }),
      );
    }
    expect(times.size).toBeGreaterThan(10);
  });

  it('easy and normal react later than hard and expert', () => {
    const order = BOT_DIFFICULTIES.map((b) => BOT_PROFILES[b].reactionMs);
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(new Set(order).size).toBe(4);
  });
});
