import { describe, expect, it } from 'vitest';
import { RULE_TEXTS, type Card } from '@memeslam/engine';
import * as protocol from '../src/index.ts';
import {
  ACHIEVEMENTS,
  BOT_READY_MS,
  COUNTDOWN_CHECKS_MS,
  DEADLOCK_THRESHOLDS_MS,
  TOAST_DURATIONS_MS,
  achievementsFor,
  aiSystemCheckMs,
  cannotPlayCardText,
  connectionFailedText,
  connectionLostText,
  failedToCreateBotGameText,
  formatGameTime,
  gameDeadlockedText,
  httpErrorText,
  hiddenCardsText,
  leaderboardErrorTexts,
  levelFor,
  playerDisplayName,
  resourceNotFoundText,
  serverErrorText,
  welcomeBackText,
  winRatePercent,
} from '../src/index.ts';

/** Every string value of the exported text catalogues (objects ending in _TEXTS, HINTS, labels). */
function catalogue(): Set<string> {
  const texts = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') texts.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const [name, value] of Object.entries(protocol)) {
    if (/_TEXTS$|^HINTS$|_NAMES$|_LABELS$/.test(name)) walk(value);
  }
  return texts;
}

/** Fixed texts the screens show (hints, forms, toasts, errors), copied verbatim so a changed text fails. */
const SPEC_TEXTS = [
  // account form validation
  'Email or username is required',
  'Password is required',
  'Username must be at least 3 characters',
  'Username cannot exceed 20 characters',
  'Username can only contain letters, numbers, and underscores',
  'Email is invalid',
  // With the password minimum of 8.
  'Password must be at least 8 characters',
  'Please confirm your password',
  'Passwords do not match',
  'Please enter your email address',
  'Invalid verification link. Please check your email for the correct link.',
  'Email cannot be changed',
  // accounts: landing, dashboard, verification
  'Email verified successfully! You can now access all features.',
  'Please use the resend verification option from the login page',
  'Email Verification Required',
  'Bot game starting!',
  'Bot game is live!',
  'No recent games',
  // accounts: errors and toasts
  'Invalid request',
  'Session expired. Please login again.',
  'Access denied',
  'Conflict error',
  'Validation error',
  'Too many requests. Please slow down.',
  'Request timeout. Please check your connection.',
  'Network error. Please check your connection.',
  'No internet connection',
  'An unexpected error occurred',
  'Invalid email or password',
  'Too many login attempts. Please try again later.',
  'Please verify your email address before logging in',
  'Please verify your email before logging in',
  'Login failed: Invalid response',
  'Registration failed',
  'Registration failed: Invalid response',
  'Demo login failed',
  'Profile update failed',
  'Failed to send verification email',
  'Failed to send verification email. Please try again.',
  'Verification failed. Please try again or contact support.',
  'Email verification failed',
  'Logged in successfully!',
  'Account created successfully!',
  'Registration successful! Please check your email to verify your account.',
  'Logged out successfully',
  'Profile updated successfully',
  'Demo login successful!',
  'Verification email sent! Please check your inbox.',
  'Verification email sent!',
  'Failed to load games',
  'Please wait for user data to load',
  'Cannot create game - server connection error',
  'Cannot create bot game - server connection error',
  'Cannot join game - server connection error',
  'Wagered games coming soon!',
  'Invalid room code',
  'Failed to navigate to game',
  'Invalid game data',
  'Game is not available',
  'No active game found',
  'Invalid bot game settings',
  'Please log in to create bot games',
  'Authentication required. Please login.',
  'Server is not responding',
  'Connection timeout',
  'Server disconnected',
  'Authentication failed. Please login again.',
  'Connection timeout. Check your internet.',
  'Unable to connect to server. Please refresh the page.',
  'Not connected to server',
  'Account deletion coming soon!',
  // gameplay: hints and screens
  'Select a card from your hand, then click a discard pile to play it!',
  'Sniper shot ready! Click a pile to fire!',
  'Freeze selected! Choose an opponent.',
  'You are frozen! Cannot play cards or use power-ups.',
  "Congratulations! You've played all your cards!",
  'Loading game...',
  'Loading bot game...',
  'Multiplayer Game',
  'Playing vs AI',
  'My Deck',
  'Victory',
  'Game Over',
  'AI Victory',
  'Play Again',
  'Challenge AI Again',
  'Free Game Lobby',
  'Wagered Game Lobby',
  'Game Lobby',
  'Bot Game Lobby',
  'Wagered Games Coming Soon',
  'No players yet',
  'Failed to load leaderboard',
  'Try Again',
  'Refresh Rankings',
  'Top Points',
  'Most Wins',
  'Win Rate',
  'Most Active',
  'Tournament',
  'No Active Tournament',
  'Tournament Starting Soon!',
  'No participants yet',
  'Prize Winner!',
  'LIVE',
  'UPCOMING',
  'Select a card first!',
  'Correct match!',
  'Not a valid match!',
  'Play Now',
  'Access Denied',
  "You don't have permission to access this page.",
  'Tournament management features coming soon...',
  'Easy Bot',
  'Normal Bot',
  'Hard Bot',
  'Sniper Shot',
  'Resolving Deadlock',
  'Force Resolution Now',
  // gameplay: lobby, countdown and start
  'Game start failed - using emergency fallback',
  'All players ready! Host can start the game!',
  'Cannot play cards right now',
  'Game not active',
  'Please select the card first',
  'Select a card first',
  'Card not found in hand',
  'No cards in discard pile',
  'No opponents to freeze',
  'Please enter a room code',
  'Tournament name is required',
  'Start date is required',
  'End date is required',
  'End date must be after start date',
  'Prize pool amount is required and must be positive',
  'Prize distribution must equal total amount',
  'Please fix the form errors',
  'Bot won the game',
  // gameplay: errors and toasts
  'Failed to connect to server. Please try again.',
  'Please refresh and try again.',
  'Connected to server',
  'Please login to create a game',
  'Failed to create game',
  'Failed to create bot game',
  'Failed to send create game request',
  'Failed to send create bot game request',
  'Failed to join game',
  'Failed to send join game request',
  'Join timeout',
  'Socket join failed',
  'Failed to update ready status',
  'Not in a game',
  'Only the host can start the game',
  'All players must be ready to start',
  'Failed to start game',
  'Game created with room code',
  'Joined game successfully',
  'Starting game...',
  'Room code copied!',
  'Failed to play card',
  'Failed to send card play request',
  'Power-up failed',
  'Failed to use power-up',
  'Game error occurred',
  'An error occurred',
  'You are frozen and cannot select cards!',
  'You are frozen and cannot use power-ups!',
  'You are frozen and cannot play cards!',
  'Power-up not available',
  'Game deadlocked!',
  'No more cards can be flipped.',
  'Multiple deadlocks detected. Game may need to end.',
  'Failed to resolve deadlock. Please refresh if game is stuck.',
  'Failed to create tournament',
  'Error creating tournament',
  'Admin access required',
  'Superadmin access required for this page',
  'Game not found',
  'Ended',
  // quoted UI words
  'coming soon',
  'contract coming soon',
  'Coming Soon',
  'Sending...',
  'Join Existing Game',
  'GO!',
  'starts in',
];

