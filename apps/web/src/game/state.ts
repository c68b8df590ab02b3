/**
 * The live game as the client holds it (the player's state and the game's status), and
 * the one pure function that moves it: `reduce(state, action)`. Server events are actions as they
 * arrive; the client's own optimistic moves are actions too.
 *
 * What the server said is kept apart from what the client is still waiting on: `pendingPlays` and
 * `pendingPowerUps` are laid over the server's hand and piles by `displayed()`. A rejected play is
 * rolled back by dropping its pending entry; a confirmed one drops out once the server's hand no
 * longer holds the card. So a late or reordered event can never leave a card in two places.
 */
import type { Card, PowerUpType } from '@memeslam/engine';
import { COUNTDOWN_DURATION_MS } from '@memeslam/protocol/constants';
import type {
  ActiveEffect,
  DeepReadonly,
  Game as WireGame,
  GameResult as WireGameResult,
  GameStateView as WireView,
  PowerUpState as WirePowerUps,
  ServerEventName,
  ServerPayload,
} from '@memeslam/protocol';

/** What the server sends, kept as it came: read-only all the way down. */
export type Game = DeepReadonly<WireGame>;
export type GameStateView = DeepReadonly<WireView>;
export type PowerUpState = DeepReadonly<WirePowerUps>;
/** How a game ended (gameEnded's core, or GET /game/:id/result). */
export type GameResult = DeepReadonly<WireGameResult>;

/** The client's statuses: the server's four plus idle (no game). */
export type ClientStatus = 'idle' | 'waiting' | 'starting' | 'active' | 'finished';

export interface PendingPlay {
  readonly card: Card;
  readonly pileIndex: number;
  /** Its ack is late (ACK_LATE_MS): the card is drawn back in the hand until the server answers. */
  readonly late?: boolean;
}

export interface Countdown {
  /** Epoch ms (server clock) when play begins. */
  readonly startsAt: number;
  readonly duration: number;
}

export interface Frozen {
  readonly by: string;
  /** Epoch ms when the freeze ends, by this browser's clock. */
  readonly until: number;
  readonly durationMs: number;
}

export type GameEnded = ServerPayload<'gameEnded'>;

export interface LiveGame {
  readonly status: ClientStatus;
  /** The user this state belongs to (from the session). */
  readonly me: string | null;
  /** The room as the lobby shows it (players, host, settings). */
  readonly game: Game | null;
  /** The public view once the cards are dealt. */
  readonly view: GameStateView | null;
  readonly hand: readonly Card[];
  readonly deckSize: number;
  readonly cardsLeft: number;
  readonly powerUps: PowerUpState;
  readonly frozen: Frozen | null;
  /** Since when (epoch ms) the server has seen no playable card in this hand. */
  readonly stuckSince: number | null;
  readonly countdown: Countdown | null;
  readonly seedCommitment: string | null;
  readonly ended: GameEnded | null;
  /** The last room broadcast seen; a gap means events were missed. */
  readonly seq: number;
  readonly needsResync: boolean;
  /** Whether the hand has been dealt to this client (a spectator never gets one). */
  readonly dealt: boolean;
  readonly pendingPlays: readonly PendingPlay[];
  readonly pendingPowerUps: readonly PowerUpType[];
  /** Commands sent whose ack is late (over ACK_LATE_MS): the screen says "Reconnecting…" meanwhile. */
  readonly lateAcks: number;
  /** Cards the server said were played that its last hand update still lists (it comes next). */
  readonly playedIds: readonly string[];
  /** Counters for the stats panel. */
  readonly counters: {
    readonly cardsPlayed: number;
    readonly powerUpsUsed: number;
    readonly botMoves: number;
    readonly humanMoves: number;
  };
  /** Bot id → when it last acted (browser clock), for the bot activity list. */
  readonly botActivity: Readonly<Record<string, number>>;
  /** When the last card was played by anyone (browser clock): the deadlock timer restarts there. */
  readonly lastCardPlayedAt: number | null;
}

