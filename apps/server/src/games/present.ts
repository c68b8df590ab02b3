/** A room as the protocol shows it: the Game of the lobby and lists, players, and the public gameState. */
import { type GameState, POWER_UP_TYPES, publicView, strongestDifficulty } from '@memeslam/engine';
import type { BotInfo, Game, GameSetup, GameStateView, Player } from '@memeslam/protocol';
import type { RoomStatus, Seat } from './types.ts';

/** What the presentation reads of a room. */
export interface RoomFacts {
  readonly id: string;
  readonly roomCode: string;
  readonly hostId: string;
  readonly hostName: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  readonly status: RoomStatus;
  readonly seats: readonly Seat[];
  readonly startsAt: number | null;
  readonly engine: GameState | null;
  /** Wall clock − game clock. */
  readonly clockOffset: number;
  readonly isOpen: boolean;
  isConnected(userId: string): boolean;
}

export function botInfo(room: Pick<RoomFacts, 'seats'>): BotInfo | null {
  const bots = room.seats.flatMap((s) => (s.bot ? [s.bot] : []));
  const difficulty = strongestDifficulty(bots);
  return difficulty ? { numberOfBots: bots.length, difficulty } : null;
}

/**
 * The public view with game-clock times turned back into epoch ms. `canPlay` is added to the engine's
 * fresh view rather than spread into a copy: one view is built per game event.
 */
export function gameStateOf(room: Pick<RoomFacts, 'clockOffset'>, state: GameState): GameStateView {
  const view: GameStateView = publicView(state, room.clockOffset);
  view.canPlay = state.status === 'active';
  return view;
}

export function playerOf(room: RoomFacts, seat: Seat, position: number, viewerId?: string): Player {
  const engine = room.engine?.players.find((p) => p.id === seat.playerId);
  const used = engine ? [...engine.powerUpsUsed] : [];
  return {
    userId: seat.playerId,
    username: seat.username,
    isBot: seat.bot !== null,
    botDifficulty: seat.bot,
    isReady: seat.bot !== null || seat.isReady,
    position,
    cardsLeft: engine ? engine.hand.length + engine.deck.length : room.setup.cardsPerPlayer,
    powerUps: { available: POWER_UP_TYPES.filter((t) => !used.includes(t)), used },
    powerUpsUsed: used,
    ...(viewerId !== undefined ? { isCurrentPlayer: seat.playerId === viewerId } : {}),
    isHost: seat.playerId === room.hostId,
    isConnected: seat.bot !== null || room.isConnected(seat.playerId),
  };
}

export function gameOf(room: RoomFacts, viewerId?: string): Game {
  const host = room.seats.find((s) => s.playerId === room.hostId);
  const bots = botInfo(room);
  return {
    gameId: room.id,
    roomCode: room.roomCode,
    host: { userId: room.hostId, username: host?.username ?? room.hostName },
    status: room.status,
    players: room.seats.map((seat, position) => playerOf(room, seat, position, viewerId)),
    playersCount: room.seats.length,
    maxPlayers: room.setup.maxPlayers,
    isOpen: room.isOpen,
    isBotGame: bots !== null,
    botSettings: bots,
    botInfo: bots,
    gameSettings: {
      cardsPerPlayer: room.setup.cardsPerPlayer,
      gameSpeed: room.setup.gameSpeed,
      allowSpectators: room.setup.allowSpectators,
      autoStart: room.setup.autoStart,
    },
    createdAt: new Date(room.createdAt).toISOString(),
    startsAt: room.status === 'starting' ? room.startsAt : null,
    gameState: room.engine ? gameStateOf(room, room.engine) : null,
  };
}
