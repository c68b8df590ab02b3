/**
 * The in-game screen while a game is on. It fills the window under the
 * nav bar and never scrolls as a page: the piles, the hand and the power-ups always fit one screen
 * (the cards take the largest size that fits, useBoardFit), and side columns that run long scroll
 * inside themselves. Desktop: header, a left column (status, players, effects), the piles, hand and
 * power-ups in the centre, a right column (My Deck, stats, quick actions). A tablet keeps one
 * column, on the right, for all the panels; under 768 px they fold into a collapsible menu and the
 * bottom of the screen is kept free for the toasts. A spectator sees the same board without a hand.
 */
import { BOT_ACTIVE_WINDOW_MS } from '@memeslam/protocol/constants';
import { GAME_TEXTS } from '@memeslam/protocol/game-texts';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { useConnection } from '../realtime/socket.ts';
import { Hand, Piles } from './Board.tsx';
import { DeadlockBanner, DeadlockModal, FreezePicker, SettingsDialog } from './GameDialogs.tsx';
import { GameHeader } from './GameHeader.tsx';
import { DebugPanel, EffectsPanel, GameStatusPanel, MyDeckPanel, Panel, StatsPanel } from './Panels.tsx';
import { PlayerCard } from './PlayerCard.tsx';
import { perSecond } from './result/summary.ts';
import { PowerUpBar } from './PowerUpBar.tsx';
import { setSoundEnabled, useSoundEnabled } from './sounds.ts';
import { displayed, ownCounts } from './displayed.ts';
import { type LiveGame, isMember } from './state.ts';
import { freezeTargets } from './rules.ts';
import { useBoardFit } from './useBoardFit.ts';
import { useCountdownSeconds, useElapsedSeconds } from './useClock.ts';
import { type DeadlockWatch, useDeadlock } from './useDeadlock.ts';
import { useGameControls } from './useGameControls.ts';
import { keysLegend } from './keys.ts';
import { useOwnEffect } from './useOwnEffect.ts';
import { useViewport } from './layout.ts';

