/**
 * Which account a password check is for, as the per-account limits count it (rate-limits.ts,
 * docs/limits.md): the account's id when the login names one — by username or by e-mail address
 * alike, so the two count as one — else the login as typed, normalised (change-password and account
 * deletion: the signed-in account's id). The per-(account, network) sign-in limit adds the client's
 * network to it; the account's failed sign-ins from every network are counted under it alone, and
 * past their limit only networks the account signed in from may still try.
 */
import type { FastifyRequest } from 'fastify';

const accounts = new WeakMap<FastifyRequest, string>();

export function setLoginAccount(request: FastifyRequest, account: { id: string } | null, login: string): void {
  accounts.set(request, account ? `user:${account.id}` : `login:${login.trim().toLowerCase()}`);
}

export function loginAccountOf(request: FastifyRequest): string {
  return accounts.get(request) ?? '';
}