export const initialLiveGame: LiveGame = {
  status: 'idle',
  me: null,
  game: null,
  view: null,
  hand: [],
  deckSize: 0,
  cardsLeft: 0,
  powerUps: { available: [], used: [] },
  frozen: null,
  stuckSince: null,
  countdown: null,
  seedCommitment: null,
  ended: null,
  seq: 0,
  needsResync: false,
  dealt: false,
  pendingPlays: [],
  pendingPowerUps: [],
  lateAcks: 0,
  playedIds: [],
  counters: { cardsPlayed: 0, powerUpsUsed: 0, botMoves: 0, humanMoves: 0 },
  botActivity: {},
  lastCardPlayedAt: null,
};

export type ServerAction = {
  [E in ServerEventName]: { readonly type: 'server'; readonly event: E; readonly payload: ServerPayload<E> };
}[ServerEventName];

export type LocalAction =
  | { readonly type: 'reset'; readonly me: string | null }
  | { readonly type: 'entered'; readonly game: Game }
  | { readonly type: 'playSent'; readonly card: Card; readonly pileIndex: number }
  | { readonly type: 'playFailed'; readonly cardId: string }
  | { readonly type: 'powerUpSent'; readonly powerUpType: PowerUpType }
  | { readonly type: 'powerUpFailed'; readonly powerUpType: PowerUpType }
  /** An ack is late (its play, if any, goes back in the hand), and later came back. */
  | { readonly type: 'ackLate'; readonly cardId?: string | undefined }
  | { readonly type: 'ackBack' }
  | {
      readonly type: 'resynced';
      readonly hand: readonly Card[];
      readonly deckSize: number;
      readonly cardsLeft: number;
      readonly powerUps: PowerUpState;
      readonly view: GameStateView;
      readonly seq: number;
      readonly frozenUntil?: number | null | undefined;
      readonly stuckSince?: number | null | undefined;
    };

export type Action = (ServerAction | LocalAction) & { readonly now?: number };

/** Room broadcasts carry the game's seq; hand events carry the current one and never open a gap. */
function withSeq(state: LiveGame, event: ServerEventName, payload: unknown): LiveGame {
  if (typeof payload !== 'object' || payload === null || !('seq' in payload)) return state;
  const seq = (payload as { seq: number }).seq;
  if (event === 'handDealt' || event === 'handUpdated') return seq > state.seq ? { ...state, seq } : state;
  if (event === 'gameCreated' || event === 'gameJoined' || event === 'gameRejoined') {
    return { ...state, seq, needsResync: false };
  }
  const gap = state.seq > 0 && seq > state.seq + 1;
  return { ...state, seq: Math.max(seq, state.seq), needsResync: state.needsResync || gap };
}

function statusOfGame(game: Game): ClientStatus {
  return game.status;
}

function handFields(payload: {
  readonly hand: readonly Card[];
  readonly deckSize: number;
  readonly cardsLeft: number;
  readonly powerUps: PowerUpState;
  readonly stuckSince?: number | null | undefined;
}) {
  return {
    hand: payload.hand,
    deckSize: payload.deckSize,
    cardsLeft: payload.cardsLeft,
    powerUps: payload.powerUps,
    stuckSince: payload.stuckSince ?? null,
    dealt: true,
  };
}

/**
 * After a new hand from the server: cards it no longer lists are no longer "played but still
 * listed", and power-ups it lists as used are no longer pending.
 */
function settle(state: LiveGame): LiveGame {
  const inHand = new Set(state.hand.map((c) => c.id));
  const playedIds = state.playedIds.filter((id) => inHand.has(id));
  const pendingPowerUps = state.pendingPowerUps.filter((t) => state.powerUps.available.includes(t));
  if (playedIds.length === state.playedIds.length && pendingPowerUps.length === state.pendingPowerUps.length) {
    return state;
  }
  return { ...state, playedIds, pendingPowerUps };
}

/**
 * Someone moved: the bot/human move split and the bot's activity, this player's own counters when
 * the move was theirs, and the deadlock clock restarting when a card went onto a pile.
 */
function moved(
  state: LiveGame,
  by: { readonly playerId: string; readonly isBot: boolean },
  now: number,
  effect: { readonly cards: number; readonly powerUps: number; readonly cardPlayed: boolean },
): LiveGame {
  const mine = by.playerId === state.me;
  const c = state.counters;
  return {
    ...state,
    counters: {
      cardsPlayed: c.cardsPlayed + (mine ? effect.cards : 0),
      powerUpsUsed: c.powerUpsUsed + (mine ? effect.powerUps : 0),
      botMoves: c.botMoves + (by.isBot ? 1 : 0),
      humanMoves: c.humanMoves + (by.isBot ? 0 : 1),
    },
    botActivity: by.isBot ? { ...state.botActivity, [by.playerId]: now } : state.botActivity,
    lastCardPlayedAt: effect.cardPlayed ? now : state.lastCardPlayedAt,
  };
}

