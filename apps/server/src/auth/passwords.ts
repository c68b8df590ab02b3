/**
 * Password hashing: argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). The hash runs on libuv's
 * thread pool, off the event loop; a small gate bounds how many run at once so that a burst of logins
 * cannot take every pool thread (or 19 MiB each) and stall file and DNS work behind it, and how many
 * wait: when the queue is full the request is answered 503 "Server busy" at once rather than queued
 * without end (ABUSE_LIMITS.hashesRunning / hashesQueued), so a flood cannot delay everyone's sign-in.
 */
import { hash, verify } from '@node-rs/argon2';
import { ABUSE_LIMITS } from '@memeslam/protocol';
import { serverBusy } from '../http/errors.ts';

export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let running = 0;
const waiting: (() => void)[] = [];
let started = 0;

/** Hashes and verifications started since the process began (a flood must start none). */
export const hashesStarted = (): number => started;

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= ABUSE_LIMITS.hashesRunning) {
    if (waiting.length >= ABUSE_LIMITS.hashesQueued) throw serverBusy();
    // The slot is handed over by the hash that ends: `running` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  started += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  // The library's default algorithm is argon2id; the test reads it back from the hash.
  return gated(() => hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return gated(() => verify(passwordHash, password).catch(() => false));
}

/**
 * A hash of a password nobody has, verified when the account does not exist so that a failed login
 * takes as long either way and does not tell which usernames are registered.
 */
let decoy: Promise<string> | null = null;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoy, password);
  return false;
}
