/**
 * Bots in whole games and in their choices: headless bot games are deterministic and finish, each
 * level beats the one below, bot times are log-normal around the pace, and hard and expert choose
 * the best play. (The bots' timing and behaviour by difficulty are in bots.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  BOT_DIFFICULTIES,
  BOT_PROFILES,
  type BotDifficulty,
  PACE_SIGMA,
  type GameEvent,
  type GameState,
  advance,
  createGame,
  playHeadless,
} from '../src/index.ts';
import { SPREAD, botGame, card, reseeded, scenario } from './scenario.ts';

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
      // The ladder's criterion (docs/benchmarks.md, Bot ladder): at least 60% against the level below. The
      // levels are close in pace (each must stay beatable for a person), so no longer 80%.
      let wins = 0;
      const games = 100;
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
      expect(wins).toBeGreaterThanOrEqual(60);
    });
  }
});

describe('bot times are log-normal around the pace', () => {
  it('have the median of the pace and a spread of sigma 0.35 (not a fixed beat)', () => {
    const logs: number[] = [];
    for (let n = 0; n < 250; n += 1) {
      const state = createGame(botGame(BOT_DIFFICULTIES, 'normal', n.toString(16).padStart(32, '7')));
      for (const p of state.players) logs.push(Math.log((p.nextBotActionAt as number) / BOT_PROFILES[p.bot!].paceMs));
    }
    logs.sort((a, b) => a - b);
    const median = logs[Math.floor(logs.length / 2)] as number;
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / logs.length);
    expect(Math.abs(median)).toBeLessThan(0.05);
    expect(sd).toBeGreaterThan(0.3);
    expect(sd).toBeLessThan(0.4);
    expect(Math.max(...logs)).toBeLessThanOrEqual(SPREAD * PACE_SIGMA + 1e-3);
    expect(Math.min(...logs)).toBeGreaterThanOrEqual(-SPREAD * PACE_SIGMA - 1e-3);
  });
});

describe('hard and expert choose their play', () => {
  // The human holds many more cards, so the bot has no reason for a power-up and plays a card (or, now
  // and then, overlooks it); whenever it plays, it is the best play.
  const bestEveryTime = (s: GameState, best: GameEvent): void => {
    for (const level of ['hard', 'expert'] as const) {
      const mine = { ...s, players: s.players.map((p) => (p.id === 'p2' ? { ...p, bot: level } : p)) };
      let plays = 0;
      for (let n = 0; n < 60; n += 1) {
        const played = advance(reseeded(mine, n), 1000).events.find((e) => e.type === 'cardPlayed');
        if (!played) continue;
        expect(played).toEqual(best);
        plays += 1;
      }
      expect(plays).toBeGreaterThan(50);
    }
  };
  const human = { hand: 'R1Wi R2Wi R3Wi', deck: 'O1Pc O2Pc O3Pc O4Pc O5Pc O1Wi O2Wi O3Wi O4Wi O5Wi' };

  it('keeping its own next hand most playable', () => {
    // Blue 1 Pepe on Blue 5 Bonk leaves Red 4 Ponke (on Green 4 Solana) and Orange 2 Pepe (on the new
    // Blue 1 Pepe) playable; Red 4 Ponke on Green 4 Solana would leave only Blue 1 Pepe playable. Both
    // leave tops matching 132 faces, and the better play is not the first one found (pile 0).
    const s = scenario({
      piles: ['G4So', 'B5Bo'],
      players: [human, { hand: 'B1Pe R4Pk O2Pe', deck: 'Y3Wi', bot: 'expert', botAt: 1000 }],
    });
    bestEveryTime(s, { type: 'cardPlayed', playerId: 'p2', card: card('B1Pe'), pileIndex: 1 });
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
    bestEveryTime(s, { type: 'cardPlayed', playerId: 'p2', card: card('B4Pe'), pileIndex: 1 });
  });
});
