/**
 * One player as everyone sees them (mini, compact and default layouts):
 * name with the "(Bot)" suffix and difficulty badge, cards left, up to 8 card backs then "+N",
 * power-ups left, and whether they are frozen, offline or gone.
 */
import { PLAYER_CARD_BACKS_SHOWN } from '@memeslam/protocol/constants';
import { hiddenCardsText, playerDisplayName } from '@memeslam/protocol/game-texts';
import { CardBack } from '../cards/Card.tsx';
import { DifficultyBadge } from '../components/DifficultyBadge.tsx';
import { Icon } from '../components/Icon.tsx';
import type { GameStateView } from './state.ts';

export type PlayerCardLayout = 'mini' | 'compact' | 'default';
type ViewPlayer = GameStateView['players'][number];

export function PlayerCard({
  player,
  isMe,
  layout = 'default',
  active = false,
}: {
  player: ViewPlayer;
  isMe: boolean;
  layout?: PlayerCardLayout;
  /** A bot that acted in the last 5 s. */
  active?: boolean;
}) {
  const name = playerDisplayName(player);
  const backs = Math.min(player.cardsLeft, PLAYER_CARD_BACKS_SHOWN);
  const more = hiddenCardsText(player.cardsLeft);
  const status = player.hasLeft ? 'left' : player.isConnected === false ? 'offline' : null;
  const border = player.isFrozen
    ? 'border-sky-400 bg-sky-500/10'
    : isMe
      ? 'border-brand bg-brand/10'
      : 'border-edge bg-panel';

  if (layout === 'mini') {
    return (
      <div className={`flex items-center justify-between gap-2 rounded-md border px-2 py-1 text-sm ${border}`}>
        <span className="truncate">
          {name}
          {isMe && <span className="text-muted"> (you)</span>}
        </span>
        <span className="font-mono font-bold" aria-label={`${player.cardsLeft} cards left`}>
          {player.cardsLeft}
        </span>
      </div>
    );
  }

  return (
    <article
      aria-label={`${name}: ${player.cardsLeft} cards left${player.isFrozen ? ', frozen' : ''}`}
      className={`rounded-lg border p-2 transition-colors ${border} ${player.hasLeft ? 'opacity-50' : ''}`}
    >
      <header className="flex items-start gap-1.5">
        {/* Name, level and state wrap onto a second line in a narrow column rather than cut the name. */}
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-1.5 gap-y-0.5">
          {active && <span className="size-2 motion-safe:animate-pulse rounded-full bg-green-400" title="Active" />}
          <span className={`min-w-0 truncate font-semibold ${layout === 'compact' ? 'text-sm' : ''}`}>{name}</span>
          {isMe && <span className="text-xs text-muted">(you)</span>}
          {player.botDifficulty && (
            <span className="whitespace-nowrap">
              <DifficultyBadge difficulty={player.botDifficulty} />
            </span>
          )}
          {player.isFrozen && (
            <span className="flex items-center gap-0.5 text-xs font-semibold text-sky-300">
              <Icon name="snowflake" className="size-3.5" /> Frozen
            </span>
          )}
          {status && <span className="text-xs text-muted">({status})</span>}
        </div>
        <span className="shrink-0 font-mono text-lg leading-6 font-bold">{player.cardsLeft}</span>
      </header>
      {layout === 'default' && (
        <div className="mt-2 flex items-center" aria-hidden="true">
          {Array.from({ length: backs }, (_, i) => (
            <span key={i} className={i === 0 ? '' : '-ml-3'}>
              <CardBack size="xs" />
            </span>
          ))}
          {more && <span className="ml-2 text-sm font-semibold text-muted">{more}</span>}
        </div>
      )}
      <p className="mt-0.5 text-xs text-muted">
        Hand {player.handCount} · Deck {player.deckCount} · Power-ups {player.powerUps.available.length}/5
      </p>
    </article>
  );
}
