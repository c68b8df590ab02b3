/** Realistic payloads shared by the tests, built from a real engine deal where the engine owns the shape. */
import { createGame, handView, publicView, type GameConfig, type GameState } from '@memeslam/engine';
import type { Game, Player, User } from '../src/index.ts';

export const SEED = '0123456789abcdef0123456789abcdef';
export const COMMITMENT = 'a'.repeat(64);
export const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
export const ISO = new Date(NOW).toISOString();

export const config: GameConfig = {
  seed: SEED,
  seats: [
    { id: 'u-alice', username: 'alice', bot: null },
    { id: 'bot-1', username: 'Pepe Bot', bot: 'hard' },
  ],
  cardsPerPlayer: 30,
  speed: 'normal',
  startAt: NOW,
};

export function dealt(): GameState {
  return createGame(config);
}

export const view = publicView(dealt());
export const aliceHand = handView(dealt(), 'u-alice');

export const player: Player = {
  userId: 'u-alice',
  username: 'alice',
  isBot: false,
  botDifficulty: null,
  isReady: true,
  position: 0,
  cardsLeft: 30,
  powerUps: { available: ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'], used: [] },
  powerUpsUsed: [],
  isHost: true,
};

export const botPlayer: Player = {
  ...player,
  userId: 'bot-1',
  username: 'Pepe Bot',
  isBot: true,
  botDifficulty: 'hard',
  position: 1,
  isHost: false,
};

export const game: Game = {
  gameId: 'g-1',
  roomCode: 'ABC234',
  host: { userId: 'u-alice', username: 'alice' },
  status: 'waiting',
  players: [player, botPlayer],
  playersCount: 2,
  maxPlayers: 2,
  isOpen: false,
  isBotGame: true,
  botSettings: { numberOfBots: 1, difficulty: 'hard' },
  botInfo: { numberOfBots: 1, difficulty: 'hard' },
  gameSettings: { cardsPerPlayer: 30, gameSpeed: 'normal', allowSpectators: true, autoStart: true },
  createdAt: ISO,
  gameState: null,
};

export const user: User = {
  id: 'u-alice',
  username: 'alice',
  email: 'alice@example.com',
  role: 'user',
  canAccessAdmin: false,
  emailVerified: true,
  isGuest: false,
  stats: {
    gamesPlayed: 12,
    gamesWon: 5,
    winRate: 42,
    totalPoints: 1340,
    fastestGame: 95,
    botGamesPlayed: 7,
    averageGameTime: 180,
  },
  wallet: {
    balance: 250,
    totalWon: 250,
    byCurrency: { SLAM: { balance: 250, totalWon: 250 }, SOL: { balance: 0, totalWon: 0 } },
  },
  preferences: { sound: true, animations: true, autoPlay: false },
  level: 2,
  achievements: [
    { id: 'firstGame', unlockedAt: ISO },
    { id: 'firstVictory', unlockedAt: ISO },
  ],
  createdAt: ISO,
};
