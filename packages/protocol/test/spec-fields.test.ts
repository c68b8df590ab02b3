/**
 * Every payload field and entity field the product names (docs/protocol.md, docs/http-api.md), checked
 * against the schemas' shapes: a field listed here that a schema has no place for fails here.
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  activeEffectSchema,
  activeGamesDataSchema,
  activeGamesQuerySchema,
  adminStatsSchema,
  authSessionSchema,
  botGameEntryDataSchema,
  botLobbySettingsSchema,
  cardSchema,
  clientAckDataSchemas,
  clientEventSchemas,
  createBotGameSchema,
  createGameRequestSchema,
  createGameSettingsSchema,
  createTournamentSchema,
  gameRecordSchema,
  gameSchema,
  gameStateSchema,
  gameStatsDataSchema,
  leaderboardDataSchema,
  leaderboardQuerySchema,
  leaderboardUserSchema,
  loginSchema,
  playerSchema,
  powerUpEffectSchema,
  registerSchema,
  registrationPendingSchema,
  resendVerificationSchema,
  serverEventSchemas,
  socketAuthSchema,
  tournamentLeaderboardEntrySchema,
  tournamentSchema,
  updateProfileSchema,
  userSchema,
  verificationRequiredSchema,
  verifyEmailSchema,
} from '../src/index.ts';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly element?: z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object shapes a schema accepts, seen through wrappers, pipes, unions and arrays. */
function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return [def.shape ?? {}];
    case 'pipe':
      return def.in && defOf(def.in).type !== 'transform' ? shapesOf(def.in) : def.out ? shapesOf(def.out) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return def.innerType ? shapesOf(def.innerType) : [];
    case 'union':
      return (def.options ?? []).flatMap(shapesOf);
    case 'array':
      return def.element ? shapesOf(def.element) : [];
    default:
      return [];
  }
}

/** The field names of a schema, with nested paths ("prizePool.totalAmount") followed. */
function field(schema: z.ZodType, path: string): z.ZodType | undefined {
  let current: z.ZodType[] = [schema];
  for (const key of path.split('.')) {
    current = current.flatMap((s) => shapesOf(s).flatMap((shape) => (shape[key] ? [shape[key]] : [])));
  }
  return current[0];
}

function missing(schema: z.ZodType, fields: readonly string[]): string[] {
  return fields.filter((path) => field(schema, path) === undefined);
}

describe('client → server payloads', () => {
  const table: [keyof typeof clientEventSchemas, string[]][] = [
    ['createGame', ['withBots', 'numberOfBots', 'botDifficulty', 'maxPlayers']],
    ['create-bot-game', ['numberOfBots', 'botDifficulty', 'maxPlayers', 'gameSpeed', 'autoStart']],
    ['joinGame', ['roomCode']],
    ['setPlayerReady', ['isReady']],
    ['playCard', ['cardId', 'pileIndex']],
    [
      'usePowerUp',
      [
        'powerUpType',
        'targetData',
        'targetData.targetPlayerId',
        'targetData.cardId',
        'targetData.pileIndex',
        'targetPlayerId',
        'cardId',
        'pileIndex',
      ],
    ],
    ['stopAllBots', ['gameId', 'roomCode', 'reason', 'playerId']],
  ];
  it.each(table)('%s carries every field of the table', (event, fields) => {
    expect(missing(clientEventSchemas[event], fields)).toEqual([]);
  });

  it('acks carry what the table says they answer', () => {
    expect(missing(clientAckDataSchemas.getPowerUpStatus, ['powerUps', 'activeEffects', 'isFrozen'])).toEqual([]);
    expect(missing(clientAckDataSchemas.checkDeadlock, ['result.deadlockDetected', 'result.resolved'])).toEqual([]);
  });

  it('the handshake carries the token', () => {
    expect(missing(socketAuthSchema, ['token'])).toEqual([]);
  });
});

