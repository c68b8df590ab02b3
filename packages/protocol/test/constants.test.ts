/**
 * The product's constants, table by table, with their values written out. Rule constants are the
 * engine's (protocol builds on them); everything else is this package's.
 */
import { describe, expect, it } from 'vitest';
import {
  BOT_DIFFICULTIES,
  CARD_COLORS,
  CARD_LOGOS,
  CARDS_PER_PLAYER_OPTIONS,
  DEFAULT_CARDS_PER_PLAYER,
  FREEZE_DURATION_MS,
  GAME_SPEEDS,
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  POWER_UP_TYPES,
  REVERSAL_CARDS,
  UNIQUE_CARD_COUNT,
  VISIBLE_PILE_CARDS,
} from '@memeslam/engine';
import {
  ADMIN_NEW_USERS_DAYS,
  BOT_ACTIVE_WINDOW_MS,
  BOT_AI_STATUS_DELAY_MS,
  BOT_ANALYZING_AT,
  BOT_AUTO_START_DELAY_MS,
  BOT_DIALOG_DEFAULTS,
  BOT_GAME_DEFAULTS,
  BREAKPOINTS,
  CARD_SIZES,
  CONFETTI,
  COUNTDOWN_COMPLETE_AFTER_ZERO_MS,
  COUNTDOWN_DURATION_MS,
  COUNTDOWN_TICK_MS,
  CURRENCIES,
  DASHBOARD_BOT_DIFFICULTIES,
  DASHBOARD_GAME_SPEEDS,
  DEADLOCK_CHECK_INTERVAL_MS,
  DEADLOCK_MODAL_AUTO_CLOSE_MS,
  DEADLOCK_THRESHOLDS_MS,
  DEFAULT_CURRENCY,
  DEFAULT_PREFERENCES,
  DEFAULT_SCORING_METHOD,
  EMERGENCY_COUNTDOWN_CHECK_MS,
  GAME_LIST_LIMIT,
  GAME_LIST_MODES,
  GAME_LIST_REFRESH_MS,
  HUMAN_READY_MS,
  JOIN_RETRY,
  LEADERBOARD_HIGHLIGHTED,
  LEADERBOARD_LIMIT,
  LEADERBOARD_MEDALS,
  LEADERBOARD_SORTS,
  LOBBY_BOT_DIFFICULTIES,
  LOBBY_DEFAULTS,
  LOBBY_GAME_SPEEDS,
  LOBBY_MAX_BOTS,
  LOBBY_MAX_PLAYERS_OPTIONS,
  LOBBY_QUICK_BOT_GAME,
  MARKETING,
  MAX_BOTS,
  MIN_BOTS,
  MIN_GAMES_REQUIRED,
  MISSING_STATE_FALLBACK_MS,
  PASSWORD_MIN_LENGTH,
  PLAYER_CARD_BACKS_SHOWN,
  PRIZE_AMOUNT_STEP,
  PRIZE_SUM_TOLERANCE,
  REFUSAL_TEXTS,
  QUICK_START_BOTS,
  RECENT_ACTIVITY_GAMES,
  REPEATED_DEADLOCK_WARNING_AT,
  REPEATED_DEADLOCK_WARNING_MS,
  REQUEST_TIMEOUT_MS,
  RESEND_VERIFICATION_REDIRECT_MS,
  ROOM_CODE_LENGTH,
  SCORING_METHODS,
  SERVER_ERROR_RETRY_DELAY_MS,
  SESSION_EXPIRED_REDIRECT_MS,
  SOCKET_RECONNECTION,
  SOCKET_TRANSPORTS,
  TOAST_DURATIONS_MS,
  TOKENOMICS,
  TOURNAMENT_MIN_GAME_DURATION_MS,
  TOURNAMENT_STATUSES,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  VERIFY_EMAIL_REDIRECT_MS,
  WINNERS_COUNT,
  createTournamentSchema,
  formatGameTime,
  formatTimeRemaining,
  levelFor,
  quickStartSettings,
  winRatePercent,
} from '../src/index.ts';

