/**
 * The token launch section ("contract coming soon", burned liquidity, renounced contract, 1%
 * tournament tax), with the way to the full tokenomics.
 */
import { TOKENOMICS } from '@memeslam/protocol/constants';
import { MARKETING_TEXTS } from '@memeslam/protocol/texts';
import { Link } from 'react-router';
import { LandingIcon, type LandingIconName } from './icons.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { CONTAINER, SECTION_LINK } from './styles.ts';

const { taxSplit } = TOKENOMICS;

const FACTS: readonly { icon: LandingIconName; title: string; text: string }[] = [
  {
    icon: 'flame',
    title: 'Burned liquidity',
    text: 'The liquidity pool tokens are burned at launch: nobody can pull the pool.',
  },
  {
    icon: 'key',
    title: 'Renounced contract',
    text: 'No owner keys after launch: the rules of the token cannot be changed.',
  },
  {
    icon: 'percent',
    title: `${TOKENOMICS.taxPercent}% tournament tax`,
    text: `${taxSplit.prizePools}% of it funds tournament prize pools, ${taxSplit.development}% platform development and ${taxSplit.marketing}% marketing.`,
  },
];

export function TokenSection() {
  return (
    <section aria-labelledby="token-title" className="border-y border-edge bg-panel/40">
      <div className={`${CONTAINER} grid gap-10 py-16 md:py-20 lg:grid-cols-[1fr_1.3fr] lg:items-center`}>
        <div>
          <SectionHeading id="token-title" eyebrow="Token launch" title={`The ${TOKENOMICS.code} token`}>
            {TOKENOMICS.code} is MemeSlam's own token: tournament prize pools are paid in it.
          </SectionHeading>
          <div className="mt-6 rounded-2xl border border-dashed border-gold/60 bg-ink p-4">
            <p className="flex items-center gap-2 text-sm text-muted">
              <LandingIcon name="contract" className="size-4" />
              Contract address
            </p>
            <p className="mt-1 font-mono text-lg font-semibold text-gold">{MARKETING_TEXTS.contractComingSoon}</p>
          </div>
          <p className="mt-6">
            <Link to="/tokenomics" className={SECTION_LINK}>
              Read the tokenomics
              <LandingIcon name="arrow" className="size-4" />
            </Link>
          </p>
        </div>
        <ul className="grid gap-4 md:grid-cols-3 lg:grid-cols-1">
          {FACTS.map(({ icon, title, text }) => (
            <li key={title} className="flex gap-4 rounded-2xl border border-edge bg-ink p-5 md:flex-col lg:flex-row">
              <span className="h-fit rounded-xl bg-gold/15 p-3 text-gold">
                <LandingIcon name={icon} />
              </span>
              <span>
                <span className="block text-lg font-bold">{title}</span>
                <span className="mt-1 block text-muted">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
