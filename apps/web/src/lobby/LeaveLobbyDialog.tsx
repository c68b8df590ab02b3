/**
 * Asked when an invite link (/join/{code}) is followed while the user waits in a lobby of their own:
 * joining the other room would leave theirs, so they choose (docs/privacy.md). The app's Radix dialog,
 * as the game screen's: focus is trapped, and Escape or a click outside means "stay".
 */
import * as Dialog from '@radix-ui/react-dialog';
import { LEAVE_LOBBY_TEXTS } from './texts.ts';

export function LeaveLobbyDialog({
  ownRoomCode,
  roomCode,
  onStay,
  onLeave,
}: {
  /** The lobby the user waits in. */
  ownRoomCode: string;
  /** The room the invite is for. */
  roomCode: string;
  onStay(): void;
  onLeave(): void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onStay()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,26rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-edge bg-panel p-5 shadow-2xl">
          <Dialog.Title className="text-lg font-bold">{LEAVE_LOBBY_TEXTS.title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-muted">
            {LEAVE_LOBBY_TEXTS.description(ownRoomCode, roomCode)}
          </Dialog.Description>
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <Dialog.Close className="rounded-lg border border-edge px-3 py-2">{LEAVE_LOBBY_TEXTS.stay}</Dialog.Close>
            <button type="button" onClick={onLeave} className="rounded-lg bg-gold px-3 py-2 font-semibold text-ink">
              {LEAVE_LOBBY_TEXTS.leaveAndJoin}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
