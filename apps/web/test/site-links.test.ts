/**
 * The site's outside links (a community social account and a trading site; a share opens a
 * prefilled social post): build variables with
 * defaults, and the prefilled posts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINKS, displayAddress, resolveLinks, shareTargets } from '../src/config/site-links.ts';

describe('resolveLinks', () => {
  it('uses the defaults when nothing is set', () => {
    expect(resolveLinks({})).toEqual({ links: DEFAULT_LINKS, ignored: [] });
    expect(resolveLinks({ VITE_COMMUNITY_URL: '  ', VITE_TRADE_URL: '' }).links).toEqual(DEFAULT_LINKS);
  });

  it('takes each address from its variable', () => {
    const { links, ignored } = resolveLinks({
      VITE_COMMUNITY_URL: 'https://t.me/memeslam_players',
      VITE_TRADE_URL: ' https://raydium.io/swap/ ',
    });
    expect(links).toEqual({ community: 'https://t.me/memeslam_players', trade: 'https://raydium.io/swap/' });
    expect(ignored).toEqual([]);
  });

  it('ignores what is not an http(s) URL, saying which variable and why', () => {
    const { links, ignored } = resolveLinks({ VITE_COMMUNITY_URL: 'javascript:alert(1)', VITE_TRADE_URL: 'jup.ag' });
    expect(links).toEqual(DEFAULT_LINKS);
    expect(ignored).toHaveLength(2);
    expect(ignored[0]).toContain('VITE_COMMUNITY_URL');
    expect(ignored[1]).toContain('VITE_TRADE_URL');
  });

  it('has http(s) defaults', () => {
    for (const url of Object.values(DEFAULT_LINKS)) expect(new URL(url).protocol).toBe('https:');
  });
});

describe('shareTargets', () => {
  it('prefills the post on X and on Telegram with the text and the site address', () => {
    const text = 'Slam with me: 180 cards & no turns!';
    const { x, telegram } = shareTargets(text, 'https://memeslam.example/');
    const post = new URL(x);
    expect(`${post.origin}${post.pathname}`).toBe('https://x.com/intent/post');
    expect(post.searchParams.get('text')).toBe(text);
    expect(post.searchParams.get('url')).toBe('https://memeslam.example/');
    const message = new URL(telegram);
    expect(`${message.origin}${message.pathname}`).toBe('https://t.me/share/url');
    expect(message.searchParams.get('text')).toBe(text);
    expect(message.searchParams.get('url')).toBe('https://memeslam.example/');
  });
});

describe('displayAddress', () => {
  it('shows host and path without the scheme or a trailing slash', () => {
    expect(displayAddress('https://x.com/MemeSlamGame')).toBe('x.com/MemeSlamGame');
    expect(displayAddress('https://jup.ag/')).toBe('jup.ag');
  });
});