describe('text catalogue', () => {
  it('holds every fixed text verbatim', () => {
    const texts = catalogue();
    const missing = SPEC_TEXTS.filter((text) => !texts.has(text));
    expect(missing).toEqual([]);
  });

  it('reuses the engine texts rather than copying them', () => {
    expect(protocol.GAME_TEXTS.powerUpNotAvailable).toBe(RULE_TEXTS.POWER_UP_NOT_AVAILABLE);
    expect(protocol.GAME_TEXTS.frozenCannotPlayCards).toBe(RULE_TEXTS.FROZEN_PLAY);
    expect(protocol.DEADLOCK_TEXTS.defaultReason).toBe('No more cards can be flipped.');
  });

  it('fills the parameterised texts', () => {
    const red3: Card = { id: 'a', number: 3, color: 'Red', logo: 'Pepe' };
    const blue5: Card = { id: 'b', number: 5, color: 'Blue', logo: 'Wif' };
    expect(resourceNotFoundText('/game/abc')).toBe('Resource not found: /game/abc');
    expect(serverErrorText(503)).toBe('Server error (503). Please try again later.');
    expect(connectionFailedText(2, 'timeout')).toBe('Connection failed (2/5): timeout');
    expect(connectionLostText('transport close')).toBe('Connection lost: transport close');
    expect(welcomeBackText('alice')).toBe('Welcome back, alice!');
    expect(failedToCreateBotGameText('hard')).toBe('Failed to create hard bot game');
    expect(cannotPlayCardText(red3, blue5)).toBe('Cannot play Red 3 Pepe on Blue 5 Wif');
    expect(gameDeadlockedText()).toBe('Game deadlocked! No more cards can be flipped.');
    expect(formatGameTime(125)).toBe('2:05');
  });

  it('maps HTTP statuses to the generic toasts', () => {
    expect(httpErrorText(400, undefined, '/x')).toBe('Invalid request');
    expect(httpErrorText(400, 'Bad thing', '/x')).toBe('Bad thing');
    expect(httpErrorText(401, undefined, '/x')).toBeNull();
    expect(httpErrorText(403, 'nope', '/x')).toBe('Access denied');
    expect(httpErrorText(404, undefined, '/game/g-1')).toBe('Resource not found: /game/g-1');
    expect(httpErrorText(404, undefined, '/game/active')).toBeNull();
    expect(httpErrorText(409, undefined, '/x')).toBe('Conflict error');
    expect(httpErrorText(422, undefined, '/x')).toBe('Validation error');
    expect(httpErrorText(429, 'x', '/x')).toBe('Too many requests. Please slow down.');
    expect(httpErrorText(502, 'x', '/x')).toBe('Server error (502). Please try again later.');
    expect(httpErrorText(418, undefined, '/x')).toBe('Request failed with status 418');
  });

  it('keeps the active-games 404 silent with or without the /api base, and only that list', () => {
    expect(httpErrorText(404, undefined, '/api/game/active')).toBeNull();
    expect(httpErrorText(404, undefined, '/game/active?gameMode=bot&_t=1')).toBeNull();
    expect(httpErrorText(404, undefined, '/api/game/active?limit=20')).toBeNull();
    expect(httpErrorText(404, undefined, '/game/activeX')).toBe('Resource not found: /game/activeX');
    expect(httpErrorText(404, undefined, '/api/game/g-1')).toBe('Resource not found: /api/game/g-1');
  });

  it('names bots with the (Bot) suffix and counts card backs beyond 8 as +N', () => {
    expect(playerDisplayName({ username: 'Pepe Bot', isBot: true })).toBe('Pepe Bot (Bot)');
    expect(playerDisplayName({ username: 'alice', isBot: false })).toBe('alice');
    expect(hiddenCardsText(30)).toBe('+22');
    expect(hiddenCardsText(9)).toBe('+1');
    expect(hiddenCardsText(8)).toBeNull();
    expect(hiddenCardsText(0)).toBeNull();
  });

  it('maps leaderboard failures to box and toast', () => {
    expect(leaderboardErrorTexts(404)).toEqual({
      box: 'Leaderboard endpoint not found. Please check server setup.',
      toast: 'Leaderboard endpoint not found',
    });
    expect(leaderboardErrorTexts(401).toast).toBe('Please log in to view leaderboard');
    expect(leaderboardErrorTexts(500).box).toBe('Server error. Please try again later.');
    expect(leaderboardErrorTexts(503)).toEqual({ box: 'Server error: 503', toast: 'Error: 503' });
    expect(leaderboardErrorTexts(null)).toEqual({ box: 'Network error. Please check your connection.', toast: null });
    expect(leaderboardErrorTexts('other')).toEqual({ box: 'Failed to load leaderboard', toast: null });
    expect(leaderboardErrorTexts(401).box).toBe('Authentication required. Please log in again.');
    expect(leaderboardErrorTexts(500).toast).toBe('Server error loading leaderboard');
  });
});

