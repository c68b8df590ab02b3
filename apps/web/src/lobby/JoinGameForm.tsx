/**
 * "Join Existing Game": the room code, uppercased and at most 6 characters. Join is disabled when
 * the code is empty, while joining and while disconnected; submitting empty (Enter) says so. The
 * server's refusal (a wrong code) shows at the field, as the schema's own errors do.
 */
import { LOBBY_TEXTS, ROOM_CODE_LENGTH } from '@memeslam/protocol';
import { useId } from 'react';
import { toast } from 'sonner';
import { roomCodeFormSchema } from '../forms/schemas.ts';
import { useForm } from '../forms/useForm.ts';
import type { JoinByCode } from './useJoinByCode.ts';

export interface JoinGameFormProps {
  readonly joiner: JoinByCode;
  readonly connected: boolean;
  /** The code to start with (a room URL that found no game, say). */
  readonly initialCode?: string;
  /** The section's heading: "Join Existing Game" unless told. */
  readonly title?: string;
}

export function JoinGameForm({
  joiner,
  connected,
  initialCode = '',
  title = LOBBY_TEXTS.joinExistingGame,
}: JoinGameFormProps) {
  const id = useId();
  const { values, setField, errors, submit } = useForm({ code: initialCode }, roomCodeFormSchema, {
    onInvalid: () => toast.error(LOBBY_TEXTS.enterRoomCode),
  });
  const { joining } = joiner;
  const error = errors.code ?? joiner.error ?? undefined;
  const join = submit(({ code }) => {
    if (joining || !connected) return;
    void joiner.join(code);
  });

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-edge bg-panel p-4">
      <h2 id={`${id}-title`} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      <form onSubmit={join} noValidate className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          Room code
        </label>
        <input
          id={id}
          value={values.code}
          placeholder="ROOM CODE"
          maxLength={ROOM_CODE_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setField('code', event.target.value.toUpperCase().replace(/\s/g, '').slice(0, ROOM_CODE_LENGTH));
            joiner.edited();
          }}
          // A disabled Join button blocks the browser's own Enter-submit; the empty-code message must still show.
          onKeyDown={(event) => {
            if (event.key === 'Enter') join(event);
          }}
          className="w-full min-w-0 rounded-lg border border-edge bg-ink px-3 py-2 font-mono text-lg tracking-[0.3em] uppercase"
        />
        <button
          type="submit"
          disabled={!values.code.trim() || joining || !connected}
          className="rounded-lg bg-brand px-5 py-2 font-semibold text-white disabled:opacity-50"
        >
          {joining ? 'Joining…' : 'Join'}
        </button>
      </form>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}
