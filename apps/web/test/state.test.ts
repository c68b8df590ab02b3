/**
 * The live game reducer: optimistic plays and power-ups laid over the server's state, rolled back
 * on refusal, settled by the server's own events in whatever order they come; seq gaps; freeze.
 */
import type { Card } from '@memeslam/engine';
import { describe, expect, it } from 'vitest';
import { displayed } from '../src/game/displayed.ts';
import { type Action, type LiveGame, type ServerAction, initialLiveGame, reduce } from '../src/game/state.ts';
import { deadlockLadder, hasPlayableCard, playProblem, powerUpProblem, selectProblem } from '../src/game/rules.ts';

const card = (id: string, number: Card['number'], color: Card['color'], logo: Card['logo']): Card => ({
  id,
  number,
  color,
  logo,
});
const RED3 = card('3-Red-Pepe-0', 3, 'Red', 'Pepe');
const BLUE1 = card('1-Blue-Bonk-0', 1, 'Blue', 'Bonk');
const GREEN5 = card('5-Green-Wif-0', 5, 'Green', 'Wif');
const TOP_A = card('3-Purple-Solana-0', 3, 'Purple', 'Solana');
const TOP_B = card('2-Blue-Ponke-0', 2, 'Blue', 'Ponke');

const ME = 'me';
const powerUps = { available: ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'] as const, used: [] };

function player(userId: string, cardsLeft: number) {
  return {
    userId,
    username: userId,
    isBot: userId !== ME,
    botDifficulty: userId === ME ? null : ('easy' as const),
    position: 0,
    cardsLeft,
    handCount: 3,
    deckCount: cardsLeft - 3,
    isReady: true,
    powerUps: { available: [...powerUps.available], used: [] },
    isFrozen: false,
  };
}

function view(piles: Card[][], effects: { targetPlayerId: string }[] = []) {
  return {
    status: 'active' as const,
    discardPiles: piles,
    pileSizes: piles.map((p) => p.length),
    players: [player(ME, 30), player('bot', 30)],
    activeEffects: effects.map((e) => ({
      type: 'freeze' as const,
      targetPlayerId: e.targetPlayerId,
      startTime: 0,
      duration: 8000,
    })),
    winner: null,
    startedAt: 0,
  };
}

function server<E extends ServerAction['event']>(event: E, payload: unknown): Action {
  return { type: 'server', event, payload, now: 1000 } as Action;
}

function hand(cards: Card[], seq: number, cardsLeft = 30) {
  return server('handUpdated', { hand: cards, deckSize: cardsLeft - cards.length, cardsLeft, powerUps, seq });
}

/** An active game: two piles (Purple 3 Solana, Blue 2 Ponke), hand Red 3, Blue 1, Green 5. */
function started(): LiveGame {
  let state = reduce(initialLiveGame, { type: 'reset', me: ME });
  state = reduce(
    state,
    server('gameStarted', {
      gameId: 'g1',
      roomCode: 'ABCDEF',
      gameState: view([[TOP_A], [TOP_B]]),
      players: [],
      seedCommitment: 'c'.repeat(64),
      isBotGame: true,
      botSettings: null,
      seq: 5,
    }),
  );
  return reduce(state, hand([RED3, BLUE1, GREEN5], 5));
}

describe('optimistic plays', () => {
  it('moves the card from the hand onto the pile at once', () => {
    const state = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const shown = displayed(state);
    expect(shown.hand.map((c) => c.id)).toEqual([BLUE1.id, GREEN5.id]);
    expect(shown.piles[0]?.at(-1)).toEqual(RED3);
    expect(shown.cardsLeft).toBe(29);
  });

  it('rolls back when the server refuses', () => {
    const sent = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const refused = reduce(sent, { type: 'playFailed', cardId: RED3.id });
    expect(displayed(refused)).toEqual(displayed(started()));
  });

  it('draws a play whose ack is late back in the hand, as the server last had it, until the ack comes', () => {
    const sent = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const late = reduce(sent, { type: 'ackLate', cardId: RED3.id });
    expect(late.lateAcks).toBe(1);
    expect(displayed(late)).toEqual(displayed(started()));
    // Refused after all: nothing left to undo on screen; the ack is back.
    const back = reduce(reduce(late, { type: 'ackBack' }), { type: 'playFailed', cardId: RED3.id });
    expect(back.lateAcks).toBe(0);
    expect(displayed(back)).toEqual(displayed(started()));
  });

  it('never shows the card twice, whichever of cardPlayed and handUpdated comes first', () => {
    const sent = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const cardPlayed = server('cardPlayed', {
      playerId: ME,
      username: ME,
      cardId: RED3.id,
      card: RED3,
      pileIndex: 0,
      isBot: false,
      difficulty: null,
      gameState: view([[TOP_A, RED3], [TOP_B]]),
      seq: 6,
    });
    const refill = hand([BLUE1, GREEN5, TOP_B], 6, 29);
    for (const order of [
      [cardPlayed, refill],
      [refill, cardPlayed],
    ]) {
      let state = sent;
      for (const action of order) {
        state = reduce(state, action);
        const shown = displayed(state);
        expect(shown.piles.flat().filter((c) => c.id === RED3.id)).toHaveLength(1);
        expect(shown.hand.some((c) => c.id === RED3.id)).toBe(false);
      }
      expect(state.pendingPlays).toEqual([]);
      expect(state.counters.cardsPlayed).toBe(1);
    }
  });

  it('lays a pending power-up over the server state and restores it when refused', () => {
    const sent = reduce(started(), { type: 'powerUpSent', powerUpType: 'BOMB' });
    expect(displayed(sent).powerUps.available).not.toContain('BOMB');
    expect(displayed(sent).powerUps.used).toContain('BOMB');
    const refused = reduce(sent, { type: 'powerUpFailed', powerUpType: 'BOMB' });
    expect(displayed(refused).powerUps.available).toContain('BOMB');
  });
});

describe('events', () => {
  it('asks for a resync when a room broadcast skips a seq, not for hand events', () => {
    const state = started();
    expect(reduce(state, hand([RED3], 9)).needsResync).toBe(false);
    const gap = reduce(state, server('playerUnfrozen', { playerId: 'bot', playerName: 'bot', seq: 8 }));
    expect(gap.needsResync).toBe(true);
    const next = reduce(state, server('playerUnfrozen', { playerId: 'bot', playerName: 'bot', seq: 6 }));
    expect(next.needsResync).toBe(false);
  });

  it('freezes this player on playerFrozen, dropping pending plays, and thaws on playerUnfrozen', () => {
    const sent = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const frozen = reduce(
      sent,
      server('playerFrozen', {
        playerId: ME,
        playerName: ME,
        frozenBy: 'bot',
        frozenById: 'bot',
        frozenByBot: true,
        duration: 8000,
        seq: 6,
      }),
    );
    expect(frozen.frozen).toMatchObject({ by: 'bot', until: 9000, durationMs: 8000 });
    expect(frozen.pendingPlays).toEqual([]);
    const thawed = reduce(frozen, server('playerUnfrozen', { playerId: ME, playerName: ME, seq: 7 }));
    expect(thawed.frozen).toBeNull();
  });

  it('ends the game on gameEnded and keeps it finished against late status changes', () => {
    const sent = reduce(started(), { type: 'playSent', card: RED3, pileIndex: 0 });
    const ended = reduce(
      sent,
      server('gameEnded', {
        gameId: 'g1',
        winner: { userId: 'bot', username: 'bot', isBot: true, botDifficulty: 'easy' },
        duration: 60,
        durationMs: 60_000,
        results: [],
        seed: 'a'.repeat(32),
        reason: 'win',
        gameState: { ...view([[TOP_A], [TOP_B]]), status: 'finished' },
        seq: 6,
      }),
    );
    expect(ended.status).toBe('finished');
    expect(ended.pendingPlays).toEqual([]);
    expect(reduce(ended, server('gameStateChanged', { status: 'active', gameStatus: 'active', seq: 7 })).status).toBe(
      'finished',
    );
  });
});

describe('entering a room', () => {
  it('picks up a countdown already running, so it ends when play begins', () => {
    const game = {
      gameId: 'g2',
      roomCode: 'ROOM22',
      host: { userId: 'bot', username: 'bot' },
      status: 'starting' as const,
      players: [],
      playersCount: 2,
      maxPlayers: 2,
      isOpen: false,
      isBotGame: false,
      botSettings: null,
      botInfo: null,
      gameSettings: { cardsPerPlayer: 30 as const, gameSpeed: 'normal' as const, allowSpectators: true },
      createdAt: '2026-11-22T00:00:00.000Z',
      startsAt: 123_456,
      gameState: null,
    };
    const state = reduce({ ...initialLiveGame, me: ME }, { type: 'entered', game });
    expect(state.status).toBe('starting');
    expect(state.countdown).toEqual({ startsAt: 123_456, duration: 5000 });
  });
});

describe('client checks in the engine order', () => {
  const ctx = { status: 'active' as const, frozen: false, hand: [RED3, BLUE1], piles: [[TOP_A], [TOP_B]] };

  it('gives the protocol texts', () => {
    expect(playProblem({ ...ctx, status: 'starting' }, RED3.id, 0)).toBe('Game not active');
    expect(playProblem({ ...ctx, frozen: true }, RED3.id, 0)).toBe('You are frozen and cannot play cards!');
    expect(playProblem(ctx, null, 0)).toBe('Please select the card first');
    expect(playProblem(ctx, GREEN5.id, 0)).toBe('Card not found in hand');
    expect(playProblem({ ...ctx, piles: [[], [TOP_B]] }, RED3.id, 0)).toBe('No cards in discard pile');
    expect(playProblem(ctx, RED3.id, 1)).toBe('Cannot play Red 3 Pepe on Blue 2 Ponke');
    expect(playProblem(ctx, RED3.id, 1, { sniper: true })).toBeNull();
    expect(playProblem(ctx, RED3.id, 0)).toBeNull();
    // A pile this screen does not draw reads as one with no cards, as before the engine's checks.
    expect(playProblem(ctx, RED3.id, 2)).toBe('No cards in discard pile');
  });

  it('gives the protocol texts for selecting a card and a power-up, the freeze first', () => {
    expect(selectProblem({ ...ctx, status: 'starting', frozen: true })).toBe('You are frozen and cannot select cards!');
    expect(selectProblem({ ...ctx, status: 'starting' })).toBe('Cannot play cards right now');
    expect(selectProblem(ctx)).toBeNull();
    const powerUps = { available: ['FREEZE', 'BOMB'] as const, used: [] };
    const rival = [{ userId: 'rival', isFrozen: false }];
    expect(powerUpProblem({ ...ctx, frozen: true, status: 'starting' }, powerUps, 'BOMB', rival)).toBe(
      'You are frozen and cannot use power-ups!',
    );
    expect(powerUpProblem({ ...ctx, status: 'starting' }, powerUps, 'BOMB', rival)).toBe('Game not active');
    expect(powerUpProblem(ctx, powerUps, 'SNIPER', rival)).toBe('Power-up not available');
    expect(powerUpProblem(ctx, powerUps, 'FREEZE', [])).toBe('No opponents to freeze');
    expect(powerUpProblem(ctx, powerUps, 'FREEZE', rival)).toBeNull();
  });

  it('sees a deadlock only when no hand card matches any top', () => {
    expect(hasPlayableCard([GREEN5], [[TOP_A], [TOP_B]])).toBe(false);
    expect(hasPlayableCard([GREEN5, BLUE1], [[TOP_A], [TOP_B]])).toBe(true);
  });

  it('climbs the deadlock ladder at 5, 10, 15 and 20 s', () => {
    expect(deadlockLadder(4999, false)).toMatchObject({ notice: false, check: false, canForce: false });
    expect(deadlockLadder(5000, false)).toMatchObject({ notice: true, secondsToCheck: 5, check: false });
    expect(deadlockLadder(9100, false)).toMatchObject({ secondsToCheck: 1, check: false });
    expect(deadlockLadder(10_000, false)).toMatchObject({ check: true, canForce: false });
    expect(deadlockLadder(15_000, false)).toMatchObject({ canForce: true, autoForce: false });
    expect(deadlockLadder(20_000, false).autoForce).toBe(false);
    expect(deadlockLadder(20_000, true).autoForce).toBe(true);
  });
});
