/**
 * A button that can be unavailable yet still explain why: `aria-disabled` keeps it focusable and
 * clickable, so a click gives its toast ("Wagered games coming soon!", connection errors).
 */
import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'gold' | 'plain';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand text-white hover:brightness-110',
  secondary: 'border border-edge bg-ink/40 hover:bg-ink/80',
  gold: 'bg-gold text-ink hover:brightness-110',
  /** Colors come from className. */
  plain: '',
};

export function ActionButton({
  unavailable = false,
  variant = 'secondary',
  className = '',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { unavailable?: boolean; variant?: Variant }) {
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={unavailable || undefined}
      className={`rounded-lg px-4 py-2 font-semibold transition ${VARIANTS[variant]} ${unavailable ? 'cursor-not-allowed opacity-50 hover:brightness-100' : ''} disabled:cursor-not-allowed disabled:opacity-50 ${className}`}
    />
  );
}
