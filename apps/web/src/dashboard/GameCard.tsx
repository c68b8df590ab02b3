/**
 * One game of the list: room code, difficulty, Your Game / You're In, status badge, host, seats,
 * AI level, status, speed, created time, and exactly one action (entry.ts decides which).
 */
import { BOT_LABELS } from '@memeslam/protocol';
import { ActionButton } from './ActionButton.tsx';
import { DifficultyBadge } from '../components/DifficultyBadge.tsx';
import { Badge, type BadgeTone } from './Badge.tsx';
import {
  type EntryAction,
  type GameSummary,
  type Me,
  botInfoOf,
  entryAction,
  isHost,
  memberBadge,
  statusBadge,
} from './entry.ts';
import { SPEED_LABELS, STATUS_LABELS } from './texts.ts';

const STATUS_TONES: Record<ReturnType<typeof statusBadge>, BadgeTone> = {
  'In Game': 'blue',
  Open: 'green',
  Full: 'muted',
};

function createdAt(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

interface Props {
  readonly game: GameSummary;
  readonly me: Me;
  readonly joining: boolean;
  /** Joining is refused on a connection error; the button says so and explains on a click. */
  readonly connectionError: boolean;
  readonly onAction: (action: EntryAction, game: GameSummary) => void;
}

export function GameCard({ game, me, joining, connectionError, onAction }: Props) {
  const bots = botInfoOf(game);
  const action = entryAction(game, me);
  const status = statusBadge(game);
  const mine = isHost(game, me);
  const badge = memberBadge(game, me);
  const botCount = bots?.numberOfBots ?? 0;
  const details = [
    ['Host', game.host.username],
    [
      'Players',
      `${game.playersCount}/${game.maxPlayers}${botCount > 0 ? ` (${botCount} ${botCount === 1 ? 'bot' : 'bots'})` : ''}`,
    ],
    ['AI Level', bots ? BOT_LABELS[bots.difficulty] : 'None'],
    ['Status', STATUS_LABELS[game.status]],
    ['Speed', SPEED_LABELS[game.gameSettings.gameSpeed]],
    ['Created', createdAt(game.createdAt)],
  ] as const;
  return (
    <li
      aria-label={`Game ${game.roomCode}`}
      className={`rounded-xl border p-4 ${mine ? 'border-gold/60 bg-gold/5' : 'border-edge bg-ink/40'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-lg font-bold tracking-wider">{game.roomCode}</span>
        {bots && <DifficultyBadge difficulty={bots.difficulty} />}
        {badge && <Badge tone={badge === 'Your Game' ? 'gold' : 'brand'}>{badge}</Badge>}
        <span className="ml-auto">
          <Badge tone={STATUS_TONES[status]}>{status}</Badge>
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        {details.map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-muted">{label}:</dt>
            <dd className="truncate font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-3 flex justify-end">
        <ActionButton
          variant={action.kind === 'full' ? 'secondary' : action.kind === 'join' ? 'primary' : 'gold'}
          disabled={action.kind === 'full' || joining}
          unavailable={action.kind === 'join' && connectionError}
          onClick={() => onAction(action, game)}
          className="w-full sm:w-auto"
        >
          {joining ? 'Joining…' : action.label}
        </ActionButton>
      </div>
    </li>
  );
}
