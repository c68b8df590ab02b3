/** Six feature cards: what makes a game of MemeSlam. */
import { BOT_DIFFICULTIES } from '@memeslam/engine';
import { ROOM_CODE_LENGTH } from '@memeslam/protocol/constants';
import { LandingIcon, type LandingIconName } from './icons.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { CONTAINER } from './styles.ts';

/** "easy, normal, hard or expert" */
const LEVELS = `${BOT_DIFFICULTIES.slice(0, -1).join(', ')} or ${BOT_DIFFICULTIES.at(-1) ?? ''}`;

const FEATURES: readonly { icon: LandingIconName; title: string; text: string }[] = [
  {
    icon: 'bolt',
    title: 'No turns, all action',
    text: 'Everyone plays at once onto shared piles. Spot a match first and the pile is yours.',
  },
  {
    icon: 'spark',
    title: 'Five power-ups',
    text: 'Bomb, Reversal, Freeze, Whirlwind and Sniper: one use each, and the right one at the right time turns a game.',
  },
  {
    icon: 'robot',
    title: 'Bots at every level',
    text: `Practice any time against ${LEVELS} bots. No waiting for a table.`,
  },
  {
    icon: 'users',
    title: 'Play with friends',
    text: `Open a private room and share its ${ROOM_CODE_LENGTH}-character code, or join an open game from your dashboard.`,
  },
  {
    icon: 'trophy',
    title: 'Tournaments with prizes',
    text: 'Climb a tournament leaderboard for a share of prize pools paid in SLAM or SOL.',
  },
  {
    icon: 'shield',
    title: 'Fair by design',
    text: 'The server commits to every deal before the first card and reveals it after, and every finished game can be replayed.',
  },
];

export function Features() {
  return (
    <section aria-labelledby="features-title" className={`${CONTAINER} py-16 md:py-20`}>
      <SectionHeading id="features-title" eyebrow="Features" title="Built for fast hands" center>
        Simple enough to learn in a minute, quick enough to play five in a row.
      </SectionHeading>
      <ul className="mt-10 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon, title, text }) => (
          <li
            key={title}
            className="flex gap-4 rounded-2xl border border-edge bg-panel p-5 transition md:block md:p-6 hover:-translate-y-0.5 hover:border-brand motion-reduce:transition-none motion-reduce:hover:translate-y-0"
          >
            <span className="inline-flex h-fit rounded-xl bg-brand/15 p-3 text-brand">
              <LandingIcon name={icon} />
            </span>
            <div>
              <h3 className="text-lg font-bold md:mt-4">{title}</h3>
              <p className="mt-1 text-muted">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
