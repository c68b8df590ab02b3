/**
 * Gameplay texts: lobby, in-game, hints, deadlock, leaderboard, tournaments and admin, as the
 * screens show them (tests pin each one). Refusals the engine makes are taken from
 * its RULE_TEXTS so a text lives in one place. Texts only this product's server or web app needs are marked "ours".
 */
import {
  EARLY_LEAVE_MIN_CARDS,
  EARLY_LEAVE_MS,
  FREEZE_DURATION_MS,
  MAX_PLAYERS,
  MIN_PLAYERS,
  REVERSAL_CARDS,
  RULE_TEXTS,
  UNRESOLVABLE_REASON,
  formatCard,
  type BotDifficulty,
  type Card,
  type PowerUpType,
} from '@memeslam/engine';
import {
  MAX_BOTS,
  MAX_PRIZE_AMOUNT,
  MIN_BOTS,
  MIN_GAMES_REQUIRED,
  PLAYER_CARD_BACKS_SHOWN,
  PRIZE_AMOUNT_DECIMALS,
  REMATCH_HOLD_MS,
  REMATCH_OFFERS_MAX,
  REMATCH_OFFER_WINDOW_MS,
  type SCORING_METHODS,
  TOURNAMENT_MIN_GAME_DURATION_MS,
  TOURNAMENT_MIN_PARTICIPANTS,
  COUNTED_GAMES_PER_OPPONENT,
  TOURNAMENT_NAME_MAX_LENGTH,
  WINNERS_COUNT,
} from './constants.ts';
import { HTTP_TEXTS } from './texts.ts';

export const LOBBY_TEXTS = {
  loginToCreateGame: 'Please login to create a game',
  failedToCreateGame: 'Failed to create game',
  failedToCreateBotGame: 'Failed to create bot game',
  failedToSendCreateGame: 'Failed to send create game request',
  failedToSendCreateBotGame: 'Failed to send create bot game request',
  enterRoomCode: 'Please enter a room code',
  failedToJoinGame: 'Failed to join game',
  failedToSendJoinGame: 'Failed to send join game request',
  joinTimeout: 'Join timeout',
  socketJoinFailed: 'Socket join failed',
  failedToUpdateReady: 'Failed to update ready status',
  notInGame: 'Not in a game',
  onlyHostCanStart: 'Only the host can start the game',
  allPlayersMustBeReady: 'All players must be ready to start',
  failedToStartGame: 'Failed to start game',
  gameCreated: 'Game created with room code',
  joinedGame: 'Joined game successfully',
  allPlayersReady: 'All players ready! Host can start the game!',
  startingGame: 'Starting game...',
  roomCodeCopied: 'Room code copied!',
  wageredGamesComingSoon: 'Wagered Games Coming Soon',
  joinExistingGame: 'Join Existing Game',
  freeLobbyTitle: 'Free Game Lobby',
  wageredLobbyTitle: 'Wagered Game Lobby',
  gameLobbyTitle: 'Game Lobby',
  botGameLobbyTitle: 'Bot Game Lobby',
  /** The only join error worth retrying. */
  gameNotFound: 'Game not found',
  /** ours */
  gameFull: 'Game is full',
  /** ours: one unfinished game at a time; a lobby is left automatically, a game in play is not */
  alreadyInGame: 'You are already in a game. Finish or leave it first.',
  /** ours */
  spectatorsNotAllowed: 'This game does not allow spectators',
  /** ours: a socket over its event budget */
  tooManyEvents: 'Too many events. Please slow down.',
  /** ours */
  gameAlreadyStarted: 'Game has already started',
  /** ours */
  notEnoughPlayers: `At least ${MIN_PLAYERS} players are needed to start`,
  /** ours */
  maxPlayersRange: `Max players must be between ${MIN_PLAYERS} and ${MAX_PLAYERS}`,
  /** ours */
  botCountRange: `Number of bots must be between ${MIN_BOTS} and ${MAX_BOTS}`,
  /** ours */
  maxPlayersAboveBots: 'Max players must be greater than the number of bots',
  /** ours */
  botSettingsRequired: 'Choose the number of bots and their difficulty',
  /** ours */
  gameIdOrRoomCodeRequired: 'A game id or room code is required',
  /** ours: a rematch lobby is held for the previous game's players first (docs/privacy.md) */
  rematchHeld: `This rematch lobby is held for the previous game's players for ${REMATCH_HOLD_MS / 1000} seconds. Try again shortly.`,
  /** ours (docs/privacy.md) */
  rematchExpired: `A rematch can be offered only within ${REMATCH_OFFER_WINDOW_MS / 60_000} minutes of the game's end.`,
  /** ours (docs/privacy.md) */
  rematchLimit: `A game can be offered for a rematch at most ${REMATCH_OFFERS_MAX} times.`,
} as const;

