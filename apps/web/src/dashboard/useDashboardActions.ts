/**
 * What the dashboard's buttons do: create a human game, create a bot game over
 * HTTP, join over the socket, and go back into one's own game. Creating and joining are refused on
 * a connection error, wagered creation is refused, each with its toast.
 */
import {
  type CreateBotGameSettings,
  DASHBOARD_TEXTS,
  LOBBY_TEXTS,
  failedToCreateBotGameText,
  roomCodeSchema,
} from '@memeslam/protocol';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { askWhileBusy } from '../api/busy.ts';
import { ApiError, api } from '../api/http.ts';
import { line } from '../api/line.ts';
import { useSession } from '../auth/session.ts';
import { ackError, commands } from '../game/live.ts';
import { useConnection } from '../realtime/socket.ts';
import { type GameSummary, pathToGame } from './entry.ts';
import type { GameTab } from './queries.ts';

/** The toast for a failed POST /game/create-bot-game. */
export function botGameErrorText(error: unknown, difficulty: string): string {
  if (error instanceof ApiError && error.status === 400) {
    const message = error.body?.message;
    return typeof message === 'string' && message ? message : DASHBOARD_TEXTS.invalidBotGameSettings;
  }
  if (error instanceof ApiError && error.status === 401) return DASHBOARD_TEXTS.loginToCreateBotGames;
  return failedToCreateBotGameText(difficulty);
}

/** Tells the user why an action is refused; always false, so callers can `return refuse(...)`. */
function refuse(text: string): false {
  toast.error(text);
  return false;
}

export function useDashboardActions() {
  const navigate = useNavigate();
  const { user } = useSession();
  const connectionError = useConnection().status === 'error';
  const [joining, setJoining] = useState<string | null>(null);

  const botGame = useMutation({
    mutationFn: async (settings: CreateBotGameSettings & { botDifficulty: string }) =>
      // While no server has headroom for it, the game waits in line (api/line.ts).
      (await askWhileBusy(() => api('createBotGame', { body: settings, quiet: true }), { onLine: line.enter })).data,
    onSuccess: (data) => navigate(`/lobby/${encodeURIComponent(data.roomCode)}`),
    onError: (error, settings) => toast.error(botGameErrorText(error, settings.botDifficulty)),
  });

  /** Navigates to /lobby?mode=free; returns whether it went. */
  function createHumanGame(tab: GameTab): boolean {
    if (!user) return refuse(DASHBOARD_TEXTS.waitForUserData);
    if (tab === 'wagered') return refuse(DASHBOARD_TEXTS.wageredComingSoon);
    if (connectionError) return refuse(DASHBOARD_TEXTS.cannotCreateGameConnection);
    navigate('/lobby?mode=free');
    return true;
  }

  /** Whether a bot game may be created now (the dialog checks before opening and before sending). */
  function mayCreateBotGame(): boolean {
    if (!user) return refuse(DASHBOARD_TEXTS.waitForUserData);
    if (connectionError) return refuse(DASHBOARD_TEXTS.cannotCreateBotGameConnection);
    return true;
  }

  function createBotGame(settings: CreateBotGameSettings & { botDifficulty: string }): void {
    if (mayCreateBotGame()) botGame.mutate(settings);
  }

  async function join(game: GameSummary): Promise<void> {
    if (!user) return void refuse(DASHBOARD_TEXTS.waitForUserData);
    if (connectionError) return void refuse(DASHBOARD_TEXTS.cannotJoinGameConnection);
    const code = roomCodeSchema.safeParse(game.roomCode);
    if (!code.success) return void refuse(DASHBOARD_TEXTS.invalidRoomCode);
    setJoining(code.data);
    try {
      const ack = await commands.join(code.data);
      if (!ack.success) return void toast.error(ackError(ack, LOBBY_TEXTS.failedToJoinGame));
      navigate(`/lobby/${encodeURIComponent(code.data)}`);
    } finally {
      setJoining(null);
    }
  }

  /** A member back into their game: the lobby while waiting, the game page once in play. */
  function enter(game: GameSummary | null | undefined): void {
    if (!game) return void refuse(DASHBOARD_TEXTS.noActiveGame);
    if (!game.gameId) return void refuse(DASHBOARD_TEXTS.invalidGameData);
    const path = pathToGame(game);
    if (!path) return void refuse(DASHBOARD_TEXTS.gameNotAvailable);
    try {
      navigate(path);
    } catch {
      toast.error(DASHBOARD_TEXTS.failedToNavigate);
    }
  }

  return {
    connectionError,
    createHumanGame,
    mayCreateBotGame,
    createBotGame,
    creatingBotGame: botGame.isPending ? (botGame.variables?.botDifficulty ?? null) : null,
    join,
    joining,
    enter,
  };
}
