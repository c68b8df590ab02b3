/**
 * "Join Existing Game": the room code, uppercased and at most 6 characters. Join is disabled when
 * the code is empty, while joining and while disconnected; submitting empty (Enter) says so.
 */
import { LOBBY_TEXTS, ROOM_CODE_LENGTH } from '@memeslam/protocol';
import { useId } from 'react';
import { toast } from 'sonner';
import { roomCodeFormSchema } from '../forms/schemas.ts';
import { useForm } from '../forms/useForm.ts';

export interface JoinGameFormProps {
  readonly onJoin: (roomCode: string) => void;
  readonly joining: boolean;
  readonly connected: boolean;
}

export function JoinGameForm({ onJoin, joining, connected }: JoinGameFormProps) {
  const id = useId();
  const { values, setField, errors, submit } = useForm({ code: '' }, roomCodeFormSchema, {
    onInvalid: () => toast.error(LOBBY_TEXTS.enterRoomCode),
  });
  const error = errors.code;
  const join = submit(({ code }) => {
    if (joining || !connected) return;
    onJoin(code);
  });

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-edge bg-panel p-4">
      <h2 id={`${id}-title`} className="mb-3 text-lg font-semibold">
        {LOBBY_TEXTS.joinExistingGame}
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
          onChange={(event) =>
            setField('code', event.target.value.toUpperCase().replace(/\s/g, '').slice(0, ROOM_CODE_LENGTH))
          }
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