describe('constants', () => {
  it('level, win rate and achievements', () => {
    expect([0, 999, 1000, 5432].map(levelFor)).toEqual([1, 1, 2, 6]);
    expect(winRatePercent(1, 3)).toBe(33);
    expect(winRatePercent(0, 0)).toBe(0);
    expect(ACHIEVEMENTS.map((a) => a.name)).toEqual(['First Game', 'First Victory', 'Win Streak', 'Point Master']);
    expect(achievementsFor({ gamesPlayed: 1, gamesWon: 0, totalPoints: 0 })).toEqual(['firstGame']);
    expect(achievementsFor({ gamesPlayed: 30, gamesWon: 10, totalPoints: 5000 })).toEqual([
      'firstGame',
      'firstVictory',
      'winStreak',
      'pointMaster',
    ]);
  });

  it('countdown and deadlock timings', () => {
    expect(COUNTDOWN_CHECKS_MS).toEqual({ discardPiles: 200, playerHands: 600, gameState: 1000 });
    expect([aiSystemCheckMs(0), aiSystemCheckMs(1), aiSystemCheckMs(5)]).toEqual([1200, 1500, 2000]);
    expect([BOT_READY_MS.easy, BOT_READY_MS.normal, BOT_READY_MS.hard]).toEqual([1000, 1300, 1600]);
    expect(Object.values(DEADLOCK_THRESHOLDS_MS)).toEqual([5000, 10_000, 15_000, 20_000]);
    expect(TOAST_DURATIONS_MS.default).toBe(4000);
    expect(protocol.LEADERBOARD_LIMIT).toBe(50);
    expect(protocol.BREAKPOINTS).toEqual({ tablet: 768, desktop: 1024 });
    expect(protocol.TOKENOMICS.taxSplit).toEqual({ prizePools: 70, development: 20, marketing: 10 });
  });
});