describe('accounts and dashboard constants', () => {
  it('HTTP client timings', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(15_000);
    expect(SERVER_ERROR_RETRY_DELAY_MS).toBe(1000);
    expect(SESSION_EXPIRED_REDIRECT_MS).toBe(1000);
    expect(VERIFY_EMAIL_REDIRECT_MS).toBe(3000);
    expect(RESEND_VERIFICATION_REDIRECT_MS).toBe(3000);
    expect(TOAST_DURATIONS_MS.default).toBe(4000);
  });

  it('account limits and preferences', () => {
    expect([USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH, PASSWORD_MIN_LENGTH]).toEqual([3, 20, 8]); // the password minimum is 8
    expect(DEFAULT_PREFERENCES).toEqual({ sound: true, animations: true, autoPlay: false });
  });

  it('players, bots, difficulties, speeds and cards', () => {
    expect([MIN_PLAYERS, MAX_PLAYERS]).toEqual([2, 6]);
    expect(LOBBY_MAX_PLAYERS_OPTIONS).toEqual([2, 3, 4]);
    expect([MIN_BOTS, MAX_BOTS, LOBBY_MAX_BOTS]).toEqual([1, 5, 3]);
    expect([BOT_DIALOG_DEFAULTS.numberOfBots, BOT_DIALOG_DEFAULTS.maxPlayers]).toEqual([2, 4]);
    expect(QUICK_START_BOTS).toEqual({ easy: 1, normal: 2, hard: 3 });
    expect(quickStartSettings('hard')).toMatchObject({ numberOfBots: 3, maxPlayers: 4 });
    expect(DASHBOARD_BOT_DIFFICULTIES).toEqual(['easy', 'normal', 'hard']);
    expect(DASHBOARD_GAME_SPEEDS).toEqual(['slow', 'normal', 'fast', 'blitz']);
    expect(DASHBOARD_GAME_SPEEDS).toEqual(GAME_SPEEDS);
    expect(BOT_GAME_DEFAULTS).toEqual({
      numberOfBots: 1,
      botDifficulty: 'normal',
      maxPlayers: 2,
      gameSpeed: 'normal',
      autoStart: true,
      cardsPerPlayer: 30,
    });
    expect(HAND_SIZE).toBe(3);
  });

  it('game list, socket, profile and marketing', () => {
    expect(GAME_LIST_LIMIT).toBe(20);
    expect(GAME_LIST_REFRESH_MS).toBe(30_000);
    expect(GAME_LIST_MODES).toEqual(['free', 'bot', 'wagered']);
    expect(SOCKET_RECONNECTION).toEqual({
      attempts: 5,
      delayMs: 1000,
      timeoutMs: 20_000,
      connectTimeoutMs: 15_000,
    });
    expect(SOCKET_TRANSPORTS).toEqual(['websocket', 'polling']);
    expect(winRatePercent(2, 3)).toBe(67);
    expect([levelFor(0), levelFor(4999), levelFor(5000)]).toEqual([1, 5, 6]);
    expect(RECENT_ACTIVITY_GAMES).toBe(3);
    expect(MARKETING).toEqual({
      uniqueCards: 180,
      colors: 6,
      memes: 6,
      minPlayers: 2,
      maxPlayers: 6,
      gameMinutes: { min: 2, max: 5 },
    });
    expect([UNIQUE_CARD_COUNT, CARD_COLORS.length, CARD_LOGOS.length]).toEqual([180, 6, 6]);
    expect(TOKENOMICS.taxPercent).toBe(1);
  });

  it('card presentation', () => {
    expect(CARD_SIZES).toEqual(['xs', 'sm', 'md', 'lg', 'xl', 'xxl']);
    expect(VISIBLE_PILE_CARDS).toBe(3);
  });
});

