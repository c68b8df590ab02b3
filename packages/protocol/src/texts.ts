/**
 * Accounts, HTTP and connection texts: the error and toast catalogue of the accounts screens, the
 * HTTP client and the real-time connection, exactly as shown (tests pin each one). Texts only the server needs are marked "ours".
 * Gameplay, lobby, leaderboard and tournament texts are in game-texts.ts.
 */
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SOCKET_RECONNECTION,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants.ts';

/** Form and body validation. */
export const VALIDATION_TEXTS = {
  emailOrUsernameRequired: 'Email or username is required',
  passwordRequired: 'Password is required',
  /** ours */
  usernameRequired: 'Username is required',
  usernameTooShort: `Username must be at least ${USERNAME_MIN_LENGTH} characters`,
  usernameTooLong: `Username cannot exceed ${USERNAME_MAX_LENGTH} characters`,
  usernameCharacters: 'Username can only contain letters, numbers, and underscores',
  /** ours */
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  /** with the minimum of PASSWORD_MIN_LENGTH (8) */
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  /** ours */
  passwordIsAccountName: 'Password cannot be your username or email',
  /** ours: in the server's list of common passwords */
  passwordTooCommon: 'This password is too common. Please choose another.',
  /** ours: the rule the register page shows under the password field */
  passwordRule: `At least ${PASSWORD_MIN_LENGTH} characters. Not your username or email, and not a common password.`,
  /** ours: a bot name with invisible or direction-changing characters */
  nameHiddenCharacters: 'Names cannot contain invisible or direction-changing characters',
  /** ours */
  passwordTooLong: `Password cannot exceed ${PASSWORD_MAX_LENGTH} characters`,
  confirmPasswordRequired: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
  /** ours */
  currentPasswordRequired: 'Current password is required',
  emailCannotBeChanged: 'Email cannot be changed',
  enterEmail: 'Please enter your email address',
  invalidVerificationLink: 'Invalid verification link. Please check your email for the correct link.',
  /** ours */
  invalidResetLink: 'Invalid password reset link. Please request a new one.',
  /** ours: a request body or payload that fails its schema as a whole */
  invalidRequest: 'Invalid request',
} as const;

/** ours: a strict body or payload with a field the protocol does not know. */
export function unknownFieldsText(keys: readonly string[]): string {
  return `Unknown field${keys.length === 1 ? '' : 's'}: ${keys.join(', ')}`;
}

/** Generic toasts by HTTP status. */
export const HTTP_TEXTS = {
  invalidRequest: 'Invalid request',
  sessionExpired: 'Session expired. Please login again.',
  accessDenied: 'Access denied',
  conflict: 'Conflict error',
  validation: 'Validation error',
  tooManyRequests: 'Too many requests. Please slow down.',
  timeout: 'Request timeout. Please check your connection.',
  network: 'Network error. Please check your connection.',
  offline: 'No internet connection',
  unexpected: 'An unexpected error occurred',
} as const;

export function resourceNotFoundText(endpoint: string): string {
  return `Resource not found: ${endpoint}`;
}

export function serverErrorText(status: number): string {
  return `Server error (${status}). Please try again later.`;
}

export function requestFailedText(status: number): string {
  return `Request failed with status ${status}`;
}

/**
 * The toast for a failed HTTP call, by status. Returns null where none is shown:
 * a 401 (the client clears the session and redirects instead) and a 404 from the active-games list.
 */
