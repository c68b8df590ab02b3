/**
 * The live game store: one per browser tab, fed by every server event from the moment a socket
 * exists (so nothing is missed while the lobby hands over to the game page), read by React with
 * useLiveGame(). The commands below send the protocol's client events and apply the optimistic part
 * of a play or a power-up, rolling it back when the server refuses.
 */
import type { Card, PowerUpType } from '@memeslam/engine';
import {
  type Ack,
  type AckData,
  CONNECTION_TEXTS,
  type ClientPayload,
  JOIN_RETRY,
  LOBBY_TEXTS,
  SERVER_EVENT_NAMES,
  type ServerMessage,
  ackError as refusal,
} from '@memeslam/protocol';
import { useSyncExternalStore } from 'react';
import { untilAdmitted } from '../api/line.ts';
import { session } from '../auth/session.ts';
import { type GameSocket, connect, emitAck, listenTo, onSocket } from '../realtime/socket.ts';
import { serverEventListeners } from './server-events.ts';
import { type Action, type LiveGame, type ServerAction, initialLiveGame, reduce } from './state.ts';

let state: LiveGame = { ...initialLiveGame, me: session.get().user?.id ?? null };
const listeners = new Set<() => void>();
/**
 * A listener to every server event: `{ event, payload }`, one member per event of the protocol's map
 * from event name to payload type, so switching on `event` narrows `payload` to that event's type.
 */
export type ServerEventListener = (message: ServerMessage) => void;
const eventListeners = new Set<ServerEventListener>();

function dispatch(action: Action): void {
  const next = reduce(state, action);
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
  if (state.needsResync) void resync();
}

export const liveGame = {
  get: (): LiveGame => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  dispatch,
};

export function useLiveGame(): LiveGame {
  return useSyncExternalStore(liveGame.subscribe, liveGame.get);
}

/** Listens to every server event after the store took it in (for toasts, sounds and effects). */
export function onServerEvent(listener: ServerEventListener): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

let resyncing = false;
/** A gap in the room's seq: ask for the hand and the whole view again. */
async function resync(): Promise<void> {
  if (resyncing) return;
  resyncing = true;
  try {
    const ack = await emitAck('requestHand', {});
    if (ack.success && ack.data) {
      const d = ack.data;
      dispatch({
        type: 'resynced',
        hand: d.hand,
        deckSize: d.deckSize,
        cardsLeft: d.cardsLeft,
        powerUps: d.powerUps,
        view: d.gameState,
        seq: d.seq,
        frozenUntil: d.frozenUntil,
        stuckSince: d.stuckSince,
      });
    }
  } finally {
    resyncing = false;
  }
}

/** One server event into the store, then to every listener. */
function relay(action: ServerAction): void {
  dispatch(action);
  for (const listener of eventListeners) listener(action);
}
const relays = serverEventListeners(relay);

function attach(socket: GameSocket): void {
  for (const event of SERVER_EVENT_NAMES) listenTo(socket, event, relays[event]);
}
onSocket(attach);

// A different account starts from nothing.
session.subscribe(() => {
  const me = session.get().user?.id ?? null;
  if (me !== state.me) dispatch({ type: 'reset', me });
});

/** The failed-ack text, or the action's fallback text. */
export function ackError(ack: { readonly success: boolean; readonly error?: string | undefined }, fallback: string) {
  return ack.error && ack.error.length > 0 ? ack.error : fallback;
}

async function send<E extends Parameters<typeof emitAck>[0]>(
  event: E,
  payload: ClientPayload<E>,
  options?: Parameters<typeof emitAck>[2],
): Promise<Ack<AckData<E>>> {
  try {
    await connect();
  } catch (error) {
    return refusal('NOT_CONNECTED', error instanceof Error ? error.message : CONNECTION_TEXTS.notConnected);
  }
  return emitAck(event, payload, options);
}

function entered<E extends 'createGame' | 'create-bot-game' | 'joinGame' | 'offerRematch'>(
  ack: Ack<AckData<E>>,
): Ack<AckData<E>> {
  if (ack.success && ack.data) dispatch({ type: 'entered', game: ack.data.game });
  return ack;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An ack not back after this long is late: the game says "Reconnecting…" and undoes its optimistic part. */
export const ACK_LATE_MS = 1000;

/** Tells the store when a move's ack runs late, and when it is back. */
async function watchedAck<T>(ack: Promise<T>, cardId?: string): Promise<T> {
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    dispatch({ type: 'ackLate', cardId });
  }, ACK_LATE_MS);
  try {
    return await ack;
  } finally {
    clearTimeout(timer);
    if (late) dispatch({ type: 'ackBack' });
  }
}

