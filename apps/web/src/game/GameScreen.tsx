/**
 * The in-game screen while a game is on (spec §2 "In-game screen"). Desktop: header, a left
 * column (status, players, power-ups, effects), the piles and hand in the centre, and a right
 * column (My Deck, stats, quick actions). On a tablet the columns go under the board and the
 * power-ups under the hand; under 768 px the columns fold into a collapsible menu. A spectator sees the same board without a hand.
 */
import { BOT_ACTIVE_WINDOW_MS } from '@memeslam/protocol/constants';
import { GAME_TEXTS } from '@memeslam/protocol/game-texts';
import { useEffect, useState } from 'react';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { Icon } from '../components/Icon.tsx';
import { useConnection } from '../realtime/socket.ts';
import { Hand, Piles } from './Board.tsx';
import { DeadlockBanner, DeadlockModal, FreezePicker, SettingsDialog } from './GameDialogs.tsx';
import { DebugPanel, EffectsPanel, GameStatusPanel, MyDeckPanel, Panel, StatsPanel } from './Panels.tsx';
import { PlayerCard } from './PlayerCard.tsx';
import { perSecond } from './result/summary.ts';
import { PowerUpBar } from './PowerUpBar.tsx';
import { setSoundEnabled, useSoundEnabled } from './sounds.ts';
import { type LiveGame, displayed, isMember } from './state.ts';
import { freezeTargets } from './rules.ts';
import { useDeadlock } from './useDeadlock.ts';
import { useGameControls } from './useGameControls.ts';
import { useViewport } from './layout.ts';

/** Re-renders once a second while the game is on (the game timer and effect countdowns). */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

