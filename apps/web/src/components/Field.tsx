/**
 * A labelled form field with its error text; password fields get a show/hide toggle. The error sits
 * outside the <label> and is tied to the input by aria-describedby (with aria-invalid), so the
 * field's accessible name stays its label while the error shows.
 */
import { useId, useState } from 'react';

export interface FieldProps {
  readonly label: string;
  readonly name: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
  readonly type?: 'text' | 'email' | 'password' | 'number' | 'datetime-local';
  readonly autoComplete?: string;
  /** For number fields. */
  readonly min?: number;
  readonly step?: number;
}

export function Field({ label, name, value, onChange, error, type = 'text', autoComplete, min, step }: FieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const isPassword = type === 'password';
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name={name}
          type={isPassword && !shown ? 'password' : isPassword ? 'text' : type}
          value={value}
          autoComplete={autoComplete}
          min={min}
          step={step}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value)}
          className="w-full rounded-lg border border-edge bg-ink px-3 py-2 text-base"
        />
        {isPassword && (
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            className="rounded-lg border border-edge px-3 text-sm"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A form's main button: brand purple, or danger red for what cannot be undone. */
export function Button({
  children,
  busy = false,
  tone = 'brand',
  ...rest
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; tone?: 'brand' | 'danger' }) {
  return (
    <button
      {...rest}
      disabled={busy || rest.disabled}
      className={`rounded-lg px-4 py-2 font-semibold text-white disabled:opacity-50 ${tone === 'danger' ? 'bg-danger' : 'bg-brand'} ${rest.className ?? ''}`}
    >
      {children}
    </button>
  );
}
