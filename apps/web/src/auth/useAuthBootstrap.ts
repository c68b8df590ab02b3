/**
 * The session check on start: no token means signed out; with a token the profile is
 * fetched — success replaces the user, failure falls back to the cached user, or signs out if there
 * is none. Guards show a spinner until it settles.
 */
import { useEffect } from 'react';
import { session } from './session.ts';

export function useAuthBootstrap(): void {
  useEffect(() => {
    const { token, user } = session.get();
    if (!token) {
      session.settled();
      return;
    }
    void import('../api/http.ts').then(({ ApiError, api }) =>
      api('me', { quiet: true }).then(
        ({ data }) => session.setUser(data.user),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 401) session.clear();
          else if (user) session.settled();
          else session.clear();
        },
      ),
    );
  }, []);
}
