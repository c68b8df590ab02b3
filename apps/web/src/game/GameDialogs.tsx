/**
 * The game screen's overlays: the freeze target picker, the deadlock banner and its "Resolving
 * Deadlock" modal, and the settings dialog (sound; in bot games the human and bot counts and each
 * bot's difficulty). Radix dialogs: focus is trapped and Escape closes them.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { DEADLOCK_TEXTS, HINTS, playerDisplayName } from '@memeslam/protocol/game-texts';
import type { ReactNode } from 'react';
import { Icon } from '../components/Icon.tsx';
import { DifficultyBadge } from '../components/DifficultyBadge.tsx';
import type { GameStateView } from './state.ts';
import { LEAVE_COUNTS_AS_LOSS } from './texts.ts';
import type { DeadlockWatch } from './useDeadlock.ts';

type ViewPlayer = GameStateView['players'][number];

function Modal({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,26rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-edge bg-panel p-5 shadow-2xl">
          <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function FreezePicker({
  open,
  targets,
  onPick,
  onClose,
}: {
  open: boolean;
  targets: readonly ViewPlayer[];
  onPick(playerId: string): void;
  onClose(): void;
}) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title="Freeze an opponent">
      <Dialog.Description className="mt-1 text-sm text-muted">{HINTS.freezeSelected}</Dialog.Description>
      <ul className="mt-4 space-y-2">
        {targets.map((player) => (
          <li key={player.userId}>
            <button
              type="button"
              onClick={() => onPick(player.userId)}
              className="flex w-full items-center gap-2 rounded-lg border border-edge bg-ink px-3 py-2 text-left hover:border-sky-400"
            >
              <Icon name="freeze" className="size-5 text-sky-300" />
              <span className="font-semibold">{playerDisplayName(player)}</span>
              {player.botDifficulty && <DifficultyBadge difficulty={player.botDifficulty} />}
              <span className="ml-auto text-sm text-muted">{player.cardsLeft} cards</span>
            </button>
          </li>
        ))}
      </ul>
      <Dialog.Close className="mt-4 w-full rounded-lg border border-edge px-3 py-2 text-sm">Cancel</Dialog.Close>
    </Modal>
  );
}

/**
 * The "No playable card" notice. It takes the hint's place in the game screen's status row, a
 * row of fixed height, so appearing never pushes the board down.
 */
export function DeadlockBanner({ watch }: { watch: DeadlockWatch }) {
  if (!watch.showNotice) return null;
  const toCheck = watch.secondsToCheck;
  return (
    <div
      role="status"
      className="flex h-full items-center gap-3 rounded-lg border border-amber-500 bg-amber-500/10 px-3 text-sm"
    >
      <p className="min-w-0 flex-1 leading-tight">
        <span className="font-semibold">No playable card for {watch.stuckSeconds} s</span>{' '}
        <span className="text-muted">
          ·{' '}
          {watch.resolving
            ? 'Checking for a deadlock…'
            : toCheck > 0
              ? `Auto-resolving in ${toCheck} s…`
              : 'Waiting for the other players…'}
        </span>
      </p>
      {watch.canForce && (
        <button
          type="button"
          onClick={watch.force}
          className="shrink-0 rounded-md bg-amber-500 px-2 py-1 text-xs leading-tight font-semibold text-black hover:bg-amber-400 md:px-3 md:text-sm"
        >
          {DEADLOCK_TEXTS.forceResolutionNow}
        </button>
      )}
    </div>
  );
}

export function DeadlockModal({ watch }: { watch: DeadlockWatch }) {
  return (
    <Modal
      open={watch.modalOpen}
      onOpenChange={(next) => !next && watch.closeModal()}
      title={DEADLOCK_TEXTS.resolvingTitle}
    >
      <Dialog.Description className="mt-2 text-sm text-muted">
        New cards were flipped onto the discard piles. Play on!
      </Dialog.Description>
    </Modal>
  );
}

export function SettingsDialog({
  open,
  onOpenChange,
  soundOn,
  onSound,
  players,
  isBotGame,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  soundOn: boolean;
  onSound(on: boolean): void;
  players: readonly ViewPlayer[];
  isBotGame: boolean;
}) {
  const bots = players.filter((p) => p.isBot);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Game settings">
      <Dialog.Description className="sr-only">Sound and game information</Dialog.Description>
      <label className="mt-4 flex items-center justify-between gap-3">
        <span>Sound effects</span>
        <input
          type="checkbox"
          className="size-5 accent-brand"
          checked={soundOn}
          onChange={(e) => onSound(e.target.checked)}
        />
      </label>
      {isBotGame && (
        <div className="mt-4 space-y-2 text-sm">
          <p>
            Humans: <strong>{players.length - bots.length}</strong> · Bots: <strong>{bots.length}</strong>
          </p>
          <ul className="space-y-1">
            {bots.map((bot) => (
              <li key={bot.userId} className="flex items-center gap-2">
                {playerDisplayName(bot)} <DifficultyBadge difficulty={bot.botDifficulty ?? 'normal'} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <Dialog.Close className="mt-5 w-full rounded-lg bg-brand px-3 py-2 font-semibold">Done</Dialog.Close>
    </Modal>
  );
}

export function LeaveDialog({
  open,
  onOpenChange,
  forfeits,
  onLeave,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** A seated player leaving a game in play is ranked last. */
  forfeits: boolean;
  onLeave(): void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Leave the game?">
      <Dialog.Description className="mt-2 text-sm text-muted">
        {forfeits ? LEAVE_COUNTS_AS_LOSS : 'You can come back to watch while the game is on.'}
      </Dialog.Description>
      <div className="mt-5 flex justify-end gap-2">
        <Dialog.Close className="rounded-lg border border-edge px-3 py-2">Stay</Dialog.Close>
        <button type="button" onClick={onLeave} className="rounded-lg bg-danger px-3 py-2 font-semibold text-white">
          Leave game
        </button>
      </div>
    </Modal>
  );
}
