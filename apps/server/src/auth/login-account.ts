/**
 * Which account a sign-in attempt is for, as the per-account login limit counts it (rate-limits.ts):
 * the account's id when the login names one — by username or by e-mail address alike, so the two
 * count as one — else the login as typed, normalised. The limit's key adds the client's address, so
 * an account locked by someone else's guesses still lets its owner in from another address.
 */
import type { FastifyRequest } from 'fastify';

const accounts = new WeakMap<FastifyRequest, string>();

export function setLoginAccount(request: FastifyRequest, account: { id: string } | null, login: string): void {
  accounts.set(request, account ? `user:${account.id}` : `login:${login.trim().toLowerCase()}`);
}

export function loginAccountOf(request: FastifyRequest): string {
  return accounts.get(request) ?? '';
}
