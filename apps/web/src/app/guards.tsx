/** Route guards: signed-in pages send visitors to /login (which remembers where they came from). */
import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useSession } from '../auth/session.ts';
import { Spinner } from '../components/Spinner.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, isLoading, signedOut } = useSession();
  const location = useLocation();
  if (isLoading) return <Spinner />;
  // Signing out goes home (/), not to /login.
  if (!isAuthenticated && signedOut) return <Navigate to="/" replace />;
  if (!isAuthenticated) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?from=${encodeURIComponent(from)}`} replace />;
  }
  return children;
}

/**
 * Where a sign-in goes on to: the page /login was sent from (`?from=/lobby/CODE`), if it is a path of
 * this site, else the dashboard.
 */
export function returnPath(params: URLSearchParams): string {
  const from = params.get('from');
  return from?.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') ? from : '/dashboard';
}

/**
 * /login and /register: a signed-in user goes on to where they came from, or to the dashboard —
 * except a guest on /register (`forGuests`), who may turn into an account there.
 */
export function GuestOnly({ children, forGuests = false }: { children: ReactNode; forGuests?: boolean }) {
  const { isAuthenticated, isLoading, user } = useSession();
  const [params] = useSearchParams();
  if (isLoading) return <Spinner />;
  if (isAuthenticated && !(forGuests && user?.isGuest)) return <Navigate to={returnPath(params)} replace />;
  return children;
}
