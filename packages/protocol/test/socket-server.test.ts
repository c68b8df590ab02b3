import { describe, expect, it } from 'vitest';
import { apply, handView, publicView, type PowerUpEffect } from '@memeslam/engine';
import {
  POWER_UP_EFFECT_TEXTS,
  RESERVED_SOCKET_EVENTS,
  SERVER_EVENT_NAMES,
  gameStateSchema,
  handPayloadSchema,
  playerSchema,
  serverEventSchemas,
  type ServerArgs,
  type ServerEventName,
  type ServerPayload,
  type ServerToClientEvents,
} from '../src/index.ts';
import { COMMITMENT, NOW, SEED, aliceHand, botPlayer, dealt, game, player, view } from './fixtures.ts';

/** Server-to-client event names (docs/protocol.md, Server events), verbatim. */
const SPEC_SERVER_EVENTS = [
  'connected',
  'connect',
  'disconnect',
  'connect_error',
  'gameCreated',
  'gameJoined',
  'gameUpdated',
  'playerJoined',
  'playerLeft',
  'playerReadyChanged',
  'allPlayersReady',
  'gameStarting',
  'gameStarted',
  'gameBegin',
  'roundStarted',
  'allPlayersStarted',
  'navigateToGame',
  'botGameStarting',
  'botGameStarted',
  'gameStateChanged',
  'handDealt',
  'handUpdated',
  'cardPlayed',
  'powerUpUsed',
  'powerUpError',
  'playerFrozen',
  'playerUnfrozen',
  'gameEnded',
  'gameRejoined',
  'playerDisconnected',
  'deadlockResolved',
  'deadlockUnresolvable',
  'gameError',
  'error',
];

/** Events that are not about one game's sequence, so they carry no seq. */
/** Not broadcasts about a game: to one socket, or to one user (a rematch offered, the Play now queue's news). */
const WITHOUT_SEQ = new Set<ServerEventName>([
  'connected',
  'powerUpError',
  'gameError',
  'error',
  'rematchOffered',
  'queueStatus',
  'matchFound',
  'botGameOffered',
]);

const starting: ServerPayload<'gameStarting'> = {
  gameId: 'g-1',
  roomCode: 'ABC234',
  countdownDuration: 5000,
  startsAt: NOW + 5000,
  isBotGame: true,
  botSettings: { numberOfBots: 1, difficulty: 'hard' },
  players: [player, botPlayer],
  seq: 4,
};
const started: ServerPayload<'gameStarted'> = {
  gameId: 'g-1',
  roomCode: 'ABC234',
  gameState: view,
  players: [player, botPlayer],
  seedCommitment: COMMITMENT,
  isBotGame: true,
  botSettings: { numberOfBots: 1, difficulty: 'hard' },
  seq: 5,
};
const hand: ServerPayload<'handDealt'> = { ...aliceHand!, seq: 6 };
const firstCard = aliceHand!.hand[0]!;
const bomb: PowerUpEffect = { powerUpType: 'BOMB', card: firstCard, pileIndex: 0 };

