import { describe, expect, it } from 'vitest';
import {
  BOT_DIFFICULTIES,
  BOT_PROFILES,
  type BotDifficulty,
  GAME_SPEEDS,
  type GameConfig,
  type GameEvent,
  type GameSpeed,
  type GameState,
  SPEED_TABLE,
  advance,
  apply,
  createGame,
  nextDeadline,
  playHeadless,
  seedRng,
} from '../src/index.ts';
import { type PlayerSpec, accepted, card, playerOf, scenario } from './scenario.ts';

const SEED = '5eed5eed5eed5eed5eed5eed5eed5eed';

function botGame(difficulties: readonly BotDifficulty[], speed: GameSpeed, seed = SEED, human = false): GameConfig {
  const bots = difficulties.map((bot, i) => ({ id: `b${i}`, username: `Bot ${i}`, bot }));
  return {
    seed,
    seats: human ? [{ id: 'h', username: 'Human', bot: null }, ...bots] : bots,
    cardsPerPlayer: 30,
    speed,
    startAt: 0,
  };
}

/** The window of one bot delay: base reaction ±30%, times the speed factor (rounded to whole ms). */
function window(difficulty: BotDifficulty, speed: GameSpeed): [number, number] {
  const scaled = BOT_PROFILES[difficulty].reactionMs * SPEED_TABLE[speed].botReactionFactor;
  return [Math.round(scaled * 0.7), Math.round(scaled * 1.3)];
}

