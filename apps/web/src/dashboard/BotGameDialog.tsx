/**
 * The Create Bot Game dialog: bots 1–5 (default 2), difficulty, max players 2–6 (default 4; seats
 * not above the bot count disabled), speed slow/normal/fast/blitz, auto-start (default on).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { DASHBOARD_GAME_SPEEDS } from '@memeslam/protocol';
import { type ReactNode, useId } from 'react';
import { unchecked, useForm } from '../forms/useForm.ts';
import {
  BOT_COUNT_OPTIONS,
  BOT_DIALOG_DIFFICULTIES,
  type BotDialogSettings,
  MAX_PLAYERS_OPTIONS,
  difficultyHint,
  difficultyOptionLabel,
  initialBotDialogSettings,
  maxPlayersAllowed,
  withBots,
} from './botDialogSettings.ts';
import { SPEED_LABELS } from './texts.ts';

interface Props {
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
  readonly busy: boolean;
  readonly onCreate: (settings: BotDialogSettings) => void;
}

const selectClass = 'w-full rounded-lg border border-edge bg-ink px-3 py-2 text-base';

function Labelled({ label, children, hint }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {label}
      </label>
      {children(id)}
      {hint && <p className="text-xs text-muted">{hint}</p>}
    </div>
  );
}

export function BotGameDialog({ open, onOpenChange, busy, onCreate }: Props) {
  // The selects offer only valid settings: nothing to check here.
  const { values: settings, setValues: setSettings, submit } = useForm(initialBotDialogSettings, unchecked);
  const autoStartId = useId();

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(30rem,92vw)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-edge bg-panel p-6 shadow-2xl">
          <Dialog.Title className="text-xl font-bold">Create Bot Game</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted">
            Play against computer opponents. You take one seat; the bots fill others.
          </Dialog.Description>
          <form onSubmit={submit(() => onCreate(settings))} className="mt-5 grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Labelled label="Number of bots">
              {(id) => (
                <select
                  id={id}
                  className={selectClass}
                  value={settings.numberOfBots}
                  onChange={(e) => setSettings((s) => withBots(s, Number(e.target.value)))}
                >
                  {BOT_COUNT_OPTIONS.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="Difficulty" hint={difficultyHint(settings.botDifficulty)}>
              {(id) => (
                <select
                  id={id}
                  className={selectClass}
                  value={settings.botDifficulty}
                  onChange={(e) =>
                    setSettings((s) => ({ ...s, botDifficulty: e.target.value as BotDialogSettings['botDifficulty'] }))
                  }
                >
                  {BOT_DIALOG_DIFFICULTIES.map((d) => (
                    <option key={d} value={d}>
                      {difficultyOptionLabel(d)}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="Max players (including bots)" hint="Must be more than the number of bots.">
              {(id) => (
                <select
                  id={id}
                  className={selectClass}
                  value={settings.maxPlayers}
                  onChange={(e) => setSettings((s) => ({ ...s, maxPlayers: Number(e.target.value) }))}
                >
                  {MAX_PLAYERS_OPTIONS.map((n) => (
                    <option key={n} value={n} disabled={!maxPlayersAllowed(n, settings.numberOfBots)}>
                      {n}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="Game speed">
              {(id) => (
                <select
                  id={id}
                  className={selectClass}
                  value={settings.gameSpeed}
                  onChange={(e) =>
                    setSettings((s) => ({ ...s, gameSpeed: e.target.value as BotDialogSettings['gameSpeed'] }))
                  }
                >
                  {DASHBOARD_GAME_SPEEDS.map((speed) => (
                    <option key={speed} value={speed}>
                      {SPEED_LABELS[speed]}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <div className="flex items-center justify-between rounded-lg border border-edge bg-ink/50 px-3 py-2 sm:col-span-2">
              <label htmlFor={autoStartId} className="flex flex-col">
                <span className="font-medium">Auto-start</span>
                <span className="text-xs text-muted">Start as soon as everyone is ready</span>
              </label>
              <button
                id={autoStartId}
                type="button"
                role="switch"
                aria-checked={settings.autoStart}
                onClick={() => setSettings((s) => ({ ...s, autoStart: !s.autoStart }))}
                className={`relative h-6 w-11 shrink-0 rounded-full transition-colors ${settings.autoStart ? 'bg-brand' : 'bg-edge'}`}
              >
                <span
                  aria-hidden="true"
                  className={`absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white transition-transform ${settings.autoStart ? 'translate-x-5' : ''}`}
                />
              </button>
            </div>
            <div className="mt-2 flex justify-end gap-2 sm:col-span-2">
              <Dialog.Close className="rounded-lg border border-edge px-4 py-2 hover:bg-ink/60">Cancel</Dialog.Close>
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg bg-brand px-4 py-2 font-semibold text-white hover:brightness-110 disabled:opacity-50"
              >
                {busy ? 'Creating…' : 'Create Game'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
