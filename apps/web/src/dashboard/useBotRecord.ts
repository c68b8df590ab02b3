/** The user's persisted record against bots, topped up from the stats answer's recent games. */
import type { GameRecord } from '@memeslam/protocol';
import { useEffect, useMemo } from 'react';
import { EMPTY_BOT_RECORD, type BotRecord, loadBotRecord, mergeBotGames, saveBotRecord } from './botRecord.ts';

export function useBotRecord(userId: string | undefined, recentGames: readonly GameRecord[] | undefined): BotRecord {
  const record = useMemo(() => {
    if (!userId) return EMPTY_BOT_RECORD;
    return mergeBotGames(loadBotRecord(userId), recentGames ?? []);
  }, [userId, recentGames]);
  useEffect(() => {
    if (userId && recentGames) saveBotRecord(userId, record);
  }, [userId, recentGames, record]);
  return record;
}