const reseeded = (s: GameState, n: number): GameState => ({ ...s, rng: seedRng(n.toString(16).padStart(32, 'b')) });

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
    it(`${difficulty}: the same jitter, scaled by the speed factor`, () => {
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
    it(`${speed}: every delay between two actions of a whole game stays in its window`, () => {
      let state = createGame(botGame(BOT_DIFFICULTIES, speed));
      let checked = 0;
      for (let due = nextDeadline(state); due !== null; due = nextDeadline(state)) {
        const before = state;
        state = advance(state, due).state;
        if (state.status !== 'active') break;
        before.players.forEach((p, i) => {
          if (p.nextBotActionAt !== due || !p.bot) return;
          const next = state.players[i]!.nextBotActionAt as number;
          const [lo, hi] = window(p.bot, speed);
          const fits = (from: number): boolean => next - from >= lo && next - from <= hi;
          // A bot frozen at its turn (before it, or by a bot seated before it) waits for the thaw first.
          const frozenUntil = state.players[i]!.frozenUntil;
          expect(fits(due) || (frozenUntil !== null && frozenUntil > due && fits(frozenUntil))).toBe(true);
          checked += 1;
        });
      }
      expect(checked).toBeGreaterThan(20);
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
    const [lo, hi] = window('expert', 'normal');
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
  const canPlay = (bot: BotDifficulty) =>
    scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
        { hand: 'B2Wi R1Pk Pu2Pc', deck: 'Y1Bo', bot, botAt: 1000 },
      ],
    });

  it('overlooks a playable card: easy ~35%, normal ~15%, hard ~5%, expert never', () => {
    const runs = 400;
    const rate = (bot: BotDifficulty): number => actions(canPlay(bot), 'p2', runs).played / runs;
    expect(rate('expert')).toBe(1);
    expect(rate('hard')).toBeGreaterThan(0.9);
    expect(rate('hard')).toBeLessThan(1);
    expect(rate('normal')).toBeGreaterThan(0.78);
    expect(rate('normal')).toBeLessThan(0.92);
    expect(rate('easy')).toBeGreaterThan(0.5);
    expect(rate('easy')).toBeLessThan(0.72);
  });

  it('easy uses power-ups at random, now and then', () => {
    const { powerUps } = actions(canPlay('easy'), 'p2', 400);
    expect(powerUps.length).toBeGreaterThan(5);
    expect(powerUps.length).toBeLessThan(60);
    expect(new Set(powerUps).size).toBeGreaterThan(2);
  });

  it('normal uses power-ups only when stuck, about half the time, and only helpful ones', () => {
    expect(actions(canPlay('normal'), 'p2', 200).powerUps).toEqual([]);
    const stuck = scenario({
      piles: ['B5Bo', 'G4So'],
      players: [
        { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' },
        { hand: 'R1Pk Pu2Pc', deck: 'Y1Wi', bot: 'normal', botAt: 1000 },
      ],
    });
    const { powerUps } = actions(stuck, 'p2', 200);
    expect(powerUps.length).toBeGreaterThan(70);
    expect(powerUps.length).toBeLessThan(130);
    expect(new Set(powerUps)).toEqual(new Set(['SNIPER', 'BOMB', 'WHIRLWIND']));
  });

  // The bot's 10 cards against the human's 8 (leader), 4 (near winning) or 11 against its 2 (stuck).
  const tenCards = { hand: 'B2Wi Y2Wi Y3Wi', deck: 'Y1Wi Y4Wi Y5Wi O1Wi O2Wi O3Wi O4Wi' };
  const tactics: [what: string, human: PlayerSpec, bot: PlayerSpec, expected: string][] = [
    ['freezes the leader', { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc' }, tenCards, 'FREEZE'],
    ['reverses when an opponent is near winning', { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc' }, tenCards, 'REVERSAL'],
    [
      'snipes when stuck',
      { hand: 'R1Pe R2Pe R3Pe', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi' },
      { hand: 'Pu2Pc Y1Wi' },
      'SNIPER',
    ],
  ];
  for (const [what, human, bot, expected] of tactics) {
    it(`hard ${what}`, () => {
      const s = scenario({ piles: ['B5Bo', 'G4So'], players: [human, { ...bot, bot: 'hard', botAt: 1000 }] });
      const { events } = advance(s, 1000);
      const used = events.find((e) => e.type === 'powerUpUsed');
      expect(used).toMatchObject({ playerId: 'p2', effect: { powerUpType: expected } });
      if (expected === 'FREEZE') expect(used).toMatchObject({ effect: { targetPlayer: 'p1' } });
    });
  }
});

describe('headless bot games', () => {
  it('are deterministic: same seed, same game', () => {
    const config = botGame(['easy', 'normal', 'hard', 'expert'], 'fast');
    expect(playHeadless(config).state).toEqual(playHeadless(config).state);
  });

  it('differ with another seed', () => {
    const a = playHeadless(botGame(['hard', 'hard', 'hard'], 'normal'));
    const b = playHeadless(botGame(['hard', 'hard', 'hard'], 'normal', 'ffffffffffffffffffffffffffff0001'));
    expect(a.state).not.toEqual(b.state);
  });

  for (const difficulty of BOT_DIFFICULTIES) {
    it(`${difficulty}: bots alone finish the game with a winner, never aborted`, () => {
      const { result } = playHeadless(botGame([difficulty, difficulty, difficulty], 'blitz'));
      expect(result.winnerId).not.toBeNull();
      expect(result.reason).not.toBe('aborted');
      expect(result.ranking[0]?.playerId).toBe(result.winnerId);
    });
  }

  const pairs: [BotDifficulty, BotDifficulty][] = [
    ['easy', 'normal'],
    ['normal', 'hard'],
    ['hard', 'expert'],
  ];
  for (const [weaker, stronger] of pairs) {
    it(`${stronger} beats ${weaker}`, () => {
      let wins = 0;
      const games = 20;
      for (let n = 0; n < games; n += 1) {
        const seats = [
          { id: 'weak', username: 'Weak', bot: weaker },
          { id: 'strong', username: 'Strong', bot: stronger },
        ];
        const { result } = playHeadless({
          seed: n.toString(16).padStart(32, 'd'),
          seats: n % 2 === 0 ? seats : seats.reverse(),
          cardsPerPlayer: 30,
          speed: 'normal',
          startAt: 0,
        });
        if (result.winnerId === 'strong') wins += 1;
      }
      expect(wins).toBeGreaterThanOrEqual(16);
    });
  }
});

describe('bot jitter spans the whole ±30%', () => {
  it('draws delays from 0.7 to 1.3 times the base reaction, not a narrower band', () => {
    const ratios: number[] = [];
    for (let n = 0; n < 200; n += 1) {
      const state = createGame(botGame(BOT_DIFFICULTIES, 'normal', n.toString(16).padStart(32, '7')));
      for (const p of state.players) ratios.push((p.nextBotActionAt as number) / BOT_PROFILES[p.bot!].reactionMs);
    }
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.7 - 1e-3);
    expect(Math.min(...ratios)).toBeLessThan(0.72);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(1.3 + 1e-3);
    expect(Math.max(...ratios)).toBeGreaterThan(1.28);
  });
});

describe('expert chooses its play', () => {
  // The human holds many more cards, so the expert has no reason for a power-up and plays a card.
  const human = { hand: 'R1Wi R2Wi R3Wi', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' };

  it('keeping its own next hand most playable', () => {
    // Blue 1 Pepe on Blue 5 Bonk leaves Red 4 Ponke (on Green 4 Solana) and Orange 2 Pepe (on the new
    // Blue 1 Pepe) playable; Red 4 Ponke on Green 4 Solana would leave only Blue 1 Pepe playable. Both
    // leave tops matching 132 faces, and the better play is not the first one found (pile 0).
    const s = scenario({
      piles: ['G4So', 'B5Bo'],
      players: [human, { hand: 'B1Pe R4Pk O2Pe', deck: 'Y3Wi', bot: 'expert', botAt: 1000 }],
    });
    for (let n = 0; n < 40; n += 1) {
      const { events } = advance(reseeded(s, n), 1000);
      expect(events).toContainEqual({ type: 'cardPlayed', playerId: 'p2', card: card('B1Pe'), pileIndex: 1 });
    }
    // A normal bot picks among its moves at random.
    const picks = new Set<string>();
    for (let n = 0; n < 40; n += 1) {
      const normal = { ...s, players: s.players.map((p) => (p.id === 'p2' ? { ...p, bot: 'normal' as const } : p)) };
      const played = advance(reseeded(normal, n), 1000).events.find((e) => e.type === 'cardPlayed');
      if (played?.type === 'cardPlayed') picks.add(played.card.id);
    }
    expect(picks).toEqual(new Set(['B1Pe', 'R4Pk']));
  });

  it('leaving opponents the least playable tops when its own hand is no different', () => {
    // Blue 4 Pepe goes on either pile and leaves nothing playable in its hand. On Blue 5 Bonk the tops
    // (G4So, B4Pe) match 116 of the 180 faces; on Green 4 Solana the tops (B4Pe, B5Bo) match 120, so
    // pile 1 is the better play (and not the first one found).
    const s = scenario({
      piles: ['G4So', 'B5Bo'],
      players: [human, { hand: 'B4Pe O2Wi Pu3Pc', deck: 'Y3Wi', bot: 'expert', botAt: 1000 }],
    });
    for (let n = 0; n < 40; n += 1) {
      const { events } = advance(reseeded(s, n), 1000);
      expect(events).toContainEqual({ type: 'cardPlayed', playerId: 'p2', card: card('B4Pe'), pileIndex: 1 });
    }
  });
});
