/**
 * Limits: sign-in 10 a minute per network and per account, registration 5 a minute per
 * network, verification and reset mails 3 an hour per address; and, with numbers in the
 * protocol's ABUSE_LIMITS: guest accounts per network an hour, password resets per network an hour,
 * and forgot-password and resend-verification mails per network an hour (so one network cannot cycle
 * through many). A client's "network" is networkOf(its address): IPv4 whole, IPv6 its /64, so that
 * rotating through one's own /64 does not dodge a limit. Per account: password
 * checks of a signed-in account (change-password, account deletion), and failed sign-ins from every
 * network together, past which only networks that signed into the account before may try. The rules
 * are written in docs/limits.md. Every 429 carries Retry-After.
 *
 * Counting is @fastify/rate-limit's (its store is in process, or Redis in cluster mode so that every
 * node counts together); keys are prefixed per limit so that they never share a count. Failed sign-ins
 * per account are counted by attempt-counts.ts (in the same store's place), since a sign-in must count
 * its attempt before the password check and give it back when the password was right.
 */
import rateLimit from '@fastify/rate-limit';
import { ABUSE_LIMITS, AUTH_TEXTS, HTTP_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Counts } from '../cluster/counts.ts';
import { loginAccountOf, setLoginAccount } from '../auth/login-account.ts';
import { isKnownNetwork, rememberNetwork } from '../auth/login-networks.ts';
import { type AttemptCounts, memoryAttemptCounts, redisAttemptCounts } from './attempt-counts.ts';
import { AppError, tooManyRequests } from './errors.ts';
import { networkOf } from '../networks.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The client's network (networkOf of its address, as trustProxy makes it out). */
const net = (r: FastifyRequest) => networkOf(r.ip);

