/**
 * /join/{roomCode}: an invite link. A signed-in visitor goes straight to the waiting room, which joins
 * the game, unless they wait in a lobby of their own: joining would leave it, so they are asked first
 * (stay, or leave and join; docs/privacy.md). Anyone else is asked in (play as a guest in one click,
 * create an account, or sign in) and then lands there too.
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { api } from '../api/http.ts';
import { playAsGuest } from '../auth/guest.ts';
import { useSession } from '../auth/session.ts';
import { BusyLine } from '../components/BusyLine.tsx';
import { Button } from '../components/Field.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { LeaveLobbyDialog } from '../lobby/LeaveLobbyDialog.tsx';
import { lobbyLeftByJoining } from '../lobby/invite.ts';

/** Signed in: checking for a lobby of one's own, going to the invited room, or asking first. */
type Decision = { kind: 'checking' } | { kind: 'go' } | { kind: 'ask'; ownRoomCode: string };

export function Invite() {
  const roomCode = (useParams().roomCode ?? '').toUpperCase();
  const { isAuthenticated, isLoading } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  /** When the guest's wait in the server's line began, while it asks again (null: not in line). */
  const [inLineSince, setInLineSince] = useState<number | null>(null);
  const [decision, setDecision] = useState<Decision>({ kind: 'checking' });
  const lobby = `/lobby/${encodeURIComponent(roomCode)}`;

  useEffect(() => {
    if (!isAuthenticated) return;
    let current = true;
    const decide = (ownRoomCode: string | null) => {
      if (current) setDecision(ownRoomCode ? { kind: 'ask', ownRoomCode } : { kind: 'go' });
    };
    // The server's word on the user's unfinished game (this tab's or another's); unsure: go on.
    api('myGames', { quiet: true })
      .then(({ data }) => decide(lobbyLeftByJoining(data.games, roomCode)))
      .catch(() => decide(null));
    return () => {
      current = false;
    };
  }, [isAuthenticated, roomCode]);

  if (isLoading) return <Spinner />;
  if (isAuthenticated) {
    if (decision.kind === 'go') return <Navigate to={lobby} replace />;
    if (decision.kind === 'checking') return <Spinner />;
    const own = decision.ownRoomCode;
    return (
      <main className="mx-auto max-w-md px-4 py-12 text-center">
        <h1 className="text-3xl font-bold">You&apos;re invited to a game</h1>
        <LeaveLobbyDialog
          ownRoomCode={own}
          roomCode={roomCode}
          onStay={() => navigate(`/lobby/${encodeURIComponent(own)}`, { replace: true })}
          onLeave={() => navigate(lobby, { replace: true })}
        />
      </main>
    );
  }

  async function guest() {
    setBusy(true);
    const signedIn = await playAsGuest(setInLineSince);
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
        {inLineSince !== null && <BusyLine since={inLineSince} />}
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
