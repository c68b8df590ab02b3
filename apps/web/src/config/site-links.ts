/**
 * The outside links of the site (a community social account, the tokenomics' trading site,
 * share buttons that open a prefilled social post). The community and trading addresses are
 * deployment settings, read from the build's environment by `links.ts`; this file holds their
 * defaults and the pure rules, so tests can check them without a build.
 */
import { MARKETING } from '@memeslam/protocol/constants';

export interface SiteLinks {
  /** The community social account (landing page and tokenomics). */
  readonly community: string;
  /** Where the token trades (tokenomics). */
  readonly trade: string;
}

/** Used when the build sets no address, or one that is not an http(s) URL. */
export const DEFAULT_LINKS: SiteLinks = {
  community: 'https://x.com/MemeSlamGame',
  trade: 'https://jup.ag/',
};

/** The build-time variables (Vite exposes only `VITE_`-prefixed ones to the client). */
export const LINK_VARIABLES = { community: 'VITE_COMMUNITY_URL', trade: 'VITE_TRADE_URL' } as const;

export interface ResolvedLinks {
  readonly links: SiteLinks;
  /** One line per variable that was set but ignored, for the console. */
  readonly ignored: readonly string[];
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The links for an environment: each variable when it holds an http(s) URL, else its default. */
export function resolveLinks(env: Readonly<Record<string, string | undefined>>): ResolvedLinks {
  const ignored: string[] = [];
  const pick = (key: keyof SiteLinks): string => {
    const name = LINK_VARIABLES[key];
    const value = env[name]?.trim();
    if (!value) return DEFAULT_LINKS[key];
    if (httpUrl(value)) return value;
    ignored.push(`${name} is not an http(s) URL (${JSON.stringify(value)}); using ${DEFAULT_LINKS[key]}`);
    return DEFAULT_LINKS[key];
  };
  return { links: { community: pick('community'), trade: pick('trade') }, ignored };
}

/** A link's address as people read it: host and path, without the scheme or a trailing slash. */
export function displayAddress(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`.replace(/\/$/, '');
}

/** The landing page's prefilled post: what the game is, in one line; the site's address goes with it. */
export const SHARE_TEXT = `I'm playing MemeSlam, the real-time crypto-meme card game: ${MARKETING.uniqueCards} cards, ${MARKETING.minPlayers}-${MARKETING.maxPlayers} players, no turns. Come slam with me!`;

export interface ShareTargets {
  readonly x: string;
  readonly telegram: string;
}

/** Prefilled posts of `text` with a link to `url`, on X and on Telegram. */
export function shareTargets(text: string, url: string): ShareTargets {
  const x = new URL('https://x.com/intent/post');
  x.searchParams.set('text', text);
  x.searchParams.set('url', url);
  const telegram = new URL('https://t.me/share/url');
  telegram.searchParams.set('url', url);
  telegram.searchParams.set('text', text);
  return { x: x.href, telegram: telegram.href };
}