/** Re-renders once a second while the game is on (which bots acted in the last 5 s). */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * The row above the board, always the same height: the hint (with the freeze's seconds), or the
 * "No playable card" notice in its place, or "Reconnecting…" while the connection is down or a
 * move's answer is late.
 */
const RECONNECTING = 'Reconnecting…';

/** On a touch screen the hints say "tap" where they say "click". */
function forTouch(hint: string): string {
  return hint.replace(/\b([Cc])lick\b/g, (_, c: string) => (c === 'C' ? 'Tap' : 'tap'));
}

const COARSE = '(pointer: coarse)';
const subscribeCoarse = (onChange: () => void) => {
  const query = window.matchMedia(COARSE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
/** Whether the main pointer is a finger (a touch screen). */
function useCoarsePointer(): boolean {
  return useSyncExternalStore(subscribeCoarse, () => window.matchMedia(COARSE).matches);
}
function StatusRow({
  member,
  hint,
  keys,
  lateAcks,
  frozenSeconds,
  deadlock,
}: {
  member: boolean;
  /** A move's answer is overdue (live.ts ACK_LATE_MS). */
  lateAcks: boolean;
  hint: string;
  /** The keyboard's keys, under the hint where there is a keyboard (a fine pointer, 768 px and up). */
  keys: string;
  frozenSeconds: number | null;
  deadlock: DeadlockWatch;
}) {
  const connection = useConnection();
  const touch = useCoarsePointer();
  let content;
  if (connection.status !== 'connected' || lateAcks) {
    // The socket is down, or the server is slow to answer a move (its card is back in the hand).
    content = (
      <div className="flex h-full items-center justify-center">
        <ConnectionIndicator busyLabel={RECONNECTING} late={lateAcks} />
      </div>
    );
  } else if (member && frozenSeconds === null && deadlock.showNotice) {
    content = <DeadlockBanner watch={deadlock} />;
  } else {
    content = (
      <div
        className={`flex h-full flex-col items-center justify-center rounded-lg px-3 text-center text-sm leading-tight ${
          frozenSeconds !== null ? 'bg-sky-500/20 font-semibold text-sky-200' : 'bg-panel text-muted'
        }`}
      >
        <p role="status">
          {member ? (touch ? forTouch(hint) : hint) : 'You are watching this game.'}
          {frozenSeconds !== null && ` (${frozenSeconds} s)`}
        </p>
        {member && frozenSeconds === null && (
          <p className="hidden text-xs md:pointer-fine:block" data-keys-legend>
            {keys}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="h-14 shrink-0 md:h-11" data-status-row>
      {content}
    </div>
  );
}

export function GameScreen({ state, onLeave }: { state: LiveGame; onLeave(): void }) {
  const member = isMember(state);
  const viewport = useViewport();
  const phone = viewport === 'mobile';
  const now = useNow(state.status === 'active');
  const controls = useGameControls(state, { enabled: member });
  const deadlock = useDeadlock(state, member);
  // What the player's own power-up just did, told on the board for a moment.
  const own = useOwnEffect(member ? state.me : null);
  const soundOn = useSoundEnabled();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [debug, setDebug] = useState(false);

  const shown = displayed(state);
  const players = state.view?.players ?? [];
  const isBotGame = state.game?.isBotGame ?? players.some((p) => p.isBot);
  const seconds = useElapsedSeconds(state.view?.startedAt ?? null, state.status === 'active');
  const frozenSeconds = useCountdownSeconds(state.frozen?.until ?? null, state.frozen?.durationMs ?? 0);
  const frozen = state.frozen !== null;
  const canPlay = member && state.status === 'active' && !frozen;
  const selected = shown.hand.find((c) => c.id === controls.selectedCardId) ?? null;
  const { sizes, boardRef, handRef } = useBoardFit(shown.piles.length, member, viewport);
  const title = isBotGame ? GAME_TEXTS.botGameTitle : GAME_TEXTS.multiplayerTitle;
  // Over the whole seconds played, counting the first (a play in it is not "0.00/s").
  const cardsPerSecond = perSecond(ownCounts(state).cardsPlayed, Math.max(1, seconds) * 1000);

  const statusPanel = (
    <GameStatusPanel state={state} seconds={seconds} canPlay={canPlay} frozenSeconds={frozenSeconds} />
  );
  const playersList = (
    <Panel title={`Players (${players.length})`}>
      <ul className="space-y-2">
        {players.map((player) => (
          <li key={player.userId}>
            <PlayerCard
              player={player}
              isMe={player.userId === state.me}
              layout={players.length > 3 || viewport !== 'desktop' ? 'compact' : 'default'}
              active={player.isBot && now - (state.botActivity[player.userId] ?? 0) < BOT_ACTIVE_WINDOW_MS}
            />
          </li>
        ))}
      </ul>
    </Panel>
  );
  const effects = <EffectsPanel state={state} />;
  const rightPanels = (
    <>
      {member && <MyDeckPanel handCount={shown.hand.length} deckSize={state.deckSize} cardsLeft={shown.cardsLeft} />}
      <StatsPanel state={state} seconds={seconds} />
      <Panel title="Quick actions">
        <div className="flex flex-col gap-2">
          {/* For developers only (a dev build): players have nothing to read there. */}
          {import.meta.env.DEV && (
            <button
              type="button"
              onClick={() => setDebug((d) => !d)}
              className="rounded-md border border-edge px-3 py-1 text-sm"
            >
              {debug ? 'Hide debug' : 'Show debug'}
            </button>
          )}
          <button
            type="button"
            onClick={onLeave}
            className="rounded-md border border-red-500 px-3 py-1 text-sm text-red-300"
          >
            Leave game
          </button>
        </div>
      </Panel>
      {debug && <DebugPanel state={state} />}
    </>
  );
  const column = 'min-h-0 space-y-3 overflow-y-auto overscroll-contain';
  // A side column scrolls by itself when it runs long: focusable, so a keyboard can scroll it too.
  const scrollable = { className: column, tabIndex: 0 } as const;

  return (
    <div className="mx-auto flex h-[calc(100dvh-3.5rem)] max-w-7xl flex-col overflow-hidden px-3 pb-2" data-game-screen>
      <GameHeader
        title={title}
        phone={phone}
        member={member}
        players={players}
        me={state.me}
        seconds={seconds}
        cardsPerSecond={cardsPerSecond}
        effects={state.view?.activeEffects.length ?? 0}
        onLeave={onLeave}
        onSettings={() => setSettingsOpen(true)}
      />

      <div className="grid min-h-0 flex-1 gap-3 md:grid-cols-[minmax(0,1fr)_16rem] lg:grid-cols-[18rem_minmax(0,1fr)_16rem]">
        {viewport === 'desktop' && (
          <aside {...scrollable} aria-label="Game status and players">
            {statusPanel}
            {playersList}
            {effects}
          </aside>
        )}

        {/* Scrolls inside itself only on a screen too short for the smallest cards. */}
        <main className="flex min-h-0 min-w-0 flex-col gap-3 overflow-y-auto">
          {phone && (
            // On a short phone the players (also in the menu) give their room to the cards.
            <ul className="grid shrink-0 grid-cols-2 gap-1.5 [@media(max-height:700px)]:hidden" aria-label="Players">
              {players.map((player) => (
                <li key={player.userId}>
                  <PlayerCard player={player} isMe={player.userId === state.me} layout="mini" />
                </li>
              ))}
            </ul>
          )}
          <StatusRow
            member={member}
            hint={own?.text ?? controls.hint}
            keys={keysLegend(shown.piles.length)}
            lateAcks={state.lateAcks > 0}
            frozenSeconds={frozen ? frozenSeconds : null}
            deadlock={deadlock}
          />
          <div
            ref={boardRef}
            className={`flex flex-1 items-center justify-center rounded-2xl border border-edge bg-emerald-950/40 p-3 md:p-4 ${frozen ? 'grayscale' : ''}`}
          >
            <Piles
              piles={shown.piles}
              pileSizes={state.view?.pileSizes ?? []}
              selected={selected}
              sniper={controls.selectedPowerUp === 'SNIPER'}
              size={sizes.pile}
              width={sizes.pileWidth}
              disabled={!member}
              onPile={controls.clickPile}
              changed={own?.piles ?? []}
            />
          </div>
          {member && (
            <div ref={handRef} className={`shrink-0 ${frozen ? 'opacity-60' : ''}`}>
              <Hand
                hand={shown.hand}
                selectedId={controls.selectedCardId}
                piles={shown.piles}
                size={sizes.hand}
                width={sizes.handWidth}
                disabled={!canPlay}
                onSelect={controls.selectCard}
              />
            </div>
          )}
          {member && (
            <div className="shrink-0">
              <PowerUpBar
                powerUps={shown.powerUps}
                selected={controls.selectedPowerUp}
                disabled={!canPlay}
                onSelect={controls.selectPowerUp}
              />
            </div>
          )}
          {/* Phones show toasts at the bottom (App.tsx), one at a time: this strip holds one of three lines. */}
          {phone && <div className="h-18 shrink-0" aria-hidden="true" data-toast-lane />}
        </main>

        {viewport === 'desktop' && (
          <aside {...scrollable} aria-label="My deck, stats and quick actions">
            {rightPanels}
          </aside>
        )}
        {viewport === 'tablet' && (
          <aside {...scrollable} aria-label="Game status, players and stats">
            {statusPanel}
            {playersList}
            {effects}
            {rightPanels}
          </aside>
        )}
      </div>

      <FreezePicker
        open={controls.freezePickerOpen}
        targets={freezeTargets(state.view, state.me)}
        onPick={controls.freeze}
        onClose={controls.closeFreezePicker}
      />
      <DeadlockModal watch={deadlock} />
      <SettingsDialog
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        soundOn={soundOn}
        onSound={setSoundEnabled}
        players={players}
        isBotGame={isBotGame}
      />
    </div>
  );
}
