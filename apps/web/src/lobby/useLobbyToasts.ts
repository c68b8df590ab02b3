/** The waiting room's toasts: players joining, leaving and getting ready, and "Starting game..." (4 s). */
import {
  LOBBY_TEXTS,
  type ServerEventName,
  playerDisplayName,
  playerJoinedText,
  playerLeftText,
  playerReadyText,
} from '@memeslam/protocol';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { TOAST_DURATIONS_MS } from '@memeslam/protocol/constants';
import { onServerEvent } from '../game/live.ts';

const COUNTDOWN_SIGNALS: ReadonlySet<ServerEventName> = new Set([
  'gameStarting',
  'gameBegin',
  'roundStarted',
  'allPlayersStarted',
  'navigateToGame',
  'botGameStarting',
]);

export function useLobbyToasts(me: string | null): void {
  useEffect(
    () =>
      onServerEvent(({ event, payload }) => {
        if (event === 'playerJoined') {
          const { player } = payload;
          if (player.userId !== me) toast(playerJoinedText(playerDisplayName(player)));
        } else if (event === 'playerLeft') {
          const p = payload;
          if (p.userId !== me) toast(playerLeftText(playerDisplayName(p)));
        } else if (event === 'playerReadyChanged') {
          const p = payload;
          if (p.userId !== me) toast(playerReadyText(playerDisplayName(p), p.isReady));
        } else if (COUNTDOWN_SIGNALS.has(event)) {
          // One toast however many of the countdown signals (gameStarting and its aliases) arrive.
          toast.info(LOBBY_TEXTS.startingGame, { id: 'starting-game', duration: TOAST_DURATIONS_MS.gameStarting });
        }
      }),
    [me],
  );
}
