/**
 * The game screen's header: back, the title, the bot count, the game time, the sound
 * toggle and the settings; on a phone also the collapsible menu (players, time, bots, cards per
 * second, effects, sound, leave game), which opens over the board instead of pushing it down.
 * The controls sit on the left: the right end stays clear for the toasts on wide screens.
 */
import { formatGameTime } from '@memeslam/protocol/game-texts';
import { useState } from 'react';
import { Icon } from '../components/Icon.tsx';
import { PlayerCard } from './PlayerCard.tsx';
import { setSoundEnabled, useSoundEnabled } from './sounds.ts';
import type { GameStateView } from './state.ts';

type ViewPlayer = GameStateView['players'][number];

export interface GameHeaderProps {
  readonly title: string;
  readonly phone: boolean;
  readonly member: boolean;
  readonly players: readonly ViewPlayer[];
  readonly me: string | null;
  readonly seconds: number;
  readonly cardsPerSecond: string;
  readonly effects: number;
  onLeave(): void;
  onSettings(): void;
}

function SoundToggle() {
  const soundOn = useSoundEnabled();
  return (
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
}

export function GameHeader(props: GameHeaderProps) {
  const { title, phone, member, players, me, seconds } = props;
  const [menuOpen, setMenuOpen] = useState(false);
  const botCount = players.filter((p) => p.isBot).length;
  return (
    // A div, not a <header>: the nav bar is the page's one banner landmark.
    <div className="relative flex shrink-0 items-center gap-2 py-2" data-game-header>
      <button
        type="button"
        onClick={props.onLeave}
        className="rounded-md border border-edge px-2 py-1"
        aria-label="Back"
      >
        <Icon name="back" />
      </button>
      <h1 className="truncate text-lg font-bold md:text-2xl">{title}</h1>
      {botCount > 0 && (
        <span className="hidden shrink-0 rounded bg-panel px-2 py-0.5 text-xs text-muted sm:inline">
          {botCount} {botCount === 1 ? 'bot' : 'bots'}
        </span>
      )}
      {!member && <span className="shrink-0 rounded bg-sky-500/20 px-2 py-0.5 text-xs text-sky-200">Spectating</span>}
      <span className="ml-1 shrink-0 font-mono text-sm" aria-label="Game time">
        {formatGameTime(seconds)}
      </span>
      {!phone && <SoundToggle />}
      <button
        type="button"
        onClick={props.onSettings}
        className="shrink-0 rounded-md border border-edge px-2 py-1"
        aria-label="Settings"
      >
        <Icon name="settings" />
      </button>
      {phone && (
        <button
          type="button"
          onClick={() => setMenuOpen((open) => !open)}
          aria-expanded={menuOpen}
          aria-controls="game-menu"
          aria-label="Game menu"
          className="ml-auto shrink-0 rounded-md border border-edge px-2 py-1"
        >
          <Icon name="menu" />
        </button>
      )}
      {phone && menuOpen && (
        <div
          id="game-menu"
          className="absolute inset-x-0 top-full z-30 space-y-2 rounded-lg border border-edge bg-panel p-3 text-sm shadow-2xl"
        >
          <ul className="space-y-1">
            {players.map((player) => (
              <li key={player.userId}>
                <PlayerCard player={player} isMe={player.userId === me} layout="mini" />
              </li>
            ))}
          </ul>
          <p>
            Time {formatGameTime(seconds)} · Bots {botCount} · Cards/sec {props.cardsPerSecond} · Effects{' '}
            {props.effects}
          </p>
          <div className="flex gap-2">
            <SoundToggle />
            <button
              type="button"
              onClick={props.onLeave}
              className="rounded-md border border-red-500 px-3 py-1 text-red-300"
            >
              Leave game
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
