/**
 * The power-up bar (spec §2 "Power-up bar showing n/5"): one button per power-up with its key,
 * used ones struck through, the selected one highlighted.
 */
import { POWER_UP_TYPES, type PowerUpType } from '@memeslam/engine';
import { POWER_UP_EFFECT_TEXTS, POWER_UP_NAMES } from '@memeslam/protocol/game-texts';
import { Icon, type IconName } from '../components/Icon.tsx';
import type { PowerUpState } from './state.ts';
import { POWER_UP_KEYS } from './useGameControls.ts';

const ICONS: Record<PowerUpType, IconName> = {
  BOMB: 'bomb',
  REVERSAL: 'reversal',
  FREEZE: 'freeze',
  WHIRLWIND: 'whirlwind',
  SNIPER: 'sniper',
};

export function PowerUpBar({
  powerUps,
  selected,
  disabled,
  onSelect,
}: {
  powerUps: PowerUpState;
  selected: PowerUpType | null;
  disabled: boolean;
  onSelect(type: PowerUpType): void;
}) {
  const available = powerUps.available.length;
  return (
    <section aria-label="Power-ups" className="rounded-lg border border-edge bg-panel p-3">
      <h3 className="mb-2 flex items-center justify-between text-sm font-semibold">
        Power-ups <span className="font-mono text-muted">{available}/5</span>
      </h3>
      <div className="grid grid-cols-5 gap-1.5">
        {POWER_UP_TYPES.map((type) => {
          const usable = powerUps.available.includes(type);
          const isSelected = selected === type;
          return (
            <button
              key={type}
              type="button"
              title={`${POWER_UP_NAMES[type]} (${POWER_UP_KEYS[type].toUpperCase()}): ${POWER_UP_EFFECT_TEXTS[type]}`}
              aria-label={`${POWER_UP_NAMES[type]}${usable ? '' : ', used'}`}
              aria-pressed={isSelected}
              disabled={!usable || disabled}
              onClick={() => onSelect(type)}
              className={`flex min-w-0 flex-col items-center rounded-md border px-0.5 py-1.5 text-xs transition ${
                isSelected
                  ? 'border-gold bg-gold/20'
                  : usable
                    ? 'border-edge bg-ink hover:border-brand'
                    : 'border-edge bg-ink line-through opacity-40'
              } disabled:cursor-not-allowed`}
            >
              <Icon name={ICONS[type]} className="size-6" />
              <span className="w-full truncate text-center text-[0.6rem] leading-tight">{POWER_UP_NAMES[type]}</span>
              <kbd className="text-[0.6rem] text-muted">{POWER_UP_KEYS[type].toUpperCase()}</kbd>
            </button>
          );
        })}
      </div>
    </section>
  );
}