describe('gameplay, tournament and admin constants', () => {
  it('cards, power-ups, players and bots', () => {
    expect([DEFAULT_CARDS_PER_PLAYER, HAND_SIZE, DEFAULT_CARDS_PER_PLAYER - HAND_SIZE]).toEqual([30, 3, 27]);
    expect(CARDS_PER_PLAYER_OPTIONS).toEqual([20, 30, 40]);
    expect(POWER_UP_TYPES).toEqual(['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER']);
    expect(FREEZE_DURATION_MS).toBe(8000);
    expect(REVERSAL_CARDS).toBe(3);
    expect(LOBBY_DEFAULTS).toMatchObject({ maxPlayers: 4, cardsPerPlayer: 30, gameSpeed: 'normal' });
    expect(LOBBY_DEFAULTS.allowSpectators).toBe(true);
    expect(LOBBY_QUICK_BOT_GAME).toEqual({ numberOfBots: 1, maxPlayers: 2, autoStart: true });
    expect(LOBBY_BOT_DIFFICULTIES).toEqual(['easy', 'normal', 'hard', 'expert']);
    expect(LOBBY_BOT_DIFFICULTIES).toEqual(BOT_DIFFICULTIES);
    expect(LOBBY_GAME_SPEEDS).toEqual(['slow', 'normal', 'fast']);
    expect(ROOM_CODE_LENGTH).toBe(6);
  });

  it('countdown, start and join', () => {
    expect(COUNTDOWN_DURATION_MS).toBe(5000);
    expect(COUNTDOWN_TICK_MS).toBe(1000);
    expect(COUNTDOWN_COMPLETE_AFTER_ZERO_MS).toBe(1000);
    expect(EMERGENCY_COUNTDOWN_CHECK_MS).toBe(2000);
    expect(BOT_AUTO_START_DELAY_MS).toBe(1000);
    expect(MISSING_STATE_FALLBACK_MS).toBe(2000);
    expect(HUMAN_READY_MS).toBe(800);
    expect([BOT_AI_STATUS_DELAY_MS.easy, BOT_AI_STATUS_DELAY_MS.normal, BOT_AI_STATUS_DELAY_MS.hard]).toEqual([
      500, 800, 1200,
    ]);
    expect(BOT_ANALYZING_AT).toBe(0.3);
    expect(JOIN_RETRY).toEqual({
      retries: 3,
      delayMs: 1000,
      timeoutMs: 5000,
      connectionWaitMs: 5000,
      retryOn: 'GAME_NOT_FOUND',
    });
    expect(REFUSAL_TEXTS[JOIN_RETRY.retryOn]).toBe('Game not found');
  });

  it('deadlock, bot activity and toasts', () => {
    expect(DEADLOCK_THRESHOLDS_MS).toEqual({
      notice: 5000,
      checkServer: 10_000,
      forceButton: 15_000,
      autoForce: 20_000,
    });
    expect(DEADLOCK_CHECK_INTERVAL_MS).toBe(1000);
    expect(DEADLOCK_MODAL_AUTO_CLOSE_MS).toBe(3000);
    expect([REPEATED_DEADLOCK_WARNING_AT, REPEATED_DEADLOCK_WARNING_MS]).toEqual([3, 10_000]);
    expect(BOT_ACTIVE_WINDOW_MS).toBe(5000);
    expect(TOAST_DURATIONS_MS).toMatchObject({
      botCardPlayed: 2000,
      botPowerUpUsed: 3000,
      botWin: 5000,
      gameStarting: 4000,
      roomCodeCopied: 2000,
    });
  });

  it('leaderboard, tournaments and admin', () => {
    expect([LEADERBOARD_LIMIT, LEADERBOARD_MEDALS, LEADERBOARD_HIGHLIGHTED]).toEqual([50, 3, 10]);
    expect(LEADERBOARD_SORTS).toEqual(['totalPoints', 'gamesWon', 'winRate', 'gamesPlayed']);
    expect(WINNERS_COUNT).toEqual({ min: 1, max: 10, default: 3 });
    expect(MIN_GAMES_REQUIRED).toEqual({ min: 1, default: 5 });
    expect(PRIZE_SUM_TOLERANCE).toBe(1);
    expect(PRIZE_AMOUNT_STEP).toBe(0.01);
    expect(CURRENCIES).toEqual(['SLAM', 'SOL']);
    expect(DEFAULT_CURRENCY).toBe('SLAM');
    expect(SCORING_METHODS).toEqual(['totalPoints', 'winRate', 'averageTime', 'gamesWon']);
    expect(DEFAULT_SCORING_METHOD).toBe('totalPoints');
    expect(TOURNAMENT_STATUSES).toEqual(['upcoming', 'active', 'ended']);
    expect(TOURNAMENT_MIN_GAME_DURATION_MS).toBe(30_000);
    expect(ADMIN_NEW_USERS_DAYS).toBe(7);
    expect(formatTimeRemaining(0)).toBe('Ended');
    expect(formatTimeRemaining((2 * 24 + 5) * 3_600_000 + 60_000)).toBe('2d 5h');
    expect(formatTimeRemaining(3 * 3_600_000 + 7 * 60_000)).toBe('3h 7m');
    expect(formatTimeRemaining(42 * 60_000 + 5000)).toBe('42m');
  });

  it('the tournament form falls back to the default currency, scoring method, winners and min games', () => {
    const draft = createTournamentSchema.parse({
      name: 'Cup',
      startDate: '2025-07-01T10:00:00Z',
      endDate: '2025-07-02T10:00:00Z',
      totalAmount: 100,
    });
    expect(draft.prizePool).toMatchObject({ currency: DEFAULT_CURRENCY, winnersCount: 3 });
    expect(draft.settings).toMatchObject({
      scoringMethod: DEFAULT_SCORING_METHOD,
      minGamesRequired: 5,
      maxParticipants: null,
    });
  });

  it('tokenomics, confetti, layout, time format and fallbacks', () => {
    expect(TOKENOMICS).toEqual({
      code: 'SLAM',
      totalSupply: 1_000_000_000,
      taxPercent: 1,
      taxSplit: { prizePools: 70, development: 20, marketing: 10 },
    });
    expect(CONFETTI).toEqual({ particles: 200, secondBurstMs: 2000 });
    expect(BREAKPOINTS).toEqual({ tablet: 768, desktop: 1024 });
    expect([formatGameTime(0), formatGameTime(59), formatGameTime(61), formatGameTime(600)]).toEqual([
      '0:00',
      '0:59',
      '1:01',
      '10:00',
    ]);
    expect(winRatePercent(1, 8)).toBe(13);
    expect(PLAYER_CARD_BACKS_SHOWN).toBe(8);
  });
});
