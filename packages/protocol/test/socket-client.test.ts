import { describe, expect, it } from 'vitest';
import { RULE_TEXTS, apply, type Command } from '@memeslam/engine';
import {
  CLIENT_EVENT_NAMES,
  SERVER_TEXTS,
  ackError,
  ackSchemaFor,
  clientAckDataSchemas,
  clientEventSchemas,
  parseClientEvent,
  parseWith,
  playCardSchema,
  socketAuthSchema,
  stopAllBotsSchema,
  usePowerUpSchema,
  type Ack,
  type AckData,
  type ClientPayload,
  type ClientToServerEvents,
} from '../src/index.ts';
import { aliceHand, dealt, game, view } from './fixtures.ts';

/** The client-to-server events (docs/protocol.md, Client events), verbatim. */
const SPEC_CLIENT_EVENTS = [
  'createGame',
  'create-bot-game',
  'joinGame',
  'leaveGame',
  'setPlayerReady',
  'startGame',
  'playCard',
  'usePowerUp',
  'getPowerUpStatus',
  'requestHand',
  'checkDeadlock',
  'forceDeadlockResolution',
  'stopAllBots',
];

/** Rematch offers and the Play now queue. */
const OUR_CLIENT_EVENTS = ['offerRematch', 'joinQueue', 'leaveQueue'];

/** One realistic payload per event, as the web client sends it. */
const VALID: { [E in keyof ClientToServerEvents]: ClientPayload<E> } = {
  createGame: { maxPlayers: 4, cardsPerPlayer: 30, gameSpeed: 'normal', allowSpectators: true, mode: 'free' },
  'create-bot-game': { numberOfBots: 2, botDifficulty: 'hard', maxPlayers: 4, gameSpeed: 'fast', autoStart: true },
  joinGame: { roomCode: 'abc234' },
  leaveGame: {},
  setPlayerReady: { isReady: true },
  startGame: {},
  playCard: { cardId: '3-Red-Pepe-0', pileIndex: 1 },
  usePowerUp: { powerUpType: 'FREEZE', targetData: { targetPlayerId: 'bot-1' } },
  getPowerUpStatus: {},
  requestHand: {},
  checkDeadlock: {},
  forceDeadlockResolution: {},
  stopAllBots: { roomCode: 'ABC234', reason: 'returnToDashboard', playerId: 'u-alice' },
  offerRematch: { gameId: 'g-1' },
  joinQueue: { size: 3 },
  leaveQueue: {},
};

describe('client event map', () => {
  it('has a payload schema and an ack data schema for every listed event, and no others', () => {
    const all = [...SPEC_CLIENT_EVENTS, ...OUR_CLIENT_EVENTS].sort();
    expect([...CLIENT_EVENT_NAMES].sort()).toEqual(all);
    expect(Object.keys(clientAckDataSchemas).sort()).toEqual(all);
  });

  it('accepts a realistic payload for every event', () => {
    for (const name of CLIENT_EVENT_NAMES) {
      expect(clientEventSchemas[name].safeParse(VALID[name]).success, name).toBe(true);
    }
  });

  it('rejects unknown fields on every event, naming them', () => {
    for (const name of CLIENT_EVENT_NAMES) {
      const result = parseClientEvent(name, { ...VALID[name], sneaky: 1 });
      expect(result, name).toMatchObject({ success: false, message: 'Unknown field: sneaky' });
    }
  });

  it('treats a missing payload of an empty event as {}', () => {
    expect(parseClientEvent('leaveGame', undefined)).toEqual({ success: true, data: {} });
    expect(parseClientEvent('setPlayerReady', undefined).success).toBe(false);
  });

  it('answers an unknown event without throwing', () => {
    expect(parseClientEvent('dealMeAces', {})).toEqual({
      success: false,
      message: SERVER_TEXTS.unknownEvent,
      errors: [],
    });
    expect(parseClientEvent('toString', {}).success).toBe(false);
  });

  it('rejects wrong types', () => {
    expect(parseClientEvent('setPlayerReady', { isReady: 'yes' }).success).toBe(false);
    expect(parseClientEvent('playCard', { cardId: 3, pileIndex: 0 }).success).toBe(false);
    expect(parseClientEvent('playCard', { cardId: 'c', pileIndex: '0' }).success).toBe(false);
    expect(parseClientEvent('joinGame', 'ABC234').success).toBe(false);
  });
});

