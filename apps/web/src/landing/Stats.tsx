/** The game in numbers (180 unique cards, 6 crypto memes, 2-6 players; also 6 colors, 2 to 5 minute games). */
import { MARKETING } from '@memeslam/protocol/constants';
import { CONTAINER } from './styles.ts';

const STATS = [
  { value: String(MARKETING.uniqueCards), label: 'unique cards' },
  { value: String(MARKETING.memes), label: 'crypto memes' },
  { value: `${MARKETING.minPlayers}-${MARKETING.maxPlayers}`, label: 'players' },
  { value: String(MARKETING.colors), label: 'colors' },
  { value: `${MARKETING.gameMinutes.min}-${MARKETING.gameMinutes.max}`, label: 'minute games' },
] as const;

export function Stats() {
  return (
    <section aria-label="Game facts" className={`${CONTAINER} pt-10 md:pt-12`}>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-5 md:gap-4">
        {STATS.map(({ value, label }, i) => (
          <li
            key={label}
            className={`rounded-2xl border border-edge bg-panel px-4 py-4 text-center md:py-5 ${i === STATS.length - 1 ? 'col-span-2 sm:col-span-1' : ''}`}
          >
            <strong className="block text-3xl font-extrabold text-white md:text-4xl">{value}</strong>
            <span className="text-muted"> {label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
