/**
 * /tokenomics: the token's facts (static content), the contract address, links to the community
 * account and a trading site (configurable, config/links.ts), share buttons and a FAQ accordion of
 * five questions.
 */
import * as Accordion from '@radix-ui/react-accordion';
import { MARKETING_TEXTS } from '@memeslam/protocol/texts';
import { TOKENOMICS } from '@memeslam/protocol/constants';
import { LINKS } from '../config/links.ts';
import { displayAddress } from '../config/site-links.ts';
import { LandingIcon } from '../landing/icons.tsx';
import { ShareButtons } from '../landing/ShareButtons.tsx';

const FAQ = [
  {
    q: `What is ${TOKENOMICS.code}?`,
    a: `${TOKENOMICS.code} is MemeSlam's native token. Tournament prize pools are paid in it, and players can follow their winnings in their wallet.`,
  },
  {
    q: 'Do I need tokens to play?',
    a: 'No. Games against people and bots are free. Wagered games are coming soon and cannot be created yet.',
  },
  {
    q: `Where does the ${TOKENOMICS.taxPercent}% tax go?`,
    a: `${TOKENOMICS.taxSplit.prizePools}% funds tournament prize pools, ${TOKENOMICS.taxSplit.development}% platform development and ${TOKENOMICS.taxSplit.marketing}% marketing.`,
  },
  {
    q: 'Is the liquidity safe?',
    a: 'The liquidity is burned and the contract is renounced: nobody can withdraw the pool or change the rules afterwards.',
  },
  {
    q: 'How do I receive tournament prizes?',
    a: 'Join a tournament, play the minimum number of games in its window, and finish within the winners. Prizes are credited to your wallet when the tournament ends; link a Solana wallet from your profile.',
  },
] as const;

const SHARE_TEXT = `MemeSlam: the real-time crypto-meme card game with ${TOKENOMICS.code} tournament prize pools.`;

export function Tokenomics() {
  const facts = [
    ['Total supply', TOKENOMICS.totalSupply.toLocaleString('en-US')],
    ['Liquidity', 'Burned'],
    ['Contract', 'Renounced'],
    ['Tax per transaction', `${TOKENOMICS.taxPercent}%`],
  ] as const;
  const split = [
    ['Prize pools', TOKENOMICS.taxSplit.prizePools],
    ['Platform development', TOKENOMICS.taxSplit.development],
    ['Marketing', TOKENOMICS.taxSplit.marketing],
  ] as const;
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-4xl font-bold">Tokenomics</h1>
      <p className="mt-2 text-muted">The {TOKENOMICS.code} token behind MemeSlam's tournaments.</p>

      <dl className="mt-8 grid grid-cols-2 gap-3 md:grid-cols-4">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-edge bg-panel p-4">
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="mt-1 text-xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="tax-title" className="mt-10">
        <h2 id="tax-title" className="text-2xl font-semibold">
          Where the {TOKENOMICS.taxPercent}% goes
        </h2>
        <ul className="mt-4 space-y-3">
          {split.map(([label, percent]) => (
            <li key={label}>
              <div className="flex justify-between text-sm">
                <span>{label}</span>
                <span>{percent}%</span>
              </div>
              <div className="mt-1 h-2 rounded bg-edge" aria-hidden="true">
                <div className="h-2 rounded bg-gold" style={{ width: `${percent}%` }} />
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="contract-title" className="mt-10 rounded-lg border border-edge bg-panel p-4">
        <h2 id="contract-title" className="text-lg font-semibold">
          Contract address
        </h2>
        <p className="mt-1 font-mono">{MARKETING_TEXTS.contractAddress}</p>
      </section>

      <section aria-labelledby="links-title" className="mt-10">
        <h2 id="links-title" className="text-2xl font-semibold">
          Community and trading
        </h2>
        <ul className="mt-4 grid gap-3 md:grid-cols-2">
          {(
            [
              ['Join the Community', LINKS.community, 'users'],
              [`Trade ${TOKENOMICS.code}`, LINKS.trade, 'chart'],
            ] as const
          ).map(([label, href, icon]) => (
            <li key={label}>
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                className="flex items-center gap-3 rounded-lg border border-edge bg-panel p-4 transition hover:border-brand"
              >
                <span className="rounded-lg bg-gold/15 p-2 text-gold">
                  <LandingIcon name={icon} className="size-5" />
                </span>
                <span>
                  <span className="block font-semibold">{label}</span>
                  <span className="block text-sm text-muted">{displayAddress(href)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap gap-2">
          <ShareButtons text={SHARE_TEXT} />
        </div>
      </section>

      <section aria-labelledby="faq-title" className="mt-10">
        <h2 id="faq-title" className="text-2xl font-semibold">
          FAQ
        </h2>
        <Accordion.Root type="single" collapsible className="mt-4 divide-y divide-edge rounded-lg border border-edge">
          {FAQ.map(({ q, a }) => (
            <Accordion.Item key={q} value={q}>
              <Accordion.Header>
                <Accordion.Trigger className="w-full px-4 py-3 text-left font-medium data-[state=open]:text-gold">
                  {q}
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="px-4 pb-4 text-muted">{a}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </section>
    </main>
  );
}
