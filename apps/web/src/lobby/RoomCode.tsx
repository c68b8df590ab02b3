/** The room code, large, with a copy button: "Room code copied!" for 2 s. */
import { LOBBY_TEXTS } from '@memeslam/protocol';
import { TOAST_DURATIONS_MS } from '@memeslam/protocol/constants';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { copyText } from '../components/clipboard.ts';
import { Icon } from '../components/Icon.tsx';

/** The copy confirmation lasts 2 s: the toast, and the button's "copied" look. */
const COPIED_MS = TOAST_DURATIONS_MS.roomCodeCopied;

export function RoomCode({ roomCode }: { readonly roomCode: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    if (!(await copyText(roomCode))) return;
    setCopied(true);
    toast.success(LOBBY_TEXTS.roomCodeCopied, { duration: COPIED_MS });
  }

  return (
    <div className="flex items-center gap-3 rounded-xl border border-gold/50 bg-gold/10 px-4 py-2">
      <div>
        <p className="text-xs uppercase tracking-wider text-muted">Room code</p>
        <p className="font-mono text-2xl font-bold tracking-[0.25em] text-gold" data-testid="room-code">
          {roomCode}
        </p>
      </div>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={copied ? 'Room code copied' : 'Copy room code'}
        className="flex items-center gap-1 rounded-lg border border-edge bg-panel px-3 py-1.5 text-sm font-semibold hover:border-gold"
      >
        {copied && <Icon name="check" className="size-4" />}
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
