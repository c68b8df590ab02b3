/** What the host chose: seats, cards per player, speed, spectators. */
import type { Game } from '../game/state.ts';
import { speedLabel } from './labels.ts';

export function SettingsSummary({ game }: { readonly game: Game }) {
  const rows: [string, string][] = [
    ['Max players', String(game.maxPlayers)],
    ['Cards per player', String(game.gameSettings.cardsPerPlayer)],
    ['Game speed', speedLabel(game.gameSettings.gameSpeed)],
    ['Spectators', game.gameSettings.allowSpectators ? 'Allowed' : 'Not allowed'],
  ];
  return (
    <section aria-labelledby="summary-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="summary-title" className="mb-3 text-lg font-semibold">
        Settings
      </h2>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="text-right font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
