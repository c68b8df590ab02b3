/**
 * The fixed navigation bar: links for everyone, the signed-in user's menu with Sign out,
 * Sign in and Get Started for visitors, and a collapsible menu on small screens that also shows the
 * e-mail address. Links appear here as their screens are built.
 */
import { SUCCESS_TEXTS } from '@memeslam/protocol/texts';
import { Suspense, lazy, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { session, useSession } from '../auth/session.ts';
import { AccountBadge } from './AccountBadge.tsx';

/** The dropdown (Radix and its positioning) loads only for signed-in users, not on a visitor's first page. */
const AccountMenu = lazy(async () => ({ default: (await import('./AccountMenu.tsx')).AccountMenu }));

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm ${isActive ? 'bg-panel text-white' : 'text-muted hover:text-white'}`;

export function NavBar() {
  const { user, isAuthenticated } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  async function signOut() {
    // The HTTP client (and the protocol's schemas) load with the first page that needs them.
    const { api } = await import('../api/http.ts');
    await api('logout', { quiet: true }).catch(() => undefined);
    session.clear({ signedOut: true });
    toast.success(SUCCESS_TEXTS.loggedOut);
    navigate('/');
  }

  const links = (
    <>
      <NavLink to="/" end className={linkClass} onClick={() => setOpen(false)}>
        Home
      </NavLink>
      <NavLink to="/how-to-play" className={linkClass} onClick={() => setOpen(false)}>
        Docs
      </NavLink>
      <NavLink to="/leaderboard" className={linkClass} onClick={() => setOpen(false)}>
        Leaderboard
      </NavLink>
      <NavLink to="/tokenomics" className={linkClass} onClick={() => setOpen(false)}>
        Tokenomics
      </NavLink>
      {isAuthenticated && (
        <NavLink to="/dashboard" className={linkClass} onClick={() => setOpen(false)}>
          Dashboard
        </NavLink>
      )}
      {user?.canAccessAdmin && (
        <NavLink
          to="/admin"
          className={({ isActive }) =>
            `rounded-md px-3 py-2 text-sm font-semibold ${isActive ? 'bg-gold text-ink' : 'text-gold'}`
          }
          onClick={() => setOpen(false)}
        >
          Admin
        </NavLink>
      )}
    </>
  );

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-edge bg-ink/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4">
        <Link to="/" className="mr-4 text-lg font-bold text-gold">
          MemeSlam
        </Link>
        <div className="hidden flex-1 items-center gap-1 md:flex">{links}</div>
        <div className="ml-auto hidden items-center gap-2 md:flex">
          {isAuthenticated && user ? (
            <Suspense fallback={<AccountBadge username={user.username} />}>
              <AccountMenu
                username={user.username}
                onProfile={() => navigate('/profile')}
                onSignOut={() => void signOut()}
              />
            </Suspense>
          ) : (
            <>
              <Link to="/login" className="px-3 py-2 text-sm text-muted hover:text-white">
                Sign in
              </Link>
              <Link to="/register" className="rounded-md bg-brand px-3 py-2 text-sm font-semibold text-white">
                Get Started
              </Link>
            </>
          )}
        </div>
        <button
          type="button"
          className="ml-auto rounded-md border border-edge px-3 py-1 text-sm md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((o) => !o)}
        >
          Menu
        </button>
      </nav>
      {open && (
        <div id="mobile-menu" className="flex flex-col gap-1 border-t border-edge px-4 py-3 md:hidden">
          {links}
          {isAuthenticated && user ? (
            <>
              {/* A guest's address is one the server made up, not theirs: never shown. */}
              <p className="px-3 py-2 text-sm text-muted">{user.isGuest ? 'Guest account' : user.email}</p>
              {/* As in the desktop account menu: Profile and Settings both open /profile. */}
              {['Profile', 'Settings'].map((label) => (
                <Link key={label} to="/profile" className="px-3 py-2 text-sm" onClick={() => setOpen(false)}>
                  {label}
                </Link>
              ))}
              <button type="button" className="px-3 py-2 text-left text-sm" onClick={() => void signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <>
              <NavLink to="/login" className={linkClass} onClick={() => setOpen(false)}>
                Sign in
              </NavLink>
              <NavLink to="/register" className={linkClass} onClick={() => setOpen(false)}>
                Get Started
              </NavLink>
            </>
          )}
        </div>
      )}
    </header>
  );
}
