/**
 * Each server event's listener, as one table: every entry is written with its own event name, so its
 * payload has that event's type from the protocol's map and the action it makes is one member of the
 * store's union. (A loop over the names could not say so: TypeScript does not carry a name that is a
 * type parameter into a union without a cast.) A server event added to the protocol fails the build
 * here until it is listed.
 */
import type { ServerEventName, ServerPayload } from '@memeslam/protocol';
import type { ServerAction } from './state.ts';

export type ServerEventListeners = { readonly [E in ServerEventName]: (payload: ServerPayload<E>) => void };

export function serverEventListeners(relay: (action: ServerAction) => void): ServerEventListeners {
  return {
    connected: (payload) => relay({ type: 'server', event: 'connected', payload }),
    gameCreated: (payload) => relay({ type: 'server', event: 'gameCreated', payload }),
    gameJoined: (payload) => relay({ type: 'server', event: 'gameJoined', payload }),
    gameUpdated: (payload) => relay({ type: 'server', event: 'gameUpdated', payload }),
    playerJoined: (payload) => relay({ type: 'server', event: 'playerJoined', payload }),
    playerLeft: (payload) => relay({ type: 'server', event: 'playerLeft', payload }),
    playerReadyChanged: (payload) => relay({ type: 'server', event: 'playerReadyChanged', payload }),
    allPlayersReady: (payload) => relay({ type: 'server', event: 'allPlayersReady', payload }),
    gameStarting: (payload) => relay({ type: 'server', event: 'gameStarting', payload }),
    gameStarted: (payload) => relay({ type: 'server', event: 'gameStarted', payload }),
    gameBegin: (payload) => relay({ type: 'server', event: 'gameBegin', payload }),
    roundStarted: (payload) => relay({ type: 'server', event: 'roundStarted', payload }),
    allPlayersStarted: (payload) => relay({ type: 'server', event: 'allPlayersStarted', payload }),
    navigateToGame: (payload) => relay({ type: 'server', event: 'navigateToGame', payload }),
    botGameStarting: (payload) => relay({ type: 'server', event: 'botGameStarting', payload }),
    botGameStarted: (payload) => relay({ type: 'server', event: 'botGameStarted', payload }),
    gameStateChanged: (payload) => relay({ type: 'server', event: 'gameStateChanged', payload }),
    handDealt: (payload) => relay({ type: 'server', event: 'handDealt', payload }),
    handUpdated: (payload) => relay({ type: 'server', event: 'handUpdated', payload }),
    cardPlayed: (payload) => relay({ type: 'server', event: 'cardPlayed', payload }),
    powerUpUsed: (payload) => relay({ type: 'server', event: 'powerUpUsed', payload }),
    powerUpError: (payload) => relay({ type: 'server', event: 'powerUpError', payload }),
    playerFrozen: (payload) => relay({ type: 'server', event: 'playerFrozen', payload }),
    playerUnfrozen: (payload) => relay({ type: 'server', event: 'playerUnfrozen', payload }),
    gameEnded: (payload) => relay({ type: 'server', event: 'gameEnded', payload }),
    gameRejoined: (payload) => relay({ type: 'server', event: 'gameRejoined', payload }),
    playerDisconnected: (payload) => relay({ type: 'server', event: 'playerDisconnected', payload }),
    playerReconnected: (payload) => relay({ type: 'server', event: 'playerReconnected', payload }),
    deadlockResolved: (payload) => relay({ type: 'server', event: 'deadlockResolved', payload }),
    deadlockUnresolvable: (payload) => relay({ type: 'server', event: 'deadlockUnresolvable', payload }),
    gameError: (payload) => relay({ type: 'server', event: 'gameError', payload }),
    rematchOffered: (payload) => relay({ type: 'server', event: 'rematchOffered', payload }),
    queueStatus: (payload) => relay({ type: 'server', event: 'queueStatus', payload }),
    matchFound: (payload) => relay({ type: 'server', event: 'matchFound', payload }),
    botGameOffered: (payload) => relay({ type: 'server', event: 'botGameOffered', payload }),
    error: (payload) => relay({ type: 'server', event: 'error', payload }),
  };
}
