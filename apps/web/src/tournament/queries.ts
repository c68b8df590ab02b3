/**
 * The tournament's HTTP reads and the join, through TanStack Query. Every key starts with
 * 'tournament', so a join refreshes the banner, the standings and the player's own standing at once.
 */
import { type Tournament, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';

/** setTimeout's longest delay; a later start or end is not waited for on the page. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

export function useCurrentTournament() {
  return useQuery({
    queryKey: ['tournament', 'current'],
    queryFn: async () => (await api('currentTournament', { quiet: true })).data.tournament,
    // An upcoming tournament is read again when it opens, so the live list appears by itself.
    refetchInterval: (query) => {
      const t = query.state.data;
      return t?.status === 'upcoming' && t.startsIn < LONGEST_WAIT_MS ? t.startsIn + 500 : false;
    },
  });
}

export function useLiveLeaderboard(tournament: Tournament | null) {
  return useQuery({
    queryKey: ['tournament', tournament?.id, 'leaderboard'],
    enabled: tournament?.status === 'active',
    queryFn: async () => (await api('liveLeaderboard', { id: tournament?.id ?? '', quiet: true })).data.leaderboard,
  });
}

/** The signed-in participant's own standing; only asked for once they have joined. */
export function useTournamentStanding(tournament: Tournament | null, signedIn: boolean) {
  return useQuery({
    queryKey: ['tournament', tournament?.id, 'me'],
    enabled: signedIn && tournament?.isJoined === true,
    queryFn: async () => (await api('tournamentStanding', { id: tournament?.id ?? '', quiet: true })).data.standing,
  });
}

/** POST /tournaments/:id/join; a refusal shows the server's own text. */
export function useJoinTournament() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await api('joinTournament', { id, quiet: true })).data.tournament,
    onSuccess: () => toast.success(TOURNAMENT_TEXTS.joinedToast),
    onError: (error) => {
      // A 401 has already said the session expired.
      if (error instanceof ApiError && error.status === 401) return;
      toast.error(error instanceof ApiError && error.message ? error.message : TOURNAMENT_TEXTS.joinFailed);
    },
    // Joined or refused (full, already in), what the page shows is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tournament'] }),
  });
}

/** True once `at` (epoch ms) has passed, re-rendering at that moment. */
export function usePassed(at: number): boolean {
  const [passed, setPassed] = useState(() => Date.now() >= at);
  useEffect(() => {
    const wait = at - Date.now();
    if (wait <= 0 || wait > LONGEST_WAIT_MS) {
      setPassed(wait <= 0);
      return;
    }
    setPassed(false);
    const timer = setTimeout(() => setPassed(true), wait);
    return () => clearTimeout(timer);
  }, [at]);
  return passed;
}

/**
 * The ms left until `at`, kept current: every second in its last minute (the banner counts seconds
 * there), every minute before.
 */
export function useMsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = at - now;
  useEffect(() => {
    if (left <= 0) return;
    // Until the shown figure next changes (a whole second, or a whole minute, is crossed).
    const unit = left <= 60_000 ? 1000 : 60_000;
    const step = (left % unit || unit) + 1;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(step, LONGEST_WAIT_MS));
    return () => clearTimeout(timer);
  }, [left]);
  return left;
}
