/** Route guards: signed-in pages send visitors to /login (which remembers where they came from). */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../auth/session.ts';
import { Spinner } from '../components/Spinner.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, isLoading, signedOut } = useSession();
  const location = useLocation();
  if (isLoading) return <Spinner />;
  // Signing out goes home (spec: "Sign out (logs out, goes to /)"), not to /login.
  if (!isAuthenticated && signedOut) return <Navigate to="/" replace />;
  if (!isAuthenticated) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?from=${encodeURIComponent(from)}`} replace />;
  }
  return children;
}

/** /login and /register: a signed-in user goes to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { isAuthenticated, isLoading } = useSession();
  if (isLoading) return <Spinner />;
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return children;
}
