/**
 * DESIGN §4's limits: sign-in 10 a minute per IP and per account, registration 5 a minute per IP,
 * verification and reset mails 3 an hour per address; and ours (issue 13, numbers in the protocol's
 * ABUSE_LIMITS): guest accounts per IP an hour, password resets per IP an hour, and forgot-password
 * and resend-verification mails per IP an hour (so one address cannot cycle through many). Counting is @fastify/rate-limit's (its store is
 * in process, or Redis in cluster mode so that every node counts together); keys are prefixed per limit
 * so that they never share a count.
 */
import rateLimit from '@fastify/rate-limit';
import { ABUSE_LIMITS, AUTH_TEXTS, HTTP_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Counts } from '../cluster/counts.ts';
import { loginAccountOf } from '../auth/login-account.ts';
import { tooManyRequests } from './errors.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The e-mail or username field of a body, normalised like the lookups (the body is not validated yet). */
function addressOf(request: FastifyRequest): string {
  const value = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

const LIMITS = {
  loginPerIp: {
    max: 10,
    timeWindow: MINUTE,
    key: (r: FastifyRequest) => `login-ip:${r.ip}`,
    message: AUTH_TEXTS.tooManyLoginAttempts,
  },
  loginPerAccount: {
    max: 10,
    timeWindow: MINUTE,
    // Per account and client address: username and e-mail of one account count together, and guesses
    // from elsewhere do not lock its owner out (issue 13).
    key: (r: FastifyRequest) => `login-account:${loginAccountOf(r)}|${r.ip}`,
    message: AUTH_TEXTS.tooManyLoginAttempts,
  },
  registerPerIp: {
    max: 5,
    timeWindow: MINUTE,
    key: (r: FastifyRequest) => `register-ip:${r.ip}`,
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
    key: (r: FastifyRequest) => `guest-ip:${r.ip}`,
    message: SERVER_TEXTS.tooManyGuests,
  },
  resetPasswordPerIp: {
    max: ABUSE_LIMITS.resetPasswordPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `reset-ip:${r.ip}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  verificationMailPerIp: {
    max: ABUSE_LIMITS.mailsPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `verify-mail-ip:${r.ip}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
  resetMailPerIp: {
    max: ABUSE_LIMITS.mailsPerIpPerHour,
    timeWindow: HOUR,
    key: (r: FastifyRequest) => `reset-mail-ip:${r.ip}`,
    message: HTTP_TEXTS.tooManyRequests,
  },
} as const;

export type LimitName = keyof typeof LIMITS;
export type RateLimiter = (request: FastifyRequest, ...names: LimitName[]) => Promise<void>;

/**
 * Counts the request against each named limit; throws a 429 with the limit's text when one is exceeded.
 * With a Redis store, a request that finds Redis away is let through (`skipOnError`, at once: the
 * cluster's command connection has no offline queue): refusing every sign-in in the cluster while
 * Redis restarts would be worse than a few seconds without these limits.
 */
export async function installRateLimits(
  app: FastifyInstance,
  enabled: boolean,
  store: Counts['httpLimits'] = null,
): Promise<RateLimiter> {
  if (!enabled) return async () => {};
  await app.register(rateLimit, { global: false, ...(store ? { ...store, skipOnError: true } : {}) });
  const limiters = Object.fromEntries(
    Object.entries(LIMITS).map(([name, limit]) => [
      name,
      app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindow, keyGenerator: limit.key }),
    ]),
  ) as Record<LimitName, ReturnType<FastifyInstance['createRateLimit']>>;
  return async (request, ...names) => {
    for (const name of names) {
      const result = await limiters[name](request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests(LIMITS[name].message);
    }
  };
}