/** The server played one of this player's cards: its pending play is done. */
function confirmPlayed(state: LiveGame, cardId: string): LiveGame {
  const pendingPlays = state.pendingPlays.filter((p) => p.card.id !== cardId);
  const stillListed = state.hand.some((c) => c.id === cardId);
  return { ...state, pendingPlays, playedIds: stillListed ? [...state.playedIds, cardId] : state.playedIds };
}

/**
 * The freeze on this user as the view's effects tell it: one the server no longer lists is over.
 * A freeze first seen in a view (after a rejoin) lasts at most its full duration from now.
 */
function frozenFrom(state: LiveGame, effects: readonly DeepReadonly<ActiveEffect>[], now: number): Frozen | null {
  const effect = effects.find((e) => e.type === 'freeze' && e.targetPlayerId === state.me);
  if (!effect) return null;
  return state.frozen ?? { by: '', until: now + effect.duration, durationMs: effect.duration };
}

function withView(state: LiveGame, view: GameStateView, now: number): LiveGame {
  const status: ClientStatus = view.status;
  return {
    ...state,
    view,
    status: state.status === 'finished' ? 'finished' : status,
    frozen: frozenFrom(state, view.activeEffects, now),
  };
}

export function reduce(state: LiveGame, action: Action): LiveGame {
  const now = action.now ?? Date.now();
  switch (action.type) {
    case 'reset':
      return { ...initialLiveGame, me: action.me };
    case 'entered':
      return enter(state, action.game);
    case 'playSent':
      return {
        ...state,
        pendingPlays: [...state.pendingPlays, { card: action.card, pileIndex: action.pileIndex }],
      };
    case 'playFailed':
      return { ...state, pendingPlays: state.pendingPlays.filter((p) => p.card.id !== action.cardId) };
    case 'powerUpSent':
      return { ...state, pendingPowerUps: [...state.pendingPowerUps, action.powerUpType] };
    case 'powerUpFailed':
      return { ...state, pendingPowerUps: state.pendingPowerUps.filter((t) => t !== action.powerUpType) };
    case 'ackLate':
      return {
        ...state,
        lateAcks: state.lateAcks + 1,
        pendingPlays: state.pendingPlays.map((p) => (p.card.id === action.cardId ? { ...p, late: true } : p)),
      };
    case 'ackBack':
      return { ...state, lateAcks: Math.max(0, state.lateAcks - 1) };
    case 'resynced': {
      // The whole truth again: a pending card no longer in the hand was played meanwhile.
      const inHand = new Set(action.hand.map((c) => c.id));
      return settle(
        withView(
          {
            ...state,
            ...handFields(action),
            pendingPlays: state.pendingPlays.filter((p) => inHand.has(p.card.id)),
            playedIds: [],
            seq: action.seq,
            needsResync: false,
          },
          action.view,
          now,
        ),
      );
    }
    case 'server':
      return onServer(withSeq(state, action.event, action.payload), action, now);
  }
}

/** Entering a room (created, joined, or rejoined): a different game starts from scratch. */
function enter(state: LiveGame, game: Game): LiveGame {
  const base = state.game && state.game.gameId !== game.gameId ? { ...initialLiveGame, me: state.me } : state;
  const next: LiveGame = { ...base, game, status: base.status === 'finished' ? 'finished' : statusOfGame(game) };
  if (game.status === 'starting' && game.startsAt && !next.countdown) {
    // Arriving mid-countdown (a reload): the countdown still ends when play begins.
    return { ...next, countdown: { startsAt: game.startsAt, duration: COUNTDOWN_DURATION_MS } };
  }
  return game.gameState ? withView(next, game.gameState, Date.now()) : next;
}

