/** The game's mode: free play (the only one); wagered games are coming soon. */
import { DASHBOARD_TEXTS } from '@memeslam/protocol';

export function GameModePanel({ isBotGame }: { readonly isBotGame: boolean }) {
  return (
    <section aria-labelledby="mode-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="mode-title" className="mb-2 text-lg font-semibold">
        Game Mode
      </h2>
      <p className="font-semibold text-green-300">{isBotGame ? 'Free game vs bots' : 'Free game'}</p>
      <p className="text-sm text-muted">No entry fee. Points and stats count toward the leaderboard.</p>
      <p className="mt-2 text-xs text-muted">{DASHBOARD_TEXTS.wageredComingSoon}</p>
    </section>
  );
}
