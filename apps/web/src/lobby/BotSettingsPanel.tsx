/**
 * Bot settings (free mode only): enabled, number of bots (1–3), difficulty (easy to expert), mixed
 * difficulties, auto-ready, and a name for each of the three bot personalities.
 */
import { LOBBY_BOT_DIFFICULTIES, MATCH_ME, MATCH_ME_TEXTS, USERNAME_MAX_LENGTH } from '@memeslam/protocol';
import { difficultyLabel } from './labels.ts';
import { SelectField } from './SelectField.tsx';
import { BOT_COUNTS, type BotSettingsForm } from './settings.ts';
import { ToggleField } from './ToggleField.tsx';

export interface BotSettingsPanelProps {
  readonly value: BotSettingsForm;
  readonly onChange: (next: BotSettingsForm) => void;
}

export function BotSettingsPanel({ value, onChange }: BotSettingsPanelProps) {
  const off = !value.enabled;
  return (
    <section aria-labelledby="bot-settings-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="bot-settings-title" className="mb-3 text-lg font-semibold">
        Bot Settings
      </h2>
      <ToggleField
        label="Play with bots"
        hint="Computer players fill seats; they are always ready."
        checked={value.enabled}
        onChange={(enabled) => onChange({ ...value, enabled })}
      />
      <fieldset disabled={off} className={`mt-3 grid gap-3 sm:grid-cols-2 ${off ? 'opacity-50' : ''}`}>
        <legend className="sr-only">Bot options</legend>
        <SelectField
          label="Number of bots"
          value={value.numberOfBots}
          options={BOT_COUNTS.map((n) => ({ value: n, label: String(n) }))}
          onChange={(numberOfBots) => onChange({ ...value, numberOfBots })}
          disabled={off}
        />
        <SelectField
          label="Bot difficulty"
          value={value.difficulty}
          options={[...LOBBY_BOT_DIFFICULTIES, MATCH_ME].map((d) => ({ value: d, label: difficultyLabel(d) }))}
          onChange={(difficulty) => onChange({ ...value, difficulty })}
          disabled={off}
        />
        {value.difficulty === MATCH_ME && <p className="text-xs text-muted sm:col-span-2">{MATCH_ME_TEXTS.hint}</p>}
        <div className="sm:col-span-2">
          <ToggleField
            label="Mixed difficulties"
            hint="Bots vary around the chosen difficulty."
            checked={value.mixedDifficulties}
            onChange={(mixedDifficulties) => onChange({ ...value, mixedDifficulties })}
            disabled={off}
          />
          <ToggleField
            label="Auto-ready bots"
            checked={value.autoReady}
            onChange={(autoReady) => onChange({ ...value, autoReady })}
            disabled={off}
          />
        </div>
        <div className="sm:col-span-2">
          <p className="mb-1 text-sm text-muted">Bot personalities</p>
          <div className="grid gap-2 sm:grid-cols-3">
            {value.botPersonalities.map((name, index) => (
              <input
                key={index}
                aria-label={`Bot ${index + 1} name`}
                value={name}
                maxLength={USERNAME_MAX_LENGTH}
                disabled={off || index >= value.numberOfBots}
                onChange={(event) =>
                  onChange({
                    ...value,
                    botPersonalities: value.botPersonalities.map((n, i) => (i === index ? event.target.value : n)),
                  })
                }
                className="rounded-lg border border-edge bg-ink px-3 py-2 text-base disabled:opacity-50"
              />
            ))}
          </div>
        </div>
      </fieldset>
    </section>
  );
}