function onServer(state: LiveGame, action: ServerAction, now: number): LiveGame {
  switch (action.event) {
    case 'gameCreated':
    case 'gameJoined':
      return action.payload.success ? enter(state, action.payload.game) : state;
    case 'gameUpdated':
    case 'playerJoined': {
      const game = action.event === 'gameUpdated' ? action.payload : action.payload.game;
      if (state.game && state.game.gameId !== game.gameId) return state;
      const next = { ...state, game };
      if (state.status === 'finished' || state.status === 'active') return next;
      // A gameUpdated with status starting forces the countdown (one of useCountdownGate's safeguards).
      return { ...next, status: statusOfGame(game) };
    }
    case 'playerLeft':
    case 'playerReadyChanged': {
      if (!state.game) return state;
      const { userId } = action.payload;
      const players =
        action.event === 'playerLeft'
          ? state.game.players.filter((p) => p.userId !== userId)
          : state.game.players.map((p) => (p.userId === userId ? { ...p, isReady: action.payload.isReady } : p));
      if (state.status !== 'waiting') return state;
      return { ...state, game: { ...state.game, players, playersCount: players.length } };
    }
    case 'gameStarting':
    case 'gameBegin':
    case 'roundStarted':
    case 'allPlayersStarted':
    case 'navigateToGame':
    case 'botGameStarting': {
      if (state.status === 'active' || state.status === 'finished') return state;
      const p = action.payload;
      const game = state.game ? { ...state.game, status: 'starting' as const, players: [...p.players] } : state.game;
      return {
        ...state,
        game,
        status: 'starting',
        countdown: { startsAt: p.startsAt, duration: p.countdownDuration },
      };
    }
    case 'gameStarted':
    case 'botGameStarted': {
      const p = action.payload;
      const game = state.game ? { ...state.game, status: 'active' as const, players: [...p.players] } : state.game;
      const next = withView({ ...state, game, seedCommitment: p.seedCommitment }, p.gameState, now);
      return { ...next, status: 'active' };
    }
    case 'gameStateChanged': {
      const status = action.payload.status;
      if (state.status === 'finished' || status === state.status) return state;
      // "finished" comes with gameEnded, which carries the result.
      if (status === 'finished') return state;
      return { ...state, status };
    }
    case 'handDealt':
    case 'handUpdated':
      return settle({ ...state, ...handFields(action.payload) });
    case 'cardPlayed': {
      const p = action.payload;
      const next = withView(moved(state, p, now, { cards: 1, powerUps: 0, cardPlayed: true }), p.gameState, now);
      return p.playerId === state.me ? confirmPlayed(next, p.cardId) : next;
    }
    case 'powerUpUsed': {
      const p = action.payload;
      // BOMB and SNIPER play a card as well.
      const card = p.data.powerUpType === 'BOMB' || p.data.powerUpType === 'SNIPER' ? p.data.card : null;
      const next = withView(
        moved(state, p, now, { cards: card ? 1 : 0, powerUps: 1, cardPlayed: card !== null }),
        p.gameState,
        now,
      );
      if (p.playerId !== state.me) return next;
      const settled = { ...next, pendingPowerUps: next.pendingPowerUps.filter((t) => t !== p.powerUpType) };
      return card ? confirmPlayed(settled, card.id) : settled;
    }
    case 'playerFrozen': {
      const p = action.payload;
      if (p.playerId !== state.me) return state;
      return {
        ...state,
        frozen: { by: p.frozenBy, until: now + p.duration, durationMs: p.duration },
        pendingPlays: [],
      };
    }
    case 'playerUnfrozen':
      return action.payload.playerId === state.me ? { ...state, frozen: null } : state;
    case 'deadlockResolved':
      return withView(state, action.payload.gameState, now);
    case 'gameEnded': {
      const p = action.payload;
      return {
        ...withView(state, p.gameState, now),
        status: 'finished',
        ended: p,
        frozen: null,
        pendingPlays: [],
        pendingPowerUps: [],
      };
    }
    case 'gameRejoined': {
      const p = action.payload;
      const entered = enter(state, p.game);
      const next = withView({ ...entered, ...handFields(p) }, p.gameState, now);
      return settle({ ...next, status: p.game.status });
    }
    default:
      return state;
  }
}

/** Whether this user is seated in the game (a spectator is not). */
export function isMember(state: LiveGame): boolean {
  return state.game?.players.some((p) => p.userId === state.me) ?? false;
}
