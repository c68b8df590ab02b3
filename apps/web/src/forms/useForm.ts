/**
 * The routine every form of the web app shares: its values, an error per field from a zod schema
 * (the first problem of each: the forms show one at a time), and a busy flag around the
 * submit. What a form sends, and the toasts it shows, stay in the form.
 */
import { type FieldError, parseWith } from '@memeslam/protocol';
import { useState } from 'react';
import * as z from 'zod';

export type FormErrors<K extends string> = Partial<Record<K, string>>;

/** For a form with nothing to check before it sends. */
export const unchecked = z.unknown();

/** The first message per field; `fieldOf` names the field an issue's dotted path shows under. */
export function firstErrors<K extends string>(issues: readonly FieldError[], fieldOf: (path: string) => K) {
  const errors: FormErrors<K> = {};
  for (const issue of issues) errors[fieldOf(issue.path)] ??= issue.message;
  return errors;
}

/** The schema's output, or the first error per field. */
export function check<Out, K extends string>(schema: z.ZodType<Out>, input: unknown, fieldOf: (path: string) => K) {
  const parsed = parseWith(schema, input);
  return parsed.success
    ? ({ ok: true, data: parsed.data } as const)
    : ({ ok: false, errors: firstErrors(parsed.errors, fieldOf) } as const);
}

export interface FormOptions<V, K extends string> {
  /** What the schema reads, when the form sends something built from its values. */
  readonly input?: (values: V) => unknown;
  /** The field an issue shows under; its path unless told. */
  readonly fieldOf?: (path: string) => K;
  /** Told after a failed check has set the errors (a toast, say). */
  readonly onInvalid?: () => void;
}

type Name<V> = Extract<keyof V, string>;
/** `form`: an error of the whole form (a server's refusal, say), which no edit clears. */
type ErrorKey<V, K> = K | Name<V> | 'form';

export function useForm<V extends object, Out, K extends string = Name<V>>(
  initial: V,
  schema: z.ZodType<Out>,
  { input = (values) => values, fieldOf = (path) => path as K, onInvalid }: FormOptions<V, K> = {},
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<ErrorKey<V, K>>>({});
  const [busy, setBusy] = useState(false);
  const fieldOfIssue: (path: string) => ErrorKey<V, K> = fieldOf;

  const setError = (field: ErrorKey<V, K>, message: string | undefined) =>
    setErrors((current) => ({ ...current, [field]: message }));

  /** An edit clears that field's error. */
  function setField<F extends Name<V>>(field: F, value: V[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setError(field, undefined);
  }

  /** What a text `Field` takes for one of the values: its name, value, edit and error. */
  const field = <F extends Name<V>>(name: F) => ({
    name,
    value: values[name],
    onChange: (value: V[F]) => setField(name, value),
    error: errors[name],
  });

  /**
   * The form's submit: a failed check replaces the errors; a passed one leaves them (a form clears
   * them itself where it should) and runs `send` with the schema's output, busy until it settles.
   */
  function submit(send: (data: Out) => void | Promise<void>) {
    return (event?: { preventDefault(): void }) => {
      event?.preventDefault();
      const checked = check(schema, input(values), fieldOfIssue);
      if (!checked.ok) {
        setErrors(checked.errors);
        onInvalid?.();
        return;
      }
      setBusy(true);
      void (async () => {
        try {
          await send(checked.data);
        } finally {
          setBusy(false);
        }
      })();
    };
  }

  return { values, setValues, setField, field, errors, setErrors, setError, busy, submit };
}
