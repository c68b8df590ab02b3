/**
 * The auth session: token, user, isAuthenticated, isLoading — kept in
 * browser storage under a token entry, a user entry and an auth-state entry, and readable by React
 * through useSyncExternalStore.
 */
import type { User } from '@memeslam/protocol';
import { useSyncExternalStore } from 'react';

export const STORAGE_KEYS = { token: 'token', user: 'user', authState: 'auth-state' } as const;

export interface Session {
  readonly token: string | null;
  readonly user: User | null;
  readonly isAuthenticated: boolean;
  /** True until the start-up session check has settled. */
  readonly isLoading: boolean;
  /** Set when the user signed out on purpose: guarded pages then go home, not to /login. */
  readonly signedOut?: boolean;
  /** Signed in by creating the account (registration or demo): greeted with welcome, not welcome back. */
  readonly newAccount?: boolean;
}

function readStored(): Session {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  let user: User | null;
  try {
    user = JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null') as User | null;
  } catch {
    user = null;
  }
  return { token, user, isAuthenticated: token !== null && user !== null, isLoading: token !== null };
}

let current: Session = readStored();
const listeners = new Set<() => void>();

function set(next: Session): void {
  current = next;
  if (next.token) localStorage.setItem(STORAGE_KEYS.token, next.token);
  else localStorage.removeItem(STORAGE_KEYS.token);
  if (next.user) localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(next.user));
  else localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.setItem(STORAGE_KEYS.authState, JSON.stringify({ isAuthenticated: next.isAuthenticated }));
  for (const listener of listeners) listener();
}

export const session = {
  get: (): Session => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Login success stores token and user. */
  signIn(token: string, user: User, options: { newAccount?: boolean } = {}): void {
    set({ token, user, isAuthenticated: true, isLoading: false, newAccount: options.newAccount ?? false });
  },
  setUser(user: User): void {
    if (current.token) set({ ...current, user, isAuthenticated: true, isLoading: false });
  },
  /** Logout, or a 401 anywhere: everything goes. */
  clear(options: { signedOut?: boolean } = {}): void {
    set({ token: null, user: null, isAuthenticated: false, isLoading: false, signedOut: options.signedOut ?? false });
    localStorage.removeItem(STORAGE_KEYS.authState);
  },
  settled(): void {
    if (current.isLoading) set({ ...current, isLoading: false });
  },
};

export function useSession(): Session {
  return useSyncExternalStore(session.subscribe, session.get);
}
