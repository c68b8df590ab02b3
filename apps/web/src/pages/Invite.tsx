/**
 * /join/{roomCode}: an invite link. A signed-in visitor goes straight to the waiting room, which joins
 * the game; anyone else is asked in (play as a guest in one click, create an account, or sign in) and
 * then lands there too.
 */
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { playAsGuest } from '../auth/guest.ts';
import { useSession } from '../auth/session.ts';
import { Button } from '../components/Field.tsx';
import { Spinner } from '../components/Spinner.tsx';

export function Invite() {
  const roomCode = (useParams().roomCode ?? '').toUpperCase();
  const { isAuthenticated, isLoading } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const lobby = `/lobby/${encodeURIComponent(roomCode)}`;
  if (isLoading) return <Spinner />;
  if (isAuthenticated) return <Navigate to={lobby} replace />;

  async function guest() {
    setBusy(true);
    const signedIn = await playAsGuest();
    setBusy(false);
    if (signedIn) navigate(lobby, { replace: true });
  }

  const from = `?from=${encodeURIComponent(lobby)}`;
  return (
    <main className="mx-auto max-w-md px-4 py-12 text-center">
      <h1 className="text-3xl font-bold">You&apos;re invited to a game</h1>
      <p className="mt-3 text-muted">
        Room code{' '}
        <span className="font-mono font-bold tracking-[0.25em] text-gold" data-testid="invite-code">
          {roomCode}
        </span>
        . Play right away as a guest, or with your account.
      </p>
      <div className="mt-8 flex flex-col gap-3">
        <Button type="button" busy={busy} onClick={() => void guest()}>
          {busy ? 'Joining…' : 'Play as guest'}
        </Button>
        <Link to={`/register${from}`} className="rounded-lg border border-edge px-4 py-2 font-semibold">
          Create an account
        </Link>
        <Link to={`/login${from}`} className="rounded-lg border border-edge px-4 py-2 font-semibold">
          Sign in
        </Link>
      </div>
    </main>
  );
}