describe('server → client payloads', () => {
  const table: [keyof typeof serverEventSchemas, string[]][] = [
    ['gameCreated', ['success', 'game', 'roomCode', 'error']],
    ['gameJoined', ['success', 'game', 'gameId']],
    ['gameUpdated', ['gameId', 'roomCode', 'players', 'status']],
    ['playerJoined', ['player', 'game']],
    ['playerLeft', ['userId', 'username', 'isBot']],
    ['playerReadyChanged', ['userId', 'username', 'isReady', 'isBot']],
    ['gameStarting', ['countdownDuration', 'startsAt', 'players', 'botSettings', 'isBotGame']],
    ['gameStarted', ['gameState', 'players', 'botSettings', 'isBotGame', 'seedCommitment']],
    ['gameStateChanged', ['status', 'gameStatus']],
    ['handDealt', ['hand', 'deckSize', 'cardsLeft', 'powerUps']],
    ['handUpdated', ['hand', 'deckSize', 'cardsLeft', 'powerUps']],
    ['cardPlayed', ['playerId', 'username', 'cardId', 'pileIndex', 'isBot', 'difficulty', 'gameState']],
    ['powerUpUsed', ['playerId', 'username', 'powerUpType', 'effect', 'data', 'gameState', 'isBot']],
    ['playerFrozen', ['playerId', 'playerName', 'frozenBy', 'frozenByBot', 'duration']],
    ['playerUnfrozen', ['playerId', 'playerName']],
    [
      'gameEnded',
      ['winner.userId', 'winner.username', 'winner.isBot', 'winner.botDifficulty', 'duration', 'results', 'seed'],
    ],
    ['gameRejoined', ['game', 'gameState', 'hand', 'powerUps', 'activeEffects']],
    [
      'deadlockResolved',
      [
        'newDiscardPiles',
        'gameState.discardPiles',
        'gameState.players',
        'automatic',
        'manual',
        'forced',
        'cardsFlipped',
      ],
    ],
    ['deadlockUnresolvable', ['reason', 'consecutiveDeadlocks']],
    ['gameError', ['message']],
  ];
  it.each(table)('%s carries every listed field', (event, fields) => {
    expect(missing(serverEventSchemas[event], fields)).toEqual([]);
  });

  it('power-up effect data by type', () => {
    expect(
      missing(powerUpEffectSchema, [
        'card',
        'pileIndex',
        'cardsReversed',
        'affectedPlayers.userId',
        'affectedPlayers.cardsAdded',
        'targetPlayer',
        'duration',
        'cardsShuffled',
      ]),
    ).toEqual([]);
  });

  it('gameState is the engine’s public view plus canPlay', () => {
    const fields = [
      'status',
      'discardPiles',
      'pileSizes',
      'players',
      'activeEffects',
      'winner',
      'startedAt',
      'canPlay',
    ];
    const players = ['userId', 'username', 'isBot', 'botDifficulty', 'position', 'cardsLeft', 'handCount'];
    const more = ['deckCount', 'isReady', 'powerUps.available', 'powerUps.used', 'isFrozen'];
    expect(missing(gameStateSchema, [...fields, ...[...players, ...more].map((f) => `players.${f}`)])).toEqual([]);
  });
});

describe('entities', () => {
  it('Game and the dashboard game summary', () => {
    const fields = ['gameId', 'roomCode', 'host.username', 'host.userId', 'status', 'players', 'playersCount'];
    const more = ['maxPlayers', 'isOpen', 'isBotGame', 'botSettings.numberOfBots', 'botSettings.difficulty'];
    const settings = ['gameSettings.cardsPerPlayer', 'gameSettings.gameSpeed', 'gameSettings.allowSpectators'];
    const state = ['gameState.discardPiles', 'gameState.canPlay', 'gameState.activeEffects', 'gameState.status'];
    const rest = ['botInfo.numberOfBots', 'botInfo.difficulty', 'createdAt', 'gameState.winner'];
    expect(missing(gameSchema, [...fields, ...more, ...settings, ...state, ...rest])).toEqual([]);
  });

  it('Player', () => {
    const fields = ['userId', 'username', 'isReady', 'isBot', 'botDifficulty', 'position', 'cardsLeft'];
    const more = ['powerUps.available', 'powerUps.used', 'powerUpsUsed', 'isCurrentPlayer'];
    expect(missing(playerSchema, [...fields, ...more])).toEqual([]);
  });

  it('Card, active effect, game record', () => {
    expect(missing(cardSchema, ['id', 'number', 'color', 'logo'])).toEqual([]);
    expect(missing(activeEffectSchema, ['type', 'targetPlayerId', 'startTime', 'duration'])).toEqual([]);
    expect(missing(gameRecordSchema, ['gameId', 'gameState.winner', 'duration', 'createdAt'])).toEqual([]);
  });

  it('User with stats, wallet and preferences', () => {
    const fields = ['id', 'username', 'email', 'role', 'canAccessAdmin'];
    const stats = ['gamesPlayed', 'gamesWon', 'winRate', 'totalPoints', 'fastestGame'].map((f) => `stats.${f}`);
    const rest = ['wallet.balance', 'wallet.totalWon', 'preferences.sound', 'preferences.animations'];
    expect(missing(userSchema, [...fields, ...stats, ...rest, 'preferences.autoPlay'])).toEqual([]);
  });

  it('leaderboard user and stats', () => {
    const stats = ['gamesPlayed', 'gamesWon', 'winRate', 'totalPoints', 'fastestGame'].map((f) => `stats.${f}`);
    expect(missing(leaderboardUserSchema, ['_id', 'rank', 'username', 'createdAt', ...stats])).toEqual([]);
    const global = ['totalGamesPlayed', 'totalPointsScored', 'totalPlayersOnline'].map((f) => `stats.${f}`);
    expect(missing(leaderboardDataSchema, ['users', ...global])).toEqual([]);
  });

  it('tournament, its leaderboard entry and the admin statistics', () => {
    const fields = ['id', 'name', 'description', 'status', 'startDate', 'timeRemaining', 'participantCount'];
    const pool = ['prizePool.totalAmount', 'prizePool.currency', 'prizePool.winnersCount'];
    expect(missing(tournamentSchema, [...fields, ...pool, 'settings.maxParticipants'])).toEqual([]);
    const entry = ['userId', 'position', 'username', 'tournamentValue', 'improvement.gamesPlayed'];
    expect(missing(tournamentLeaderboardEntrySchema, [...entry, 'improvement.gamesWon'])).toEqual([]);
    expect(missing(adminStatsSchema, ['userStats', 'tournamentCount', 'recentRegistrations'])).toEqual([]);
  });
});

