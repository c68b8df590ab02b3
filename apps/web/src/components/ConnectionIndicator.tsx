/**
 * The real-time connection at a glance: a colored dot, the spec's text for the state, and Retry
 * whenever the socket is not connected or on its way.
 */
import { CONNECTION_TEXTS } from '@memeslam/protocol';
import { type ConnectionState, retryConnection, useConnection } from '../realtime/socket.ts';

function describe(state: ConnectionState): { text: string; dot: string; canRetry: boolean } {
  switch (state.status) {
    case 'connected':
      return { text: CONNECTION_TEXTS.connected, dot: 'bg-green-400', canRetry: false };
    case 'connecting':
      // ours
      return { text: 'Connecting…', dot: 'bg-yellow-400 motion-safe:animate-pulse', canRetry: false };
    case 'reconnecting':
      return { text: state.message ?? 'Reconnecting…', dot: 'bg-yellow-400 motion-safe:animate-pulse', canRetry: true };
    case 'error':
      return { text: state.message ?? CONNECTION_TEXTS.notConnected, dot: 'bg-red-500', canRetry: true };
    case 'unknown':
      return { text: CONNECTION_TEXTS.notConnected, dot: 'bg-muted', canRetry: true };
  }
}

export function ConnectionIndicator({ className = '' }: { readonly className?: string }) {
  const state = useConnection();
  const { text, dot, canRetry } = describe(state);
  return (
    <div
      className={`flex items-center gap-2 rounded-lg border border-edge bg-panel px-3 py-1.5 text-sm ${className}`}
      aria-label="Connection"
    >
      <span className={`h-2.5 w-2.5 shrink-0 rounded-full ${dot}`} aria-hidden="true" />
      <span role="status" aria-live="polite">
        {text}
      </span>
      {canRetry && (
        <button
          type="button"
          onClick={retryConnection}
          className="ml-1 rounded-md border border-edge px-2 py-0.5 text-xs font-semibold hover:border-brand"
        >
          Retry
        </button>
      )}
    </div>
  );
}
