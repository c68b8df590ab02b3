/**
 * The dashboard's HTTP reads through TanStack Query: the game list by tab (404 is an empty list,
 * refreshed silently every 30 s), the user's current game, and the stats (a failure falls back to
 * the user's own stats without a word).
 */
import { type ActiveGamesData, GAME_LIST_LIMIT, GAME_LIST_REFRESH_MS } from '@memeslam/protocol';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../api/http.ts';
import { session } from '../auth/session.ts';

export type GameTab = 'free' | 'bot' | 'wagered';

const EMPTY_LIST: ActiveGamesData = { games: [], summary: { botGames: 0, humanGames: 0 } };

/** The Human Games tab lists games of people only; the Bot Games tab only bot games. */
function listQuery(tab: GameTab) {
  return { gameMode: tab, includeBotGames: tab !== 'free', limit: GAME_LIST_LIMIT };
}

export function useActiveGames(tab: GameTab) {
  return useQuery({
    queryKey: ['dashboard', 'active-games', tab],
    queryFn: async () => {
      try {
        return (await api('activeGames', { query: listQuery(tab), quiet: true })).data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return EMPTY_LIST;
        throw error;
      }
    },
    refetchInterval: GAME_LIST_REFRESH_MS,
    retry: false,
  });
}

/** The game the user sits in, if any (GET /game/my-games lists the unfinished one first). */
export function useMyGame() {
  return useQuery({
    queryKey: ['dashboard', 'my-game'],
    queryFn: async () => (await api('myGames', { quiet: true })).data.games[0] ?? null,
    refetchInterval: GAME_LIST_REFRESH_MS,
    retry: false,
  });
}

export function useGameStats() {
  return useQuery({
    queryKey: ['dashboard', 'stats'],
    queryFn: async () => (await api('gameStats', { quiet: true })).data,
    retry: false,
  });
}

/** The user, read fresh from the server (the stats fallback and the bot games count come from it). */
export function useFreshUser() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const { data } = await api('me', { quiet: true });
      session.setUser(data.user);
      return data.user;
    },
  });
}