export function gameCreatedText(roomCode: string): string {
  return `${LOBBY_TEXTS.gameCreated} ${roomCode}`;
}

/** ours: the lobby's toasts (player joined, left, ready or not ready). */
export function playerJoinedText(username: string): string {
  return `${username} joined the game`;
}
export function playerLeftText(username: string): string {
  return `${username} left the game`;
}
export function playerReadyText(username: string, isReady: boolean): string {
  return isReady ? `${username} is ready` : `${username} is not ready`;
}

export const GAME_TEXTS = {
  failedToPlayCard: 'Failed to play card',
  failedToSendCardPlay: 'Failed to send card play request',
  powerUpFailed: 'Power-up failed',
  failedToUsePowerUp: 'Failed to use power-up',
  gameErrorOccurred: 'Game error occurred',
  anErrorOccurred: 'An error occurred',
  /** ours: a room that hit a server fault is stopped and its game recorded as aborted. */
  gameStopped: 'This game was stopped by a server error and will not count',
  frozenCannotSelectCards: 'You are frozen and cannot select cards!',
  frozenCannotUsePowerUps: RULE_TEXTS.FROZEN_POWER_UP,
  frozenCannotPlayCards: RULE_TEXTS.FROZEN_PLAY,
  cannotPlayNow: 'Cannot play cards right now',
  gameNotActive: RULE_TEXTS.GAME_NOT_ACTIVE,
  powerUpNotAvailable: RULE_TEXTS.POWER_UP_NOT_AVAILABLE,
  selectTheCardFirst: RULE_TEXTS.CARD_REQUIRED,
  selectACardFirst: 'Select a card first',
  cardNotInHand: RULE_TEXTS.CARD_NOT_IN_HAND,
  noCardsInPile: RULE_TEXTS.EMPTY_PILE,
  noOpponentsToFreeze: RULE_TEXTS.NO_OPPONENTS,
  nothingToSendBack: RULE_TEXTS.NOTHING_TO_SEND_BACK,
  startFailedFallback: 'Game start failed - using emergency fallback',
  loadingGame: 'Loading game...',
  loadingBotGame: 'Loading bot game...',
  multiplayerTitle: 'Multiplayer Game',
  botGameTitle: 'Playing vs AI',
  myDeck: 'My Deck',
  victory: 'Victory',
  gameOver: 'Game Over',
  aiVictory: 'AI Victory',
  botWon: 'Bot won the game',
  playAgain: 'Play Again',
  challengeAiAgain: 'Challenge AI Again',
  botSuffix: ' (Bot)',
  /** The countdown overlay's last step, after 5 to 1. */
  go: 'GO!',
  /** ours: usePowerUp with different targets at the top level and in targetData */
  conflictingTargets: 'Conflicting power-up targets',
} as const;

/** A bot shows as its name with the "(Bot)" suffix. */
export function playerDisplayName(player: { readonly username: string; readonly isBot: boolean }): string {
  return player.isBot ? `${player.username}${GAME_TEXTS.botSuffix}` : player.username;
}

/** A player card shows up to 8 card backs, then "+N" for the rest. */
export function hiddenCardsText(cardsLeft: number, shown: number = PLAYER_CARD_BACKS_SHOWN): string | null {
  const rest = cardsLeft - shown;
  return rest > 0 ? `+${rest}` : null;
}

/** "Cannot play {card} on {card}", with cards named as the engine names them. */
export function cannotPlayCardText(card: Card, top: Card): string {
  return `Cannot play ${formatCard(card)} on ${formatCard(top)}`;
}

