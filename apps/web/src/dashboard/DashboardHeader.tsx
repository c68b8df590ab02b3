/**
 * The greeting, the user's level and the connection indicator. The indicator sits on the left,
 * by the greeting: the top-right corner belongs to the toasts, which would cover its Retry.
 */
import { welcomeBackText, welcomeText } from '@memeslam/protocol';
import { useSession } from '../auth/session.ts';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { DASHBOARD_UI } from './texts.ts';

export function DashboardHeader({ username, level }: { username: string; level: number }) {
  // A new account's first visit is a welcome; every sign-in after it a welcome back.
  const { newAccount } = useSession();
  return (
    <header className="flex flex-col gap-3">
      <div>
        <h1 className="text-2xl font-bold break-words md:text-3xl">
          {(newAccount ? welcomeText : welcomeBackText)(username)}
        </h1>
        <p className="mt-1 text-muted">
          <span className="font-semibold text-gold">Level {level}</span> · {DASHBOARD_UI.tagline}
        </p>
      </div>
      <div className="flex">
        <ConnectionIndicator />
      </div>
    </header>
  );
}
