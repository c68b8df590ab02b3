/**
 * A game between people moves its players' ratings when the server records it, a moment after
 * gameEnded: the live result screen asks GET /game/:id/result until the record carries the ratings,
 * and puts each player's change beside their place. A result read afterwards has them already.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http.ts';
import type { GameResult } from '../state.ts';

const POLL_MS = 400;
/** The record lands within milliseconds; a game still unrecorded after this shows no change. */
const GIVE_UP_AFTER = 25;

const hasRatings = (results: GameResult['results']) => results.some((r) => r.rating !== undefined);

export function useRecordedRatings(ended: GameResult, isBotGame: boolean): GameResult['results'] {
  const rated = !isBotGame && ended.reason !== 'aborted' && !hasRatings(ended.results);
  const stored = useQuery({
    queryKey: ['gameResult', ended.gameId],
    queryFn: async () => (await api('gameResult', { id: ended.gameId, quiet: true })).data.result.results,
    enabled: rated,
    retry: false,
    refetchInterval: (query) =>
      (query.state.data && hasRatings(query.state.data)) ||
      query.state.dataUpdateCount + query.state.errorUpdateCount >= GIVE_UP_AFTER
        ? false
        : POLL_MS,
  });
  const ratings = new Map((stored.data ?? []).map((r) => [r.playerId, r.rating]));
  if (!rated || ratings.size === 0) return ended.results;
  return ended.results.map((r) => {
    const rating = ratings.get(r.playerId);
    return rating ? { ...r, rating } : r;
  });
}
