/** The header's connection state: connected, error with the spec's message and a Retry, or connecting. */
import { retryConnection, useConnection } from '../realtime/socket.ts';
import { DASHBOARD_UI } from './texts.ts';

export function ConnectionIndicator() {
  const { status, message } = useConnection();
  if (status === 'connected') {
    return (
      <p
        role="status"
        className="flex items-center gap-2 rounded-full border border-green-500/40 bg-green-500/10 px-3 py-1 text-sm text-green-300"
      >
        <span className="h-2.5 w-2.5 rounded-full bg-green-400" aria-hidden="true" />
        {DASHBOARD_UI.connected}
      </p>
    );
  }
  if (status === 'error') {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl border border-red-500/50 bg-red-500/10 px-3 py-1.5 text-sm text-red-200"
      >
        <span className="flex items-center gap-2 font-semibold">
          <span className="h-2.5 w-2.5 rounded-full bg-red-400" aria-hidden="true" />
          {DASHBOARD_UI.connectionError}
        </span>
        {message && <span data-testid="connection-message">{message}</span>}
        <button
          type="button"
          onClick={retryConnection}
          className="rounded-md border border-red-400/60 px-2 py-0.5 font-semibold hover:bg-red-500/20"
        >
          {DASHBOARD_UI.retry}
        </button>
      </div>
    );
  }
  // unknown, connecting and reconnecting all read as "on its way".
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-full border border-yellow-400/40 bg-yellow-400/10 px-3 py-1 text-sm text-yellow-200"
    >
      <span className="h-2.5 w-2.5 animate-pulse rounded-full bg-yellow-300" aria-hidden="true" />
      {DASHBOARD_UI.connecting}
      {status === 'reconnecting' && message && <span className="text-yellow-100/80">· {message}</span>}
    </p>
  );
}