/** One realistic payload per server event; readonly engine values are assigned as they are. */
const VALID: { [E in ServerEventName]: ServerPayload<E> } = {
  connected: { userId: 'u-alice', username: 'alice' },
  gameCreated: { success: true, game, gameId: 'g-1', roomCode: 'ABC234', seq: 1 },
  gameJoined: { success: true, game, gameId: 'g-1', roomCode: 'ABC234', seq: 2 },
  gameUpdated: { ...game, seq: 3 },
  playerJoined: { player: botPlayer, game, seq: 2 },
  playerLeft: { userId: 'u-bob', username: 'bob', isBot: false, seq: 3 },
  playerReadyChanged: { userId: 'u-alice', username: 'alice', isReady: true, isBot: false, seq: 3 },
  allPlayersReady: { gameId: 'g-1', seq: 3 },
  gameStarting: starting,
  gameStarted: started,
  gameBegin: starting,
  roundStarted: starting,
  allPlayersStarted: starting,
  navigateToGame: starting,
  botGameStarting: starting,
  botGameStarted: started,
  gameStateChanged: { status: 'active', gameStatus: 'active', seq: 5 },
  handDealt: hand,
  handUpdated: hand,
  cardPlayed: {
    playerId: 'bot-1',
    username: 'Pepe Bot',
    cardId: firstCard.id,
    card: firstCard,
    pileIndex: 0,
    isBot: true,
    difficulty: 'hard',
    gameState: view,
    seq: 7,
  },
  powerUpUsed: {
    playerId: 'u-alice',
    username: 'alice',
    powerUpType: 'BOMB',
    effect: POWER_UP_EFFECT_TEXTS.BOMB,
    data: bomb,
    gameState: view,
    isBot: false,
    seq: 8,
  },
  powerUpError: { powerUpType: 'BOMB', message: 'Power-up not available' },
  playerFrozen: {
    playerId: 'bot-1',
    playerName: 'Pepe Bot',
    frozenBy: 'alice',
    frozenById: 'u-alice',
    frozenByBot: false,
    duration: 8000,
    seq: 9,
  },
  playerUnfrozen: { playerId: 'bot-1', playerName: 'Pepe Bot', seq: 10 },
  gameEnded: {
    gameId: 'g-1',
    winner: { userId: 'u-alice', username: 'alice', isBot: false, botDifficulty: null },
    duration: 142,
    durationMs: 142_350,
    results: [
      {
        playerId: 'u-alice',
        username: 'alice',
        isBot: false,
        botDifficulty: null,
        place: 1,
        cardsLeft: 0,
        cardsPlayed: 30,
        powerUpsUsed: 2,
        forfeited: false,
        points: 112,
      },
    ],
    seed: SEED,
    reason: 'win',
    gameState: view,
    seq: 80,
  },
  gameRejoined: {
    ...aliceHand!,
    game: { ...game, status: 'active', gameState: view },
    gameState: view,
    activeEffects: [],
    powerUps: aliceHand!.powerUps,
    isFrozen: false,
    seq: 40,
  },
  playerDisconnected: { userId: 'u-alice', username: 'alice', seq: 41 },
  playerReconnected: { userId: 'u-alice', username: 'alice', seq: 42 },
  deadlockResolved: {
    newDiscardPiles: view.discardPiles,
    gameState: view,
    automatic: true,
    manual: false,
    forced: false,
    cardsFlipped: 2,
    seq: 43,
  },
  deadlockUnresolvable: { reason: 'No more cards can be flipped.', consecutiveDeadlocks: 1, seq: 44 },
  gameError: { message: 'Game not active' },
  rematchOffered: { gameId: 'g-1', roomCode: 'XYZ234', by: { userId: 'u-alice', username: 'alice' } },
  queueStatus: { searching: 3, waitedMs: 4200, size: 'any' },
  matchFound: { gameId: 'g-2', roomCode: 'XYZ235', people: 2, bots: 1 },
  botGameOffered: { waitedMs: 20_000, botPaceMs: 1800 },
  error: { message: 'Unknown event' },
};

describe('server event map', () => {
  it('has a payload schema for every listed server event', () => {
    const reserved: readonly string[] = RESERVED_SOCKET_EVENTS;
    for (const name of SPEC_SERVER_EVENTS) {
      expect(reserved.includes(name) || name in serverEventSchemas, name).toBe(true);
    }
    for (const name of reserved) expect(name in serverEventSchemas).toBe(false);
  });

  it('accepts a realistic payload for every event', () => {
    for (const name of SERVER_EVENT_NAMES) {
      const result = serverEventSchemas[name].safeParse(VALID[name]);
      expect(result.error?.issues ?? [], name).toEqual([]);
    }
  });

  it('puts seq on every broadcast about a game', () => {
    for (const name of SERVER_EVENT_NAMES) {
      if (WITHOUT_SEQ.has(name)) continue;
      const payload: Record<string, unknown> = { ...VALID[name] };
      delete payload.seq;
      expect(serverEventSchemas[name].safeParse(payload).success, name).toBe(false);
      expect(serverEventSchemas[name].safeParse({ ...VALID[name], seq: -1 }).success, name).toBe(false);
    }
  });

  it('rejects wrong types and out-of-range values', () => {
    expect(serverEventSchemas.cardPlayed.safeParse({ ...VALID.cardPlayed, pileIndex: 7 }).success).toBe(false);
    expect(serverEventSchemas.playerFrozen.safeParse({ ...VALID.playerFrozen, duration: '8s' }).success).toBe(false);
    expect(serverEventSchemas.gameEnded.safeParse({ ...VALID.gameEnded, reason: 'boredom' }).success).toBe(false);
    expect(serverEventSchemas.gameEnded.safeParse({ ...VALID.gameEnded, seed: 'short' }).success).toBe(false);
    expect(serverEventSchemas.gameEnded.safeParse({ ...VALID.gameEnded, winner: null }).success).toBe(true);
    expect(
      serverEventSchemas.gameCreated.safeParse({
        success: false,
        error: 'Failed to create game',
        code: 'CREATE_FAILED',
      }).success,
    ).toBe(true);
    // A refusal carries its code.
    expect(serverEventSchemas.gameCreated.safeParse({ success: false, error: 'Failed to create game' }).success).toBe(
      false,
    );
    expect(serverEventSchemas.gameCreated.safeParse({ success: true, error: 'x' }).success).toBe(false);
  });

  it('spells out each event’s emitter arguments as socket.io reads them from the map', () => {
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
    const agree: { [E in ServerEventName]: Same<ServerArgs<E>, Parameters<ServerToClientEvents[E]>> } = {
      ...(Object.fromEntries(SERVER_EVENT_NAMES.map((name) => [name, true])) as { [E in ServerEventName]: true }),
    };
    expect(Object.values(agree).every(Boolean)).toBe(true);
  });

  it('gives socket.io-style listener signatures', () => {
    const onCardPlayed: ServerToClientEvents['cardPlayed'] = (payload) => {
      expect(payload.gameState.discardPiles.length).toBeGreaterThan(0);
    };
    onCardPlayed(VALID.cardPlayed);
  });
});

