/** Game settings: max players (2/3/4), cards per player (20/30/40), speed, Allow Spectators. */
import { CARDS_PER_PLAYER_OPTIONS } from '@memeslam/engine';
import { LOBBY_GAME_SPEEDS, LOBBY_MAX_PLAYERS_OPTIONS } from '@memeslam/protocol';
import { speedLabel } from './labels.ts';
import { SelectField } from './SelectField.tsx';
import type { GameSettingsForm } from './settings.ts';
import { ToggleField } from './ToggleField.tsx';

export interface GameSettingsPanelProps {
  readonly value: GameSettingsForm;
  readonly onChange: (next: GameSettingsForm) => void;
  /** With bots on, seats for fewer than bots + 1 are not offered. */
  readonly minPlayers: number;
}

export function GameSettingsPanel({ value, onChange, minPlayers }: GameSettingsPanelProps) {
  return (
    <section aria-labelledby="game-settings-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="game-settings-title" className="mb-3 text-lg font-semibold">
        Game Settings
      </h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          label="Max players"
          value={value.maxPlayers}
          options={LOBBY_MAX_PLAYERS_OPTIONS.map((n) => ({
            value: n,
            label: `${n} players`,
            disabled: n < minPlayers,
          }))}
          onChange={(maxPlayers) => onChange({ ...value, maxPlayers })}
        />
        <SelectField
          label="Cards per player"
          value={value.cardsPerPlayer}
          options={CARDS_PER_PLAYER_OPTIONS.map((n) => ({ value: n, label: `${n} cards` }))}
          onChange={(cardsPerPlayer) => onChange({ ...value, cardsPerPlayer })}
        />
        <SelectField
          label="Game speed"
          value={value.gameSpeed}
          options={LOBBY_GAME_SPEEDS.map((s) => ({ value: s, label: speedLabel(s) }))}
          onChange={(gameSpeed) => onChange({ ...value, gameSpeed })}
        />
      </div>
      <div className="mt-3">
        <ToggleField
          label="Allow Spectators"
          checked={value.allowSpectators}
          onChange={(allowSpectators) => onChange({ ...value, allowSpectators })}
        />
      </div>
    </section>
  );
}