describe('playCard', () => {
  it('uses the engine texts for a missing card or a bad pile', () => {
    expect(parseClientEvent('playCard', { pileIndex: 0 })).toMatchObject({ message: RULE_TEXTS.CARD_REQUIRED });
    expect(parseClientEvent('playCard', { cardId: 'c', pileIndex: 9 })).toMatchObject({
      message: 'Invalid discard pile',
    });
  });

  it('produces what the engine command needs', () => {
    const state = dealt();
    const card = aliceHand?.hand[0];
    expect(card).toBeDefined();
    const parsed = playCardSchema.parse({ cardId: card?.id, pileIndex: 0 });
    const command: Command = { type: 'playCard', playerId: 'u-alice', ...parsed };
    expect(apply(state, command, state.clock).state).toBeDefined();
  });
});

describe('usePowerUp', () => {
  it('accepts FREEZE targets at the top level or inside targetData', () => {
    expect(usePowerUpSchema.parse({ powerUpType: 'FREEZE', targetPlayerId: 'bot-1' })).toEqual({
      powerUpType: 'FREEZE',
      targetPlayerId: 'bot-1',
    });
    expect(usePowerUpSchema.parse({ powerUpType: 'FREEZE', targetData: { targetPlayerId: 'bot-1' } })).toEqual({
      powerUpType: 'FREEZE',
      targetPlayerId: 'bot-1',
    });
  });

  it('accepts SNIPER card and pile in either place, or split between both', () => {
    const expected = { powerUpType: 'SNIPER', cardId: 'c1', pileIndex: 2 };
    expect(usePowerUpSchema.parse({ powerUpType: 'SNIPER', cardId: 'c1', pileIndex: 2 })).toEqual(expected);
    expect(usePowerUpSchema.parse({ powerUpType: 'SNIPER', targetData: { cardId: 'c1', pileIndex: 2 } })).toEqual(
      expected,
    );
    expect(
      usePowerUpSchema.parse({ powerUpType: 'SNIPER', cardId: 'c1', targetData: { cardId: 'c1', pileIndex: 2 } }),
    ).toEqual(expected);
  });

  it('refuses missing or conflicting targets with clear texts', () => {
    const msg = (payload: unknown) => parseClientEvent('usePowerUp', payload);
    expect(msg({ powerUpType: 'FREEZE' })).toMatchObject({ message: RULE_TEXTS.TARGET_REQUIRED });
    expect(msg({ powerUpType: 'SNIPER', pileIndex: 0 })).toMatchObject({ message: RULE_TEXTS.CARD_REQUIRED });
    expect(msg({ powerUpType: 'SNIPER', cardId: 'c1' })).toMatchObject({ message: RULE_TEXTS.INVALID_PILE });
    expect(msg({ powerUpType: 'SNIPER', cardId: 'a', targetData: { cardId: 'b', pileIndex: 0 } })).toMatchObject({
      message: 'Conflicting power-up targets',
    });
    expect(msg({ powerUpType: 'NUKE' })).toMatchObject({ message: 'Unknown power-up' });
    expect(msg({ powerUpType: 'BOMB', targetData: { colour: 'Red' } })).toMatchObject({
      message: 'Unknown field: colour',
    });
  });

  it('keeps BOMB’s optional pile and drops targets other power-ups do not use', () => {
    expect(usePowerUpSchema.parse({ powerUpType: 'BOMB', targetData: { pileIndex: 1 } })).toEqual({
      powerUpType: 'BOMB',
      pileIndex: 1,
    });
    expect(usePowerUpSchema.parse({ powerUpType: 'BOMB' })).toEqual({ powerUpType: 'BOMB' });
    expect(usePowerUpSchema.parse({ powerUpType: 'WHIRLWIND', targetPlayerId: 'x' })).toEqual({
      powerUpType: 'WHIRLWIND',
    });
  });

  it('spreads into an engine command the engine accepts', () => {
    const state = dealt();
    const request = usePowerUpSchema.parse({ powerUpType: 'FREEZE', targetData: { targetPlayerId: 'bot-1' } });
    const result = apply(state, { type: 'usePowerUp', playerId: 'u-alice', ...request }, state.clock);
    expect(result.ok).toBe(true);
  });
});