/** In-game hints. */
export const HINTS = {
  selectCardThenPile: 'Select a card from your hand, then click a discard pile to play it!',
  sniperReady: 'Sniper shot ready! Click a pile to fire!',
  freezeSelected: 'Freeze selected! Choose an opponent.',
  youAreFrozen: 'You are frozen! Cannot play cards or use power-ups.',
  allCardsPlayed: "Congratulations! You've played all your cards!",
} as const;

export const POWER_UP_NAMES: Record<PowerUpType, string> = {
  BOMB: 'Bomb',
  REVERSAL: 'Reversal',
  FREEZE: 'Freeze',
  WHIRLWIND: 'Whirlwind',
  SNIPER: 'Sniper Shot',
};

/** What each power-up does (docs/game-rules.md, Power-ups); sent as powerUpUsed.effect. */
export const POWER_UP_EFFECT_TEXTS: Record<PowerUpType, string> = {
  BOMB: 'Plays the top deck card directly',
  REVERSAL: `Sends ${REVERSAL_CARDS} cards back, adding ${REVERSAL_CARDS} cards to each opponent's deck`,
  FREEZE: `Stops one opponent for ${FREEZE_DURATION_MS / 1000} seconds`,
  WHIRLWIND: 'Shuffles all discard piles',
  SNIPER: 'Plays any card ignoring matching rules',
};

/** "Match me": the choice's name and its one-line explanation. */
export const MATCH_ME_TEXTS = {
  label: 'Match me',
  hint: 'A bot paced from your own recent games, for an even match.',
} as const;

export const BOT_LABELS: Record<BotDifficulty, string> = {
  easy: 'Easy Bot',
  normal: 'Normal Bot',
  hard: 'Hard Bot',
  expert: 'Expert Bot',
};

/** ours: the freeze and unfreeze messages (the durations are the rules'). */
export function playerFrozenText(playerName: string, frozenBy: string): string {
  return `${playerName} was frozen by ${frozenBy}!`;
}
export function youWereFrozenText(frozenBy: string, durationMs: number): string {
  return `You were frozen by ${frozenBy} for ${Math.round(durationMs / 1000)} seconds!`;
}
export function playerUnfrozenText(playerName: string): string {
  return `${playerName} is no longer frozen`;
}

export const DEADLOCK_TEXTS = {
  deadlocked: 'Game deadlocked!',
  defaultReason: UNRESOLVABLE_REASON,
  multipleDeadlocks: 'Multiple deadlocks detected. Game may need to end.',
  failedToResolve: 'Failed to resolve deadlock. Please refresh if game is stuck.',
  resolvingTitle: 'Resolving Deadlock',
  forceResolutionNow: 'Force Resolution Now',
  forceNotAllowed: RULE_TEXTS.FORCE_NOT_ALLOWED,
  /** ours: automatic, manual and forced variants, as info toasts */
  resolved: {
    automatic: 'Deadlock resolved automatically: new cards flipped onto the piles',
    manual: 'Deadlock resolved: new cards flipped onto the piles',
    forced: 'Deadlock resolution forced: new cards flipped onto the piles',
  },
} as const;

/** "Game deadlocked!" with the reason, defaulting to the engine's. */
export function gameDeadlockedText(reason: string = UNRESOLVABLE_REASON): string {
  return `${DEADLOCK_TEXTS.deadlocked} ${reason}`;
}

export const LEADERBOARD_TEXTS = {
  tabs: {
    totalPoints: 'Top Points',
    gamesWon: 'Most Wins',
    winRate: 'Win Rate',
    gamesPlayed: 'Most Active',
    rating: 'Rating',
    tournament: 'Tournament',
  },
  noPlayers: 'No players yet',
  failedToLoad: 'Failed to load leaderboard',
  tryAgain: 'Try Again',
  refresh: 'Refresh Rankings',
} as const;

/**
 * The leaderboard's error box and toast by status: status null means no response at all,
 * 'other' any other failure (an invalid response structure, say). A null toast means none is
 * shown.
 */