/** The e-mail or username field of a body, normalised like the lookups (the body is not validated yet). */
function addressOf(request: FastifyRequest): string {
  const value = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

const LIMITS = {
  loginPerIp: {
    max: 10,
    timeWindow: MINUTE,
    key: (r: FastifyRequest) => `login-ip:${net(r)}`,
    message: AUTH_TEXTS.tooManyLoginAttempts,
  },
  loginPerAccount: {
    max: 10,
    timeWindow: MINUTE,
    // Per account and client network: username and e-mail of one account count together, and guesses
    // from elsewhere do not lock its owner out.
    key: (r: FastifyRequest) => `login-account:${loginAccountOf(r)}|${net(r)}`,
    message: AUTH_TEXTS.tooManyLoginAttempts,
  },
  registerPerIp: {
    max: 5,
    timeWindow: MINUTE,
    key: (r: FastifyRequest) => `register-ip:${net(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  verificationMailPerAddress: {
    max: 3,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `verify-mail:${addressOf(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  resetMailPerAddress: {
    max: 3,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `reset-mail:${addressOf(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  guestsPerIp: {
    max: ABUSE_LIMITS.guestsPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `guest-ip:${net(r)}`,
    message: SERVER_TEXTS.tooManyGuests,
  },
  resetPasswordPerIp: {
    max: ABUSE_LIMITS.resetPasswordPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `reset-ip:${net(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  verificationMailPerIp: {
    max: ABUSE_LIMITS.mailsPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `verify-mail-ip:${net(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  resetMailPerIp: {
    max: ABUSE_LIMITS.mailsPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `reset-mail-ip:${net(r)}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  /** Password checks of a signed-in account, right or wrong (the key is its id, set by `passwordCheck`). */
  passwordChecksPerAccount: {
    max: ABUSE_LIMITS.passwordChecksPerAccount,
    timeWindow: ABUSE_LIMITS.passwordCheckWindowMs,
    key: (r: FastifyRequest) => `password-account:${loginAccountOf(r)}`,
    message: AUTH_TEXTS.tooManyPasswordAttempts,
  },
} as const;

/**
 * Failed sign-ins of one account from every network (attempt-counts.ts, not @fastify/rate-limit): each
 * sign-in is counted before its password check and gives its place back unless the password was wrong,
 * so the count is the failures plus the sign-ins being checked right now.
 */
const LOGIN_FAILURES = {
  max: ABUSE_LIMITS.loginFailuresPerAccount,
  windowMs: ABUSE_LIMITS.loginFailureWindowMs,
  key: (r: FastifyRequest) => `login-failures:${loginAccountOf(r)}`,
  message: AUTH_TEXTS.tooManyFailedLogins,
} as const;

export type LimitName = Exclude<keyof typeof LIMITS, 'passwordChecksPerAccount'>;

export interface RateLimiter {
  /** Counts the request against each named limit; throws a 429 with the limit's text when one is exceeded. */
  (request: FastifyRequest, ...names: LimitName[]): Promise<void>;
  /**
   * Before change-password or account deletion checks `userId`'s password: counts the check (right or
   * wrong: counted first, so checks sent at once cannot all pass); 429 past the account's limit.
   */
  passwordCheck(request: FastifyRequest, userId: string): Promise<void>;
  /**
   * A sign-in: `check` verifies the password of `account` (null: the login names none). The attempt is
   * counted first (so sign-ins sent at once cannot all pass); past the account's failed sign-ins from
   * every network, only a network that signed into it before may try. A wrong password keeps its count
   * (one failure), anything else gives it back; a sign-in remembers its network (docs/limits.md).
   */
  login<T>(request: FastifyRequest, account: { id: string } | null, login: string, check: () => Promise<T>): Promise<T>;
}

/** A sign-in refused for its password: the only refusal counted as a failed sign-in (not "verify first"). */
const isWrongPassword = (error: unknown) =>
  error instanceof AppError && error.message === AUTH_TEXTS.invalidCredentials;

/**
 * The limits and their Retry-After. With a Redis store, a request that finds Redis away is let through
 * (`skipOnError`, at once: the cluster's command connection has no offline queue): refusing every
 * sign-in in the cluster while Redis restarts would be worse than a few seconds without these limits.
 */
export async function installRateLimits(
  app: FastifyInstance,
  enabled: boolean,
  store: Counts['httpLimits'] = null,
): Promise<RateLimiter> {
  const remember = (userId: string, request: FastifyRequest) =>
    rememberNetwork(app.db, userId, net(request)).catch((error: unknown) => {
      // A sign-in that worked is not refused because its network could not be written down.
      request.log.warn({ err: error }, 'a sign-in network could not be remembered');
    });
  if (!enabled) {
    return Object.assign(async () => {}, {
      passwordCheck: async () => {},
      login: async <T>(
        request: FastifyRequest,
        account: { id: string } | null,
        _login: string,
        check: () => Promise<T>,
      ) => {
        const result = await check();
        // Remembered with the limits off too, so that turning them on does not start from nobody known.
        if (account) await remember(account.id, request);
        return result;
      },
    });
  }
  await app.register(rateLimit, { global: false, ...(store ? { ...store, skipOnError: true } : {}) });
  const limiters = Object.fromEntries(
    Object.entries(LIMITS).map(([name, limit]) => [
      name,
      app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindow, keyGenerator: limit.key }),
    ]),
  ) as Record<keyof typeof LIMITS, ReturnType<FastifyInstance['createRateLimit']>>;
  const loginFailures: AttemptCounts = store
    ? redisAttemptCounts(store.redis, store.nameSpace, LOGIN_FAILURES.windowMs)
    : memoryAttemptCounts(LOGIN_FAILURES.windowMs);
  // Every 429 of these limits says when to come back.
  const retryAfter = new WeakMap<FastifyRequest, number>();
  app.addHook('onSend', async (request, reply) => {
    const seconds = retryAfter.get(request);
    if (seconds !== undefined && reply.statusCode === 429) reply.header('retry-after', String(seconds));
  });
  const refuse = (request: FastifyRequest, message: string, ttlInSeconds: number) => {
    retryAfter.set(request, Math.max(1, ttlInSeconds));
    return tooManyRequests(message);
  };
  const count = async (request: FastifyRequest, name: keyof typeof LIMITS) => {
    const result = await limiters[name](request);
    if (!result.isAllowed && result.isExceeded) throw refuse(request, LIMITS[name].message, result.ttlInSeconds);
  };
  const limit = async (request: FastifyRequest, ...names: LimitName[]) => {
    for (const name of names) await count(request, name);
  };
  return Object.assign(limit, {
    passwordCheck: async (request: FastifyRequest, userId: string) => {
      setLoginAccount(request, { id: userId }, '');
      await count(request, 'passwordChecksPerAccount');
    },
    login: async <T>(
      request: FastifyRequest,
      account: { id: string } | null,
      login: string,
      check: () => Promise<T>,
    ) => {
      setLoginAccount(request, account, login);
      // Counted before the check (atomically, on every node), so guesses sent at once cannot all pass.
      const attempt = await loginFailures.take(LOGIN_FAILURES.key(request));
      let failed = false;
      try {
        // Looked up whether or not the login names an account, so the two take the same work.
        if (attempt && attempt.count > LOGIN_FAILURES.max) {
          if (!(await isKnownNetwork(app.db, account?.id ?? null, net(request)))) {
            throw refuse(request, LOGIN_FAILURES.message, Math.ceil(attempt.ttlMs / 1000));
          }
        }
        const result = await check();
        if (account) await remember(account.id, request);
        return result;
      } catch (error) {
        failed = isWrongPassword(error);
        throw error;
      } finally {
        // Only a wrong password is a failed sign-in: a right one, a refusal or an error gives its place back.
        if (attempt && !failed) await loginFailures.giveBack(attempt);
      }
    },
  });
}