export const commands = {
  // A new game waits in line while no server has headroom for it (api/line.ts).
  createGame: async (payload: ClientPayload<'createGame'>) =>
    entered(await untilAdmitted(() => send('createGame', payload))),
  createBotGame: async (payload: ClientPayload<'create-bot-game'>) =>
    entered(await untilAdmitted(() => send('create-bot-game', payload))),
  /**
   * Join with a 5 s timeout, retried up to 3 times 1 s apart only while the refusal is "Game not found"
   * (the one join refusal worth retrying). `onNotFound` hears that first refusal at once, so a form can answer a wrong code without
   * waiting for the retries (which still join a room that reaches this node late).
   */
  async join(
    roomCode: string,
    options: { onNotFound?: (text: string) => void } = {},
  ): Promise<Ack<AckData<'joinGame'>>> {
    const attempt = () =>
      send('joinGame', { roomCode }, { timeoutMs: JOIN_RETRY.timeoutMs, timeoutText: LOBBY_TEXTS.joinTimeout });
    let ack = await attempt();
    if (!ack.success && ack.code === JOIN_RETRY.retryOn) options.onNotFound?.(ackError(ack, LOBBY_TEXTS.gameNotFound));
    for (let retry = 1; !ack.success && ack.code === JOIN_RETRY.retryOn && retry <= JOIN_RETRY.retries; retry++) {
      await sleep(JOIN_RETRY.delayMs);
      ack = await attempt();
    }
    return entered(ack);
  },
  /** Play now: queue for a table of `size` (the server's queueStatus, matchFound and botGameOffered follow). */
  joinQueue: (size: ClientPayload<'joinQueue'>['size']) => send('joinQueue', { size }),
  leaveQueue: () => send('leaveQueue', {}),
  /** A lobby like the finished game `gameId`, offered to its other people (useRematch). */
  offerRematch: async (gameId: string) => entered(await untilAdmitted(() => send('offerRematch', { gameId }))),
  setReady: (isReady: boolean) => send('setPlayerReady', { isReady }),
  start: () => send('startGame', {}),
  async leave(): Promise<Ack<AckData<'leaveGame'>>> {
    const ack = await send('leaveGame', {});
    dispatch({ type: 'reset', me: state.me });
    return ack;
  },
  /**
   * Leaving a game from its screen (stopAllBots): forfeits a game in play. Answers whether
   * leaving ended the game (its gameEnded comes before the ack), and so whether it is being recorded.
   */
  async stopAllBots(reason: 'playerLeft' | 'returnToDashboard' | 'componentUnmount'): Promise<{ ended: boolean }> {
    const game = state.game;
    if (!game) return { ended: false };
    await emitAck('stopAllBots', { gameId: game.gameId, reason, ...(state.me ? { playerId: state.me } : {}) });
    const ended = state.ended?.gameId === game.gameId;
    dispatch({ type: 'reset', me: state.me });
    return { ended };
  },
  /**
   * Optimistic: the card leaves the hand for the pile at once and comes back if refused — or, while
   * the ack is late (over ACK_LATE_MS), until the server answers.
   */
  async playCard(card: Card, pileIndex: number): Promise<Ack<AckData<'playCard'>>> {
    dispatch({ type: 'playSent', card, pileIndex });
    const ack = await watchedAck(emitAck('playCard', { cardId: card.id, pileIndex }), card.id);
    if (!ack.success) dispatch({ type: 'playFailed', cardId: card.id });
    return ack;
  },
  async usePowerUp(
    powerUpType: PowerUpType,
    target: { targetPlayerId?: string; cardId?: string; pileIndex?: number } = {},
  ): Promise<Ack<AckData<'usePowerUp'>>> {
    dispatch({ type: 'powerUpSent', powerUpType });
    if (target.cardId && target.pileIndex !== undefined) {
      const card = state.hand.find((c) => c.id === target.cardId);
      if (card) dispatch({ type: 'playSent', card, pileIndex: target.pileIndex });
    }
    const ack = await watchedAck(emitAck('usePowerUp', { powerUpType, targetData: target, ...target }), target.cardId);
    if (!ack.success) {
      dispatch({ type: 'powerUpFailed', powerUpType });
      if (target.cardId) dispatch({ type: 'playFailed', cardId: target.cardId });
    }
    return ack;
  },
  checkDeadlock: () => emitAck('checkDeadlock', {}),
  forceDeadlockResolution: () => emitAck('forceDeadlockResolution', {}),
  resync,
  reset: () => dispatch({ type: 'reset', me: state.me }),
};
