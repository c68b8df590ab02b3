/** The button that folds a panel's details on a phone (under 768 px); wider screens always show them. */
import type { ReactNode } from 'react';

export function PhoneFoldButton({
  open,
  controls,
  onToggle,
  className = '',
  children,
}: {
  readonly open: boolean;
  /** The id of the element it shows and hides. */
  readonly controls: string;
  onToggle(): void;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`rounded-lg border border-edge px-3 py-1 text-sm md:hidden ${className}`}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      {children}
    </button>
  );
}
