/**
 * The power-up bar ("n/5" left): one button per power-up with its key,
 * used ones struck through, the selected one highlighted.
 */
import { POWER_UP_TYPES, type PowerUpType } from '@memeslam/engine';
import { POWER_UP_EFFECT_TEXTS, POWER_UP_NAMES } from '@memeslam/protocol/game-texts';
import { Icon, type IconName } from '../components/Icon.tsx';
import type { PowerUpState } from './state.ts';
import { POWER_UP_KEYS } from './keys.ts';

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
    // A container: the buttons lay icon and name side by side only where the bar is wide enough.
    <section aria-label="Power-ups" className="@container rounded-lg border border-edge bg-panel px-2 py-2 md:px-3">
      <h3 className="mb-1.5 flex items-center justify-between text-sm font-semibold">
        Power-ups <span className="font-mono text-muted">{available}/5</span>
      </h3>
      <div className="grid grid-cols-5 gap-1 md:gap-2">
        {POWER_UP_TYPES.map((type) => {
          const usable = powerUps.available.includes(type);
          const isSelected = selected === type;
          return (
            // The key hint sits outside the button, so the button's visible text is its name.
            <div key={type} className="relative min-w-0">
              <button
                type="button"
                title={`${POWER_UP_NAMES[type]} (${POWER_UP_KEYS[type].toUpperCase()}): ${POWER_UP_EFFECT_TEXTS[type]}`}
                aria-label={`${POWER_UP_NAMES[type]}${usable ? '' : ', used'}`}
                aria-keyshortcuts={POWER_UP_KEYS[type].toUpperCase()}
                aria-pressed={isSelected}
                disabled={!usable || disabled}
                onClick={() => onSelect(type)}
                className={`flex h-full w-full min-w-0 flex-col items-center justify-center gap-0.5 rounded-md border px-0.5 pt-1.5 pb-4 transition @xl:flex-row @xl:gap-1.5 @xl:py-1.5 @xl:pr-5 @xl:pl-1.5 ${
                  isSelected
                    ? 'border-gold bg-gold/20'
                    : usable
                      ? 'border-edge bg-ink hover:border-brand'
                      : 'border-edge bg-ink line-through opacity-40'
                } disabled:cursor-not-allowed`}
              >
                <Icon name={ICONS[type]} className="size-5 shrink-0 @xl:size-6" />
                {/* Whole names, never cut: a long one wraps between its words. */}
                <span data-power-up-name className="text-center text-[0.65rem] leading-tight @sm:text-xs">
                  {POWER_UP_NAMES[type]}
                </span>
              </button>
              <kbd
                aria-hidden="true"
                className="pointer-events-none absolute inset-x-0 bottom-1 text-center pointer-coarse:hidden text-[0.6rem] text-muted @xl:inset-x-auto @xl:top-1/2 @xl:right-1.5 @xl:bottom-auto @xl:-translate-y-1/2"
              >
                {POWER_UP_KEYS[type].toUpperCase()}
              </kbd>
            </div>
          );
        })}
      </div>
    </section>
  );
}