describe('request bodies', () => {
  it('the create-game payload and the bot lobby settings', () => {
    const fields = ['cardsPerPlayer', 'gameSpeed', 'allowSpectators', 'autoStart', 'withBots', 'numberOfBots'];
    const more = ['botDifficulty', 'host', 'maxPlayers', 'mode', 'botSettings'];
    expect(missing(createGameSettingsSchema, [...fields, ...more])).toEqual([]);
    expect(missing(createGameRequestSchema, ['settings', 'settings.mode'])).toEqual([]);
    const bots = ['enabled', 'numberOfBots', 'difficulty', 'mixedDifficulties', 'autoReady', 'botPersonalities'];
    expect(missing(botLobbySettingsSchema, bots)).toEqual([]);
  });

  it('the bot game settings payload', () => {
    const fields = ['numberOfBots', 'botDifficulty', 'maxPlayers', 'gameSpeed', 'autoStart', 'cardsPerPlayer'];
    expect(missing(createBotGameSchema, fields)).toEqual([]);
  });

  it('account bodies', () => {
    expect(missing(loginSchema, ['email', 'password'])).toEqual([]);
    expect(missing(registerSchema, ['username', 'email', 'password'])).toEqual([]);
    const prefs = ['preferences.sound', 'preferences.animations', 'preferences.autoPlay'];
    expect(missing(updateProfileSchema, ['username', ...prefs])).toEqual([]);
    expect(missing(resendVerificationSchema, ['email'])).toEqual([]);
    expect(missing(verifyEmailSchema, ['token'])).toEqual([]);
  });

  it('the tournament creation payload, flat and nested', () => {
    const flat = ['name', 'description', 'startDate', 'endDate', 'currency', 'totalAmount', 'winnersCount'];
    const more = ['prizeDistribution.position', 'prizeDistribution.amount', 'maxParticipants', 'minGamesRequired'];
    const flags = ['scoringMethod', 'allowBots', 'requireVerifiedSolana', 'isFeatured'];
    const pool = ['totalAmount', 'currency', 'distribution', 'winnersCount'].map((f) => `prizePool.${f}`);
    const settings = ['maxParticipants', 'minGamesRequired', 'scoringMethod', 'allowBots', 'requireVerifiedSolana'];
    const nested = settings.map((f) => `settings.${f}`);
    expect(missing(createTournamentSchema, [...flat, ...more, ...flags, ...pool, ...nested])).toEqual([]);
  });

  it('queries of the game and tournament calls', () => {
    const active = ['includeBotGames', 'gameMode', 'botDifficulty', 'limit'];
    expect(missing(activeGamesQuerySchema, active)).toEqual([]);
    expect(missing(leaderboardQuerySchema, ['sortBy', 'limit'])).toEqual([]);
  });
});

describe('response bodies', () => {
  it('reads what the account calls answer', () => {
    expect(missing(authSessionSchema, ['token', 'user'])).toEqual([]);
    expect(missing(verificationRequiredSchema, ['success', 'requiresEmailVerification', 'email'])).toEqual([]);
    expect(missing(registrationPendingSchema, ['success', 'requiresEmailVerification', 'message'])).toEqual([]);
    const bot = ['gameId', 'roomCode', 'numberOfBots', 'botDifficulty'];
    expect(missing(botGameEntryDataSchema, bot)).toEqual([]);
    expect(missing(activeGamesDataSchema, ['games', 'summary.botGames', 'summary.humanGames'])).toEqual([]);
  });

  it('the stats response', () => {
    const user = ['totalGames', 'totalWins', 'averageGameTime', 'totalPotWon', 'winRate', 'recentBotGames'];
    const global = ['totalGames', 'totalBotGames', 'totalHumanGames', 'averageGameTime', 'totalPotValue'];
    const byDifficulty = ['easy', 'normal', 'hard'].map((d) => `globalStats.botGamesByDifficulty.${d}`);
    expect(
      missing(gameStatsDataSchema, [
        ...user.map((f) => `userStats.${f}`),
        'userStats.recentHumanGames',
        'recentGames',
        ...global.map((f) => `globalStats.${f}`),
        ...byDifficulty,
      ]),
    ).toEqual([]);
  });
});
