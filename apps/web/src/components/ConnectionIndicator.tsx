/**
 * The real-time connection at a glance (dashboard, lobby, game): connected, connecting or
 * reconnecting with its message, or an error with its message and a Retry.
 */
import { CONNECTION_TEXTS } from '@memeslam/protocol/texts';
import type { ReactNode } from 'react';
import { retryConnection, useConnection } from '../realtime/socket.ts';

/** "Connected to server" comes from the protocol's texts; the other labels are this screen's own. */
const LABELS = {
  connected: CONNECTION_TEXTS.connected,
  connecting: 'Connecting…',
  error: 'Connection error',
  retry: 'Retry',
} as const;

function Pill({ tone, children }: { tone: 'ok' | 'busy'; children: ReactNode }) {
  const look =
    tone === 'ok'
      ? 'border-green-500/40 bg-green-500/10 text-green-300'
      : 'border-yellow-400/40 bg-yellow-400/10 text-yellow-200';
  const dot = tone === 'ok' ? 'bg-green-400' : 'motion-safe:animate-pulse bg-yellow-300';
  return (
    <p role="status" className={`flex w-fit items-center gap-2 rounded-full border px-3 py-1 text-sm ${look}`}>
      <span className={`h-2.5 w-2.5 shrink-0 rounded-full ${dot}`} aria-hidden="true" />
      {children}
    </p>
  );
}

/**
 * `busyLabel` names the on-its-way state where it means more (a game says "Reconnecting…"); `late`
 * shows that state on a connected socket whose answers are overdue (a stalled server).
 */
export function ConnectionIndicator({
  busyLabel = LABELS.connecting,
  late = false,
}: { busyLabel?: string; late?: boolean } = {}) {
  const { status, message } = useConnection();
  if (status === 'connected' && late) return <Pill tone="busy">{busyLabel}</Pill>;
  if (status === 'connected') return <Pill tone="ok">{LABELS.connected}</Pill>;
  if (status === 'error') {
    return (
      <div
        role="alert"
        className="flex w-fit flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl border border-red-500/50 bg-red-500/10 px-3 py-1.5 text-sm text-red-200"
      >
        <span className="flex items-center gap-2 font-semibold">
          <span className="h-2.5 w-2.5 rounded-full bg-red-400" aria-hidden="true" />
          {LABELS.error}
        </span>
        {message && <span data-testid="connection-message">{message}</span>}
        <button
          type="button"
          onClick={retryConnection}
          className="rounded-md border border-red-400/60 px-2 py-0.5 font-semibold hover:bg-red-500/20"
        >
          {LABELS.retry}
        </button>
      </div>
    );
  }
  // unknown, connecting and reconnecting all read as "on its way", with the connection's message if any.
  return (
    <Pill tone="busy">
      {busyLabel}
      {message && <span className="text-yellow-100/80">· {message}</span>}
    </Pill>
  );
}