export function leaderboardErrorTexts(status: number | null | 'other'): { box: string; toast: string | null } {
  if (status === null) return { box: HTTP_TEXTS.network, toast: null };
  // Anything that is neither a status nor a missing response (an invalid answer, a thrown error).
  if (status === 'other') return { box: LEADERBOARD_TEXTS.failedToLoad, toast: null };
  if (status === 404) {
    return {
      box: 'Leaderboard endpoint not found. Please check server setup.',
      toast: 'Leaderboard endpoint not found',
    };
  }
  if (status === 401) {
    return { box: 'Authentication required. Please log in again.', toast: 'Please log in to view leaderboard' };
  }
  if (status === 500)
    return { box: 'Server error. Please try again later.', toast: 'Server error loading leaderboard' };
  return { box: `Server error: ${status}`, toast: `Error: ${status}` };
}

/** ours: the scoring methods as people read them (the admin form, the tournament banner). */
export const SCORING_METHOD_LABELS = {
  totalPoints: 'Total points',
  winRate: 'Win rate',
  averageTime: 'Average game time (fastest wins)',
  gamesWon: 'Games won',
} as const satisfies Record<(typeof SCORING_METHODS)[number], string>;

export const TOURNAMENT_TEXTS = {
  nameRequired: 'Tournament name is required',
  startDateRequired: 'Start date is required',
  endDateRequired: 'End date is required',
  endAfterStart: 'End date must be after start date',
  prizeAmountRequired: 'Prize pool amount is required and must be positive',
  prizeDistributionMismatch: 'Prize distribution must equal total amount',
  fixFormErrors: 'Please fix the form errors',
  createFailed: 'Failed to create tournament',
  createError: 'Error creating tournament',
  noActiveTournament: 'No Active Tournament',
  startingSoon: 'Tournament Starting Soon!',
  noParticipants: 'No participants yet',
  prizeWinner: 'Prize Winner!',
  live: 'LIVE',
  upcoming: 'UPCOMING',
  ended: 'Ended',
  /** The banner of an upcoming tournament shows "starts in" before its time. */
  startsIn: 'starts in',
  managementComingSoon: 'Tournament management features coming soon...',
  /** ours */
  created: 'Tournament created successfully!',
  /** ours */
  nameTooLong: `Tournament name cannot exceed ${TOURNAMENT_NAME_MAX_LENGTH} characters`,
  /** ours */
  winnersCountInvalid: `Number of winners must be a number from ${WINNERS_COUNT.min} to ${WINNERS_COUNT.max}`,
  /** ours */
  invalidDate: 'Date is invalid',
  /** ours */
  minGamesRequired: `Min games required must be at least ${MIN_GAMES_REQUIRED.min}`,
  /** ours */
  maxParticipants: `Max participants must be a whole number of at least ${TOURNAMENT_MIN_PARTICIPANTS}, or empty for unlimited`,
  /** ours */
  prizeAmountInvalid: 'Prize amounts must be numbers of at least 0',
  prizeAmountTooLarge: `Prize amounts can be at most ${MAX_PRIZE_AMOUNT.toLocaleString('en-US')}`,
  prizeAmountPrecision: `Prize amounts can have at most ${PRIZE_AMOUNT_DECIMALS} decimal places`,
  /** ours */
  prizeDistributionLength: 'Prize distribution must list one amount per winner',
  /** ours */
  conflictingFields: 'The flat and nested tournament fields disagree',
  /** ours */
  notFound: 'Tournament not found',
  /** ours */
  alreadyJoined: 'You have already joined this tournament',
  /** ours */
  full: 'Tournament is full',
  /** ours */
  hasEnded: 'Tournament has ended',
  /** ours */
  verifiedWalletRequired: 'This tournament requires a verified Solana wallet',
  /** ours: prizes go to accounts, not to demo guests */
  guestsCannotJoin: 'Create an account to join tournaments',
  /** ours (docs/fair-play.md): people-only tournaments are for accounts whose e-mail is verified */
  verifiedEmailRequired:
    'Verify your e-mail address to join this tournament: people-only tournaments need a verified e-mail',
  /** ours: the link beside verifiedEmailRequired (to the page that mails the link again) */
  verifyEmailLink: 'Send me the verification link',
  /** ours: the entry control of the Tournament tab and the dashboard */
  signInToJoin: 'Sign in to join',
  /** ours */
  join: 'Join Tournament',
  /** ours */
  joining: 'Joining…',
  /** ours */
  joined: 'Joined',
  /** ours */
  joinedToast: 'You joined the tournament',
  /** ours */
  joinFailed: 'Could not join the tournament',
  /** ours: the link beside verifiedWalletRequired */
  linkWallet: 'Link a wallet in your profile',
  /** ours */
  yourPosition: 'Your position',
  /** ours */
  gamesCounted: 'Games counted',
  /** ours */
  lastGameNotCounted: 'Your last game did not count',
  /** ours */
  viewStandings: 'View standings',
  /** ours: why a finished game did not count, one text per reason */
  uncounted: {
    botsNotAllowed: "Bot games don't count in this tournament",
    outsideWindow: 'Outside the tournament window: only games finished between its start and end count',
    aborted: `Aborted: a game abandoned in its first ${EARLY_LEAVE_MS / 1000} s or before ${EARLY_LEAVE_MIN_CARDS} cards, or left by everyone, does not count`,
    tooShort: `Under ${TOURNAMENT_MIN_GAME_DURATION_MS / 1000} s: games must last at least ${TOURNAMENT_MIN_GAME_DURATION_MS / 1000} seconds to count`,
    opponentGuest: 'Against a guest: games count only against registered accounts',
    opponentNewAccount: 'Against an account under a day old (or since deleted): such games do not count',
    sameNetwork: 'Against a player on your network: games between players on the same network do not count',
    pairLimit: `Over ${COUNTED_GAMES_PER_OPPONENT} games against the same opponent: only the first ${COUNTED_GAMES_PER_OPPONENT} count`,
  },
} as const;

