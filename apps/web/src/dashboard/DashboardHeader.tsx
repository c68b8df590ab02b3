/**
 * The greeting, the user's level and the connection indicator. The indicator sits on the left,
 * by the greeting: the top-right corner belongs to the toasts, which would cover its Retry.
 */
import { welcomeBackText } from '@memeslam/protocol';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { DASHBOARD_UI } from './texts.ts';

export function DashboardHeader({ username, level }: { username: string; level: number }) {
  return (
    <header className="flex flex-col gap-3">
      <div>
        <h1 className="text-2xl font-bold break-words md:text-3xl">{welcomeBackText(username)}</h1>
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