describe('fields beyond the engine’s view', () => {
  it('a player carries powerUpsUsed always and isCurrentPlayer where one user is addressed', () => {
    const used = { ...player, powerUps: { available: ['BOMB'], used: ['FREEZE'] }, powerUpsUsed: ['FREEZE'] };
    expect(playerSchema.safeParse(used).success).toBe(true);
    expect(playerSchema.safeParse({ ...used, isCurrentPlayer: true }).success).toBe(true);
    const { powerUpsUsed: _omitted, ...withoutUsed } = used;
    expect(playerSchema.safeParse(withoutUsed).success).toBe(false);
    expect(playerSchema.safeParse({ ...used, powerUpsUsed: ['NUKE'] }).success).toBe(false);
    expect(playerSchema.safeParse({ ...used, isCurrentPlayer: 'yes' }).success).toBe(false);
  });

  it('gameState may carry the canPlay flag', () => {
    expect(gameStateSchema.parse({ ...view, canPlay: true }).canPlay).toBe(true);
    expect(gameStateSchema.safeParse(view).success).toBe(true);
    expect(gameStateSchema.safeParse({ ...view, canPlay: 'yes' }).success).toBe(false);
  });
});

describe('the public view (gameState)', () => {
  it('accepts the engine view with its extra fields and keeps them', () => {
    const parsed = gameStateSchema.parse(view);
    expect(parsed).toEqual(view);
    expect(parsed.stockSize).toBe(view.stockSize);
    expect(Object.keys(parsed.players[0]!)).toEqual(
      expect.arrayContaining(['userId', 'username', 'isBot', 'botDifficulty', 'position', 'cardsLeft', 'handCount']),
    );
  });

  it('stays valid through a played game, whatever the engine emits', () => {
    let state = dealt();
    const effects: PowerUpEffect[] = [];
    const card = handView(state, 'u-alice')!.hand[0]!;
    const uses = [
      { powerUpType: 'SNIPER', cardId: card.id, pileIndex: 1 },
      { powerUpType: 'BOMB', pileIndex: 0 },
      { powerUpType: 'REVERSAL' },
      { powerUpType: 'WHIRLWIND' },
      { powerUpType: 'FREEZE', targetPlayerId: 'bot-1' },
    ] as const;
    for (const use of uses) {
      const result = apply(state, { type: 'usePowerUp', playerId: 'u-alice', ...use }, state.clock);
      expect(result.ok, use.powerUpType).toBe(true);
      if (result.ok) {
        for (const event of result.events) if (event.type === 'powerUpUsed') effects.push(event.effect);
      }
      state = result.state;
      expect(gameStateSchema.safeParse(publicView(state)).success).toBe(true);
    }
    for (let i = 0; i < 30 && state.status === 'active'; i += 1) {
      for (const held of handView(state, 'u-alice')!.hand) {
        for (const pileIndex of [0, 1]) {
          const played = apply(
            state,
            { type: 'playCard', playerId: 'u-alice', cardId: held.id, pileIndex },
            state.clock,
          );
          if (played.ok) state = played.state;
        }
      }
      expect(gameStateSchema.safeParse(publicView(state)).success).toBe(true);
      expect(handPayloadSchema.safeParse({ ...handView(state, 'u-alice'), seq: i }).success).toBe(true);
    }
    expect(effects.map((e) => e.powerUpType)).toEqual(['SNIPER', 'BOMB', 'REVERSAL', 'WHIRLWIND', 'FREEZE']);
    for (const effect of effects) {
      expect(serverEventSchemas.powerUpUsed.shape.data.safeParse(effect).success, effect.powerUpType).toBe(true);
    }
  });

  it('has no room for more than 3 cards of a pile or of a hand', () => {
    const card = view.discardPiles[0]![0]!;
    expect(gameStateSchema.safeParse({ ...view, discardPiles: [[card, card, card, card]] }).success).toBe(false);
    expect(handPayloadSchema.safeParse({ ...hand, hand: [card, card, card, card] }).success).toBe(false);
  });
});
