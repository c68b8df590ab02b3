/** A lobby's invite link, /join/{roomCode}: copy it, or hand it to the device's share sheet where there is one. */
import { useState } from 'react';
import { toast } from 'sonner';
import { copyText } from '../components/clipboard.ts';

export const INVITE_TEXTS = {
  copied: 'Invite link copied!',
  shareTitle: 'Join my MemeSlam game',
} as const;

export function inviteUrl(roomCode: string, origin = window.location.origin): string {
  return `${origin}/join/${roomCode}`;
}

export function InviteLink({ roomCode }: { readonly roomCode: string }) {
  const url = inviteUrl(roomCode);
  const [canShare] = useState(() => typeof navigator.share === 'function');

  async function copy() {
    if (await copyText(url)) toast.success(INVITE_TEXTS.copied);
  }

  async function share() {
    try {
      await navigator.share({
        title: INVITE_TEXTS.shareTitle,
        text: `${INVITE_TEXTS.shareTitle}: room ${roomCode}`,
        url,
      });
    } catch {
      // Dismissed, or refused: nothing to tell.
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2 rounded-xl border border-edge bg-panel px-4 py-2">
      <label className="flex min-w-0 flex-1 flex-col text-xs uppercase tracking-wider text-muted">
        Invite link
        <input
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className="mt-0.5 min-w-0 bg-transparent font-mono text-sm normal-case tracking-normal"
        />
      </label>
      <button
        type="button"
        onClick={() => void copy()}
        className="rounded-lg border border-edge bg-ink px-3 py-1.5 text-sm font-semibold hover:border-brand"
      >
        Copy link
      </button>
      {canShare && (
        <button
          type="button"
          onClick={() => void share()}
          className="rounded-lg border border-edge bg-ink px-3 py-1.5 text-sm font-semibold hover:border-brand"
        >
          Share
        </button>
      )}
    </div>
  );
}
