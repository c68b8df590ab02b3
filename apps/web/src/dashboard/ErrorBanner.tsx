/** The dismissible API-error banner with Retry. */
import { Icon } from '../components/Icon.tsx';
import { DASHBOARD_UI } from './texts.ts';

export function ErrorBanner({
  message,
  onRetry,
  onDismiss,
}: {
  message: string;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-red-500/50 bg-red-500/10 px-4 py-3"
    >
      <span className="flex-1 font-semibold text-red-200">{message}</span>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-lg border border-red-400/60 px-3 py-1 text-sm font-semibold hover:bg-red-500/20"
      >
        {DASHBOARD_UI.retry}
      </button>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={DASHBOARD_UI.dismiss}
        className="rounded-lg px-2 py-1 text-red-200 hover:bg-red-500/20"
      >
        <Icon name="cross" className="size-4" />
      </button>
    </div>
  );
}