export function httpErrorText(status: number, serverMessage: string | undefined, endpoint: string): string | null {
  // The endpoint may be given with or without the /api base; either way the active-games list is silent.
  const path = endpoint.startsWith('/api/') ? endpoint.slice('/api'.length) : endpoint;
  switch (status) {
    case 400:
      return serverMessage || HTTP_TEXTS.invalidRequest;
    case 401:
      return null;
    case 403:
      return HTTP_TEXTS.accessDenied;
    case 404:
      return /^\/game\/active(?:[/?#]|$)/.test(path) ? null : resourceNotFoundText(endpoint);
    case 409:
      return serverMessage || HTTP_TEXTS.conflict;
    case 422:
      return serverMessage || HTTP_TEXTS.validation;
    case 429:
      return HTTP_TEXTS.tooManyRequests;
    case 500:
    case 502:
    case 503:
    case 504:
      return serverErrorText(status);
    default:
      return serverMessage || requestFailedText(status);
  }
}

/** Login, register, demo, profile, resend and verify. */
export const AUTH_TEXTS = {
  invalidCredentials: 'Invalid email or password',
  tooManyLoginAttempts: 'Too many login attempts. Please try again later.',
  /** The account's failed sign-ins from everywhere passed the limit (docs/limits.md); a known network may still try. */
  tooManyFailedLogins:
    'Too many failed sign-ins on this account. Please try again later, or sign in from a network you have used before.',
  /** change-password and account deletion: the account's password checks passed the limit (docs/limits.md). */
  tooManyPasswordAttempts: 'Too many password attempts on this account. Please try again later.',
  verifyBeforeLogin: 'Please verify your email address before logging in',
  verifyBeforeLoginToast: 'Please verify your email before logging in',
  verificationRequiredTitle: 'Email Verification Required',
  loginInvalidResponse: 'Login failed: Invalid response',
  registrationFailed: 'Registration failed',
  registrationInvalidResponse: 'Registration failed: Invalid response',
  demoLoginFailed: 'Demo login failed',
  profileUpdateFailed: 'Profile update failed',
  resendFailed: 'Failed to send verification email',
  resendFailedPage: 'Failed to send verification email. Please try again.',
  verifyFailedPage: 'Verification failed. Please try again or contact support.',
  verifyFailedToast: 'Email verification failed',
  emailVerified: 'Email verified successfully! You can now access all features.',
  useResendFromLogin: 'Please use the resend verification option from the login page',
  accountDeletionComingSoon: 'Account deletion coming soon!',
  noRecentGames: 'No recent games',
  /** The resend page's button while the request is in flight. */
  sending: 'Sending...',
} as const;

/** ours: what the server answers (the client's own texts are above). */
export const SERVER_TEXTS = {
  usernameTaken: 'Username is already taken',
  emailTaken: 'Email is already registered',
  /** POST /auth/upgrade by an account that is not a guest. */
  notAGuest: 'This is already a full account',
  /** POST /auth/upgrade: the guest is an account now. */
  guestUpgraded: 'Account created! Your games, stats and level are kept.',
  invalidOrExpiredToken: 'This link is invalid or has expired',
  currentPasswordIncorrect: 'Current password is incorrect',
  /** Socket connection refusals must contain "Authentication". */
  authenticationRequired: 'Authentication required',
  authenticationFailed: 'Authentication failed',
  notFound: 'Not found',
  unknownEvent: 'Unknown event',
  payloadTooLarge: 'Payload too large',
  rateLimited: HTTP_TEXTS.tooManyRequests,
  resetMailSent: 'If that address has an account, a password reset email is on its way.',
  passwordReset: 'Password has been reset. Please log in.',
  passwordChanged: 'Password changed successfully',
  accountDeleted: 'Account deleted',
  invalidWalletAddress: 'Invalid Solana address',
  invalidWalletSignature: 'Wallet signature could not be verified',
  walletNonceExpired: 'Wallet verification expired. Please try again.',
  invalidWalletNonce: 'Wallet verification request is invalid. Please start again.',
  walletAddressTaken: 'This Solana address is already linked to another account',
  /** The signed wallet-link message is not the one this server issued (a field changed or missing). */
  invalidWalletMessage: 'The wallet message does not match the one MemeSlam issued. Please start again.',
  /** The phishing case: a wallet-link message made for another site (docs/security.md). */
  walletMessageWrongDomain:
    'This wallet message was made for another website. Link your wallet only on MemeSlam itself.',
  /** Promotion to admin or superadmin (docs/security.md). */
  promotionNeedsVerifiedEmail: 'Only an account with a verified e-mail address can be given an admin role',
  promotionOfGuest: 'A guest account cannot be given an admin role',
  internalError: 'Internal server error',
  /** Ours: a ceiling of the server was reached (rooms, sockets, password hashing, event loop). */
  serverBusy: 'Server busy, try again shortly',
  /**
   * Ours: admission control refused to start a game (docs/capacity.md), or the hashing queue is long;
   * the client asks again by itself after Retry-After and shows the wait so far beside this.
   */
  inLine: 'Servers are busy — you are in line',
  tooManyConnections: 'Too many connections from your network. Close a tab or try again later.',
  replacedByNewerConnection: 'Disconnected: this account opened a newer connection elsewhere',
  tooManyGuests: 'Too many guest accounts from your network. Please try again later.',
  tooManyGamesCreated: 'Too many games created. Please wait a minute.',
  /**
   * Ours: cluster mode, Redis away — the request needs another node (or a new game's
   * ownership) and cannot be served now; the games already running go on.
   */
  clusterUnavailable: 'The game service is reconnecting. Please try again in a few seconds.',
} as const;

/**
 * Ours: beside SERVER_TEXTS.inLine while a request answered 503 with Retry-After is asked again
 * (apps/web/src/components/BusyLine.tsx): how long the person has been in line, in whole seconds.
 */
export function busyWaitText(seconds: number): string {
  return `Waiting ${seconds} s`;
}

/** Success toasts. */
export const SUCCESS_TEXTS = {
  loggedIn: 'Logged in successfully!',
  accountCreated: 'Account created successfully!',
  registrationCheckEmail: 'Registration successful! Please check your email to verify your account.',
  loggedOut: 'Logged out successfully',
  profileUpdated: 'Profile updated successfully',
  demoLogin: 'Demo login successful!',
  verificationSentInbox: 'Verification email sent! Please check your inbox.',
  verificationSent: 'Verification email sent!',
} as const;

export function welcomeBackText(username: string): string {
  return `Welcome back, ${username}!`;
}

/** ours: the dashboard's greeting on an account's first visit (just registered, or a new demo guest). */
export function welcomeText(username: string): string {
  return `Welcome, ${username}!`;
}

/** Dashboard toasts and banners. */
export const DASHBOARD_TEXTS = {
  failedToLoadGames: 'Failed to load games',
  waitForUserData: 'Please wait for user data to load',
  cannotCreateGameConnection: 'Cannot create game - server connection error',
  cannotCreateBotGameConnection: 'Cannot create bot game - server connection error',
  cannotJoinGameConnection: 'Cannot join game - server connection error',
  wageredComingSoon: 'Wagered games coming soon!',
  invalidRoomCode: 'Invalid room code',
  failedToNavigate: 'Failed to navigate to game',
  invalidGameData: 'Invalid game data',
  gameNotAvailable: 'Game is not available',
  noActiveGame: 'No active game found',
  invalidBotGameSettings: 'Invalid bot game settings',
  loginToCreateBotGames: 'Please log in to create bot games',
  botGameStarting: 'Bot game starting!',
  botGameLive: 'Bot game is live!',
} as const;

/** Landing and tokenomics wording. */
export const MARKETING_TEXTS = {
  /** How wagered games are presented. */
  comingSoon: 'coming soon',
  /** The landing page's token launch section. */
  contractComingSoon: 'contract coming soon',
  /** The tokenomics page's contract address. */
  contractAddress: 'Coming Soon',
} as const;

export function failedToCreateBotGameText(difficulty: string): string {
  return `Failed to create ${difficulty} bot game`;
}

/** Real-time connection messages. */
export const CONNECTION_TEXTS = {
  authRequired: 'Authentication required. Please login.',
  authFailed: 'Authentication failed. Please login again.',
  serverNotResponding: 'Server is not responding',
  timeout: 'Connection timeout',
  timeoutCheckInternet: 'Connection timeout. Check your internet.',
  serverDisconnected: 'Server disconnected',
  unableToConnect: 'Unable to connect to server. Please refresh the page.',
  failedToConnect: 'Failed to connect to server. Please try again.',
  refreshAndTryAgain: 'Please refresh and try again.',
  notConnected: 'Not connected to server',
  connected: 'Connected to server',
} as const;

export function connectionLostText(reason: string): string {
  return `Connection lost: ${reason}`;
}

/** "Connection failed (n/5): {message}", the 5 being the reconnection attempts. */
export function connectionFailedText(attempt: number, message: string): string {
  return `Connection failed (${attempt}/${SOCKET_RECONNECTION.attempts}): ${message}`;
}