describe('stopAllBots', () => {
  it('needs a game id or a room code and one of the three reasons', () => {
    expect(stopAllBotsSchema.parse({ gameId: 'g-1', reason: 'playerLeft' })).toEqual({
      gameId: 'g-1',
      reason: 'playerLeft',
    });
    expect(stopAllBotsSchema.parse({ roomCode: 'abc234', reason: 'componentUnmount' }).roomCode).toBe('ABC234');
    expect(parseClientEvent('stopAllBots', { reason: 'playerLeft' })).toMatchObject({
      message: 'A game id or room code is required',
    });
    expect(stopAllBotsSchema.safeParse({ gameId: 'g-1', reason: 'bored' }).success).toBe(false);
  });
});

describe('acks', () => {
  it('types and validates each event’s ack data', () => {
    const deadlock: Ack<AckData<'checkDeadlock'>> = {
      success: true,
      data: { result: { deadlockDetected: true, resolved: true } },
    };
    const status: Ack<AckData<'getPowerUpStatus'>> = {
      success: true,
      data: { powerUps: { available: ['BOMB'], used: ['FREEZE'] }, activeEffects: view.activeEffects, isFrozen: false },
    };
    const hand: Ack<AckData<'requestHand'>> = {
      success: true,
      data: { ...aliceHand!, gameState: view, seq: 12 },
    };
    const left: Ack<AckData<'leaveGame'>> = { success: true };
    const joined: Ack<AckData<'joinGame'>> = { success: true, data: { gameId: 'g-1', roomCode: 'ABC234', game } };
    expect(ackSchemaFor('checkDeadlock').safeParse(deadlock).success).toBe(true);
    expect(clientAckDataSchemas.checkDeadlock.safeParse(deadlock.data).success).toBe(true);
    expect(clientAckDataSchemas.getPowerUpStatus.safeParse(status.success && status.data).success).toBe(true);
    expect(clientAckDataSchemas.requestHand.safeParse(hand.success && hand.data).success).toBe(true);
    expect(clientAckDataSchemas.joinGame.safeParse(joined.success && joined.data).success).toBe(true);
    expect(ackSchemaFor('leaveGame').safeParse(left).success).toBe(true);
    expect(ackSchemaFor('playCard').safeParse(ackError('GAME_NOT_ACTIVE', 'Cannot play cards right now')).success).toBe(
      true,
    );
    expect(ackSchemaFor('playCard').safeParse({ success: false }).success).toBe(false);
    // A refusal carries its code, one of the protocol's.
    expect(ackError('GAME_NOT_FOUND')).toEqual({ success: false, error: 'Game not found', code: 'GAME_NOT_FOUND' });
    expect(ackSchemaFor('joinGame').safeParse({ success: false, error: 'Game not found' }).success).toBe(false);
    expect(ackSchemaFor('joinGame').safeParse({ success: false, error: 'x', code: 'NO_SUCH_CODE' }).success).toBe(
      false,
    );
    expect(clientAckDataSchemas.checkDeadlock.safeParse({ result: { deadlockDetected: 'no' } }).success).toBe(false);
  });

  it('gives socket.io-style signatures: (payload, ack) for every client event', () => {
    type EventsMap = { [event: string]: (...args: never[]) => void };
    const map: EventsMap = {} as ClientToServerEvents;
    const emitPlay: ClientToServerEvents['playCard'] = (payload, ack) => {
      ack(
        payload.pileIndex >= 0
          ? { success: true, data: { card: aliceHand!.hand[0]!, pileIndex: 0 } }
          : ackError('INVALID_PILE'),
      );
    };
    expect(map).toBeDefined();
    expect(emitPlay).toBeTypeOf('function');
  });
});

describe('handshake auth', () => {
  it('takes the stored token', () => {
    expect(socketAuthSchema.parse({ token: ' eyJ.abc.def ' })).toEqual({ token: 'eyJ.abc.def' });
  });

  it('refuses a missing or blank token with a message containing "Authentication"', () => {
    for (const auth of [{}, { token: '' }, { token: '   ' }, { token: 42 }, undefined]) {
      const result = parseWith(socketAuthSchema, auth);
      expect(result.success, JSON.stringify(auth)).toBe(false);
      if (!result.success) expect(result.message).toContain('Authentication');
    }
  });
});
