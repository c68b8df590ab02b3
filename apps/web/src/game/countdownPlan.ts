/**
 * The countdown overlay's timeline, as pure functions of the
 * game, the server's `startsAt` and the moment the overlay opened, so CountdownOverlay only draws.
 */
import type { BotDifficulty } from '@memeslam/engine';
import {
  BOT_AI_STATUS_DELAY_MS,
  BOT_ANALYZING_AT,
  BOT_READY_MS,
  COUNTDOWN_CHECKS_MS,
  COUNTDOWN_COMPLETE_AFTER_ZERO_MS,
  COUNTDOWN_DURATION_MS,
  COUNTDOWN_TICK_MS,
  GAME_TEXTS,
  HUMAN_READY_MS,
  aiSystemCheckMs,
} from '@memeslam/protocol';
import type { Game } from './state.ts';

/** A bot's difficulty when it has none. */
export const DEFAULT_DIFFICULTY: BotDifficulty = 'normal';

type Player = Game['players'][number];
export type AiStatus = 'initializing' | 'analyzing' | 'ready';

export interface Plan {
  /** `idle`: nothing to check in this game (the AI System of a game without bots), shown as such. */
  readonly checks: readonly { readonly name: string; readonly readyAt: number; readonly idle?: boolean }[];
  readonly players: readonly {
    readonly player: Player;
    readonly readyAt: number;
    /** Bots only: when their AI status turns ready. */
    readonly aiDelay: number | null;
  }[];
  /** All times in ms after the overlay opened. */
  readonly allReadyAt: number;
  readonly zeroAt: number;
  readonly completeAt: number;
}

export function plan(game: Game, startsAt: number | null, openedAt: number): Plan {
  const bots = game.players.filter((p) => p.isBot);
  const checks = [
    { name: 'Discard Piles', readyAt: COUNTDOWN_CHECKS_MS.discardPiles },
    { name: 'Player Hands', readyAt: COUNTDOWN_CHECKS_MS.playerHands },
    { name: 'Game State', readyAt: COUNTDOWN_CHECKS_MS.gameState },
    {
      name: 'AI System',
      readyAt: aiSystemCheckMs(game.isBotGame ? Math.max(1, bots.length) : 0),
      idle: !game.isBotGame,
    },
  ];
  const players = [...game.players]
    .sort((a, b) => a.position - b.position)
    .map((player) => {
      const difficulty = player.botDifficulty ?? DEFAULT_DIFFICULTY;
      return player.isBot
        ? { player, readyAt: BOT_READY_MS[difficulty], aiDelay: BOT_AI_STATUS_DELAY_MS[difficulty] }
        : { player, readyAt: HUMAN_READY_MS, aiDelay: null };
    });
  const allReadyAt = Math.max(...checks.map((c) => c.readyAt), ...players.map((p) => p.readyAt));
  const left = startsAt === null ? 0 : Math.min(startsAt - openedAt, COUNTDOWN_DURATION_MS);
  const zeroAt =
    left > 0 ? Math.max(allReadyAt, left - COUNTDOWN_COMPLETE_AFTER_ZERO_MS) : allReadyAt + COUNTDOWN_DURATION_MS;
  return { checks, players, allReadyAt, zeroAt, completeAt: zeroAt + COUNTDOWN_COMPLETE_AFTER_ZERO_MS };
}

export function aiStatus(elapsed: number, delay: number): AiStatus {
  if (elapsed >= delay) return 'ready';
  return elapsed >= delay * BOT_ANALYZING_AT ? 'analyzing' : 'initializing';
}

/** The big text at `elapsed`: null while preparing, then the count (5 at most), then GO!. */
export function bigText(timeline: Pick<Plan, 'allReadyAt' | 'zeroAt'>, elapsed: number): string | null {
  if (elapsed >= timeline.zeroAt) return GAME_TEXTS.go;
  if (elapsed < timeline.allReadyAt) return null;
  return String(Math.min(5, Math.ceil((timeline.zeroAt - elapsed) / COUNTDOWN_TICK_MS)));
}
