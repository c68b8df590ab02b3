/**
 * What the game screen announces as it happens: bot cards
 * (2 s, one toast updated by each bot play), power-ups (bots 3 s), freezes and unfreezes, who left
 * or lost connection, the winner (5 s), and server errors. Sounds go with the events that concern
 * this player.
 */
import { formatCard } from '@memeslam/engine';
import {
  GAME_TEXTS,
  HINTS,
  POWER_UP_NAMES,
  playerDisplayName,
  playerFrozenText,
  playerLeftText,
  playerUnfrozenText,
  youWereFrozenText,
} from '@memeslam/protocol/game-texts';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { TOAST_DURATIONS_MS } from '@memeslam/protocol/constants';
import { onServerEvent } from './live.ts';
import { playSound } from './sounds.ts';

/**
 * With three bots a card is played every half second or so: one toast that each bot play updates
 * in place, instead of a stack of them.
 */
export const BOT_PLAY_TOAST_ID = 'bot-play';

export function useGameToasts(me: string | null): void {
  useEffect(
    () =>
      onServerEvent(({ event, payload: p }) => {
        switch (event) {
          case 'cardPlayed': {
            if (p.isBot) {
              // One toast for the stream of bot plays: each play updates it and gives it its 2 s again.
              toast(`${playerDisplayName({ username: p.username, isBot: true })} played ${formatCard(p.card)}`, {
                id: BOT_PLAY_TOAST_ID,
                duration: TOAST_DURATIONS_MS.botCardPlayed,
              });
            }
            break;
          }
          case 'powerUpUsed': {
            if (p.playerId === me) break;
            const text = `${playerDisplayName(p)} used ${POWER_UP_NAMES[p.powerUpType]}: ${p.effect}`;
            toast.info(text, p.isBot ? { duration: TOAST_DURATIONS_MS.botPowerUpUsed } : {});
            break;
          }
          case 'playerFrozen': {
            if (p.playerId === me) {
              playSound('freeze');
              toast.warning(youWereFrozenText(p.frozenBy, p.duration));
            } else {
              toast.info(playerFrozenText(p.playerName, p.frozenBy));
            }
            break;
          }
          case 'playerUnfrozen': {
            toast.info(playerUnfrozenText(p.playerName));
            break;
          }
          case 'playerLeft': {
            if (p.userId !== me) toast.info(playerLeftText(playerDisplayName(p)));
            break;
          }
          case 'playerDisconnected':
          case 'playerReconnected': {
            if (p.userId === me) break;
            // ours: playerDisconnected carries no words; the seat is kept for 60 s.
            toast.info(event === 'playerDisconnected' ? `${p.username} lost connection` : `${p.username} is back`);
            break;
          }
          case 'gameEnded': {
            if (!p.winner) break;
            if (p.winner.userId === me) {
              playSound('win');
              const text = p.reason === 'win' ? HINTS.allCardsPlayed : `${GAME_TEXTS.victory}!`;
              toast.success(text, { duration: TOAST_DURATIONS_MS.win });
            } else {
              playSound('lose');
              const text = p.winner.isBot ? GAME_TEXTS.botWon : `${p.winner.username} won the game`;
              toast.info(text, { duration: p.winner.isBot ? TOAST_DURATIONS_MS.botWin : TOAST_DURATIONS_MS.win });
            }
            break;
          }
          case 'gameError':
          case 'error': {
            toast.error(p.message || GAME_TEXTS.gameErrorOccurred);
            break;
          }
        }
      }),
    [me],
  );
}