export function GameScreen({ state, onLeave }: { state: LiveGame; onLeave(): void }) {
  const member = isMember(state);
  const viewport = useViewport();
  const now = useNow(state.status === 'active');
  const controls = useGameControls(state, { enabled: member });
  const deadlock = useDeadlock(state, member);
  const soundOn = useSoundEnabled();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [debug, setDebug] = useState(false);
  const connection = useConnection();

  const shown = displayed(state);
  const players = state.view?.players ?? [];
  const isBotGame = state.game?.isBotGame ?? players.some((p) => p.isBot);
  const botCount = players.filter((p) => p.isBot).length;
  const startedAt = state.view?.startedAt ?? now;
  const seconds = Math.max(0, Math.floor((now - startedAt) / 1000));
  const frozen = state.frozen !== null;
  const canPlay = member && state.status === 'active' && !frozen;
  const frozenSeconds = state.frozen ? Math.max(0, Math.ceil((state.frozen.until - now) / 1000)) : 0;
  const selected = shown.hand.find((c) => c.id === controls.selectedCardId) ?? null;
  const cardSize = viewport === 'desktop' ? 'xl' : viewport === 'tablet' ? 'lg' : 'md';
  const title = isBotGame ? GAME_TEXTS.botGameTitle : GAME_TEXTS.multiplayerTitle;

  const playersList = (
    <Panel title={`Players (${players.length})`}>
      <ul className="space-y-2">
        {players.map((player) => (
          <li key={player.userId}>
            <PlayerCard
              player={player}
              isMe={player.userId === state.me}
              layout={viewport === 'mobile' || players.length > 3 ? 'compact' : 'default'}
              active={player.isBot && now - (state.botActivity[player.userId] ?? 0) < BOT_ACTIVE_WINDOW_MS}
            />
          </li>
        ))}
      </ul>
    </Panel>
  );
  const powerUpBar = member && (
    <PowerUpBar
      powerUps={shown.powerUps}
      selected={controls.selectedPowerUp}
      disabled={!canPlay}
      onSelect={controls.selectPowerUp}
    />
  );
  const soundToggle = (
    <button
      type="button"
      onClick={() => setSoundEnabled(!soundOn)}
      aria-pressed={soundOn}
      aria-label={soundOn ? 'Sound on' : 'Sound off'}
      className="rounded-md border border-edge px-2 py-1"
    >
      <Icon name={soundOn ? 'soundOn' : 'soundOff'} />
    </button>
  );

  return (
    <div className="mx-auto max-w-7xl px-3 pb-8">
      {/* The controls sit beside the title, clear of the toasts that stack top-right during play. */}
      <header className="flex items-center gap-2 py-3">
        <button type="button" onClick={onLeave} className="rounded-md border border-edge px-2 py-1" aria-label="Back">
          <Icon name="back" />
        </button>
        <h1 className="text-lg font-bold sm:text-2xl">{title}</h1>
        {botCount > 0 && (
          <span className="hidden rounded bg-panel px-2 py-0.5 text-xs text-muted sm:inline">
            {botCount} {botCount === 1 ? 'bot' : 'bots'}
          </span>
        )}
        {!member && <span className="rounded bg-sky-500/20 px-2 py-0.5 text-xs text-sky-200">Spectating</span>}
        <span className="ml-2 font-mono text-sm" aria-label="Game time">
          {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')}
        </span>
        {viewport !== 'mobile' && soundToggle}
        <button
          type="button"
          onClick={() => setSettingsOpen(true)}
          className="rounded-md border border-edge px-2 py-1"
          aria-label="Settings"
        >
          <Icon name="settings" />
        </button>
        {viewport === 'mobile' && (
          <button
            type="button"
            onClick={() => setMenuOpen((open) => !open)}
            aria-expanded={menuOpen}
            aria-controls="game-menu"
            aria-label="Game menu"
            className="ml-auto rounded-md border border-edge px-2 py-1"
          >
            <Icon name="menu" />
          </button>
        )}
      </header>

      {viewport === 'mobile' && menuOpen && (
        <div id="game-menu" className="mb-3 space-y-2 rounded-lg border border-edge bg-panel p-3 text-sm">
          <ul className="space-y-1">
            {players.map((player) => (
              <li key={player.userId}>
                <PlayerCard player={player} isMe={player.userId === state.me} layout="mini" />
              </li>
            ))}
          </ul>
          <p>
            Time {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')} · Bots {botCount} · Cards/sec{' '}
            {perSecond(state.counters.cardsPlayed, seconds * 1000)} · Effects {state.view?.activeEffects.length ?? 0}
          </p>
          <div className="flex gap-2">
            {soundToggle}
            <button type="button" onClick={onLeave} className="rounded-md border border-red-500 px-3 py-1 text-red-300">
              Leave game
            </button>
          </div>
        </div>
      )}

      <div className="grid gap-4 lg:grid-cols-[16rem_1fr_15rem]">
        {viewport !== 'mobile' && (
          <aside className="space-y-3 max-lg:grid max-lg:grid-cols-2 max-lg:items-start max-lg:gap-3 max-lg:space-y-0">
            <GameStatusPanel state={state} seconds={seconds} canPlay={canPlay} frozenSeconds={frozenSeconds} />
            {playersList}
            {viewport === 'desktop' && powerUpBar}
            <EffectsPanel state={state} now={now} />
          </aside>
        )}

        <main className="flex min-w-0 flex-col gap-5 max-lg:order-first">
          {viewport === 'mobile' && (
            <ul className="grid grid-cols-2 gap-1.5" aria-label="Players">
              {players.map((player) => (
                <li key={player.userId}>
                  <PlayerCard player={player} isMe={player.userId === state.me} layout="mini" />
                </li>
              ))}
            </ul>
          )}
          {member && (
            <p
              role="status"
              className={`rounded-lg px-3 py-2 text-center text-sm ${
                frozen ? 'bg-sky-500/20 font-semibold text-sky-200' : 'bg-panel text-muted'
              }`}
            >
              {controls.hint}
              {frozen && ` (${frozenSeconds} s)`}
            </p>
          )}
          {connection.status !== 'connected' && <ConnectionIndicator />}
          <DeadlockBanner watch={deadlock} />
          <div
            className={`relative rounded-2xl border border-edge bg-emerald-950/40 p-4 sm:p-8 ${frozen ? 'grayscale' : ''}`}
          >
            <Piles
              piles={shown.piles}
              pileSizes={state.view?.pileSizes ?? []}
              selected={selected}
              sniper={controls.selectedPowerUp === 'SNIPER'}
              size={cardSize}
              disabled={!member}
              onPile={controls.clickPile}
            />
          </div>
          {member && (
            <div className={frozen ? 'opacity-60' : ''}>
              <Hand
                hand={shown.hand}
                selectedId={controls.selectedCardId}
                piles={shown.piles}
                size={cardSize}
                disabled={!canPlay}
                onSelect={controls.selectCard}
              />
            </div>
          )}
          {viewport !== 'desktop' && powerUpBar}
        </main>

        {viewport !== 'mobile' && (
          <aside className="space-y-3 max-lg:grid max-lg:grid-cols-2 max-lg:items-start max-lg:gap-3 max-lg:space-y-0">
            {member && (
              <MyDeckPanel handCount={shown.hand.length} deckSize={state.deckSize} cardsLeft={shown.cardsLeft} />
            )}
            <StatsPanel state={state} seconds={seconds} />
            <Panel title="Quick actions">
              <div className="flex flex-col gap-2">
                <button
                  type="button"
                  onClick={() => setDebug((d) => !d)}
                  className="rounded-md border border-edge px-3 py-1 text-sm"
                >
                  {debug ? 'Hide debug' : 'Show debug'}
                </button>
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
