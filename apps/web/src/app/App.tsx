/** The route table and the shell around it: nav bar, guards, toasts (top-right; at the bottom on phones). */
import { type CSSProperties, type ComponentType, type ReactNode, Suspense, lazy, useSyncExternalStore } from 'react';
import { Navigate, Route, Routes, useMatch } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATIONS_MS } from '@memeslam/protocol/constants';
import { useAuthBootstrap } from '../auth/useAuthBootstrap.ts';
import { Landing } from '../pages/Landing.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { GuestOnly, RequireAuth } from './guards.tsx';
import { NavBar } from './NavBar.tsx';
import { useLine } from '../api/line.ts';

/** Loaded only once a game waits in line: its texts stay out of the landing page's first load. */
const BusyLine = lazy(() => import('../components/BusyLine.tsx').then((module) => ({ default: module.BusyLine })));

/** A new game waiting for a server with headroom (api/line.ts): one line under the nav bar, on any page. */
function InLine() {
  const since = useLine();
  if (since === null) return null;
  return (
    <div className="fixed inset-x-0 top-16 z-40 mx-auto max-w-md px-3">
      {/* Opaque beneath the line's own tint, so the page does not show through. */}
      <div className="rounded-lg bg-panel shadow-lg">
        <Suspense fallback={null}>
          <BusyLine since={since} />
        </Suspense>
      </div>
    </div>
  );
}

/** Every page but the landing page loads on first use, so the front page stays light. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
const Admin = page(() => import('../pages/Admin.tsx'), 'Admin');
const Profile = page(() => import('../pages/Profile.tsx'), 'Profile');
const Leaderboard = page(() => import('../pages/Leaderboard.tsx'), 'Leaderboard');
const HowToPlay = page(() => import('../pages/HowToPlay.tsx'), 'HowToPlay');
const Tokenomics = page(() => import('../pages/Tokenomics.tsx'), 'Tokenomics');
const Dashboard = page(() => import('../pages/Dashboard.tsx'), 'Dashboard');
const Login = page(() => import('../pages/Login.tsx'), 'Login');
const Register = page(() => import('../pages/Register.tsx'), 'Register');
const ForgotPassword = page(() => import('../pages/PasswordReset.tsx'), 'ForgotPassword');
const ResetPassword = page(() => import('../pages/PasswordReset.tsx'), 'ResetPassword');
const VerifyEmail = page(() => import('../pages/Verification.tsx'), 'VerifyEmail');
const ResendVerification = page(() => import('../pages/Verification.tsx'), 'ResendVerification');
const Lobby = page(() => import('../pages/Lobby.tsx'), 'Lobby');
const WaitingRoom = page(() => import('../pages/WaitingRoom.tsx'), 'WaitingRoom');
const GamePage = page(() => import('../pages/Game.tsx'), 'GamePage');
const Replay = page(() => import('../pages/Replay.tsx'), 'Replay');
const Invite = page(() => import('../pages/Invite.tsx'), 'Invite');
const Terms = page(() => import('../pages/Legal.tsx'), 'Terms');
const Privacy = page(() => import('../pages/Legal.tsx'), 'Privacy');

function guarded(element: ReactNode) {
  return <RequireAuth>{element}</RequireAuth>;
}

/** As wide as the game screen's right column (GameScreen), so toasts in a game stay over it. */
const GAME_TOAST_WIDTH = '16rem';
const PHONE = '(max-width: 767px)';
function subscribePhone(listener: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** A phone's toasts in a game: one at a time, compact, so the strip the game screen keeps for them is small. */
const PHONE_GAME_TOAST: CSSProperties = { padding: '8px 12px', fontSize: '12px', lineHeight: '16px' };

/**
 * Where toasts go. Top-right under the nav bar, except: on a phone at the bottom,
 * where they cover neither the nav bar nor the game's header (in a game one at a time, compact,
 * in the strip the game screen keeps free for it); and during a game on a wider screen only as wide
 * as the game's right column (GameScreen), which holds no control at its top.
 */
function useToastPlacement() {
  const phone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE).matches);
  const byId = useMatch('/game/:id');
  const byRoom = useMatch('/game/room/:roomCode');
  const inGame = byId !== null || byRoom !== null;
  if (phone && inGame) {
    return { position: 'bottom-center', visibleToasts: 1, toastOptions: { style: PHONE_GAME_TOAST } } as const;
  }
  if (phone) return { position: 'bottom-center', visibleToasts: 3 } as const;
  return {
    position: 'top-right',
    visibleToasts: 3,
    ...(inGame ? { style: { '--width': GAME_TOAST_WIDTH } as CSSProperties } : {}),
  } as const;
}

export function App() {
  useAuthBootstrap();
  const toasts = useToastPlacement();
  return (
    <>
      <NavBar />
      <InLine />
      <div className="pt-14">
        <Suspense fallback={<Spinner />}>
          <Routes>
            <Route path="/" element={<Landing />} />
            <Route path="/home" element={<Landing />} />
            <Route
              path="/login"
              element={
                <GuestOnly>
                  <Login />
                </GuestOnly>
              }
            />
            <Route
              path="/register"
              element={
                <GuestOnly forGuests>
                  <Register />
                </GuestOnly>
              }
            />
            <Route path="/leaderboard" element={<Leaderboard />} />
            <Route path="/how-to-play" element={<HowToPlay />} />
            <Route path="/tokenomics" element={<Tokenomics />} />
            <Route path="/forgot-password" element={<ForgotPassword />} />
            <Route path="/reset-password" element={<ResetPassword />} />
            <Route path="/verify-email" element={<VerifyEmail />} />
            <Route path="/resend-verification" element={<ResendVerification />} />
            <Route
              path="/dashboard"
              element={
                <RequireAuth>
                  <Dashboard />
                </RequireAuth>
              }
            />
            <Route
              path="/profile"
              element={
                <RequireAuth>
                  <Profile />
                </RequireAuth>
              }
            />
            <Route path="/join/:roomCode" element={<Invite />} />
            <Route path="/terms" element={<Terms />} />
            <Route path="/privacy" element={<Privacy />} />
            <Route path="/lobby" element={guarded(<Lobby />)} />
            <Route path="/lobby/:roomCode" element={guarded(<WaitingRoom />)} />
            <Route path="/game/room/:roomCode" element={guarded(<GamePage />)} />
            <Route path="/game/:id" element={guarded(<GamePage />)} />
            <Route path="/game/:id/replay" element={guarded(<Replay />)} />
            <Route
              path="/admin"
              element={
                <RequireAuth>
                  <Admin />
                </RequireAuth>
              }
            />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Suspense>
      </div>
      {/* Below the fixed nav bar, so a toast never covers the account menu; 4 s by default. */}
      <Toaster
        {...toasts}
        offset={{ top: '4.5rem', right: '0.75rem' }}
        mobileOffset={{ bottom: '0.5rem', left: '0.5rem', right: '0.5rem' }}
        duration={TOAST_DURATIONS_MS.default}
        richColors
        theme="dark"
      />
    </>
  );
}
