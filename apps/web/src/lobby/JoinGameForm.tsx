/**
 * "Join Existing Game": the room code, uppercased and at most 6 characters. Join is disabled when
 * the code is empty, while joining and while disconnected; submitting empty (Enter) says so.
 */
import { LOBBY_TEXTS, ROOM_CODE_LENGTH } from '@memeslam/protocol';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';

export interface JoinGameFormProps {
  readonly onJoin: (roomCode: string) => void;
  readonly joining: boolean;
  readonly connected: boolean;
}

export function JoinGameForm({ onJoin, joining, connected }: JoinGameFormProps) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const roomCode = code.trim();
    if (!roomCode) {
      setError(LOBBY_TEXTS.enterRoomCode);
      toast.error(LOBBY_TEXTS.enterRoomCode);
      return;
    }
    if (joining || !connected) return;
    onJoin(roomCode);
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-edge bg-panel p-4">
      <h2 id={`${id}-title`} className="mb-3 text-lg font-semibold">
        {LOBBY_TEXTS.joinExistingGame}
      </h2>
      <form onSubmit={submit} noValidate className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          Room code
        </label>
        <input
          id={id}
          value={code}
          placeholder="ROOM CODE"
          maxLength={ROOM_CODE_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setCode(event.target.value.toUpperCase().replace(/\s/g, '').slice(0, ROOM_CODE_LENGTH));
            setError(null);
          }}
          // A disabled Join button blocks the browser's own Enter-submit; the empty-code message must still show.
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit(event);
          }}
          className="w-full min-w-0 rounded-lg border border-edge bg-ink px-3 py-2 font-mono text-lg tracking-[0.3em] uppercase"
        />
        <button
          type="submit"
          disabled={!code.trim() || joining || !connected}
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