/**
 * ours: which games count, said before any is played (docs/fair-play.md), e.g. "Counts: games that
 * end between the start and the end and last at least 30 s, people only. Ranked after 5 counted games."
 */
export function tournamentRulesText(settings: {
  readonly allowBots: boolean;
  readonly minGamesRequired: number;
}): string {
  const seconds = TOURNAMENT_MIN_GAME_DURATION_MS / 1000;
  const who = settings.allowBots ? 'bot games included' : 'people only (bot games do not count)';
  const n = settings.minGamesRequired;
  return `Counts: games that end between the start and the end and last at least ${seconds} s, ${who}. Ranked after ${n} counted ${n === 1 ? 'game' : 'games'}.`;
}

/**
 * ours (docs/fair-play.md): the anti-farming rules, said before any game is played, one line each. A
 * people-only tournament adds that it needs a verified e-mail to join.
 */
export function fairPlayRulesText(settings: { readonly allowBots: boolean }): string[] {
  return [
    "Games against guests, accounts under a day old or players on your network don't count.",
    `At most ${COUNTED_GAMES_PER_OPPONENT} counted games against the same opponent.`,
    `A game abandoned in its first ${EARLY_LEAVE_MS / 1000} s or before ${EARLY_LEAVE_MIN_CARDS} cards is aborted: no winner, no points.`,
    ...(settings.allowBots ? [] : ['People only: joining needs a verified e-mail address.']),
  ];
}

/** ours: a participant below minGamesRequired, e.g. "Not ranked yet: 1 of 3 games". */
export function notRankedYetText(gamesCounted: number, minGamesRequired: number): string {
  return `Not ranked yet: ${gamesCounted} of ${minGamesRequired} ${minGamesRequired === 1 ? 'game' : 'games'}`;
}

/** Time remaining as days+hours, hours+minutes, minutes, or seconds in the last minute; "Ended" at zero. */
export function formatTimeRemaining(ms: number): string {
  if (ms <= 0) return TOURNAMENT_TEXTS.ended;
  // The last minute in seconds: never "0m" while time is left.
  if (ms < 60_000) return `${Math.ceil(ms / 1000)}s`;
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/** Game time as m:ss. */
export function formatGameTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

export const ADMIN_TEXTS = {
  accessDenied: 'Access Denied',
  noPermission: "You don't have permission to access this page.",
  adminAccessRequired: 'Admin access required',
  superadminRequired: 'Superadmin access required for this page',
} as const;

export const HOW_TO_PLAY_TEXTS = {
  selectCardFirst: 'Select a card first!',
  correctMatch: 'Correct match!',
  notValidMatch: 'Not a valid match!',
  playNow: 'Play Now',
} as const;
