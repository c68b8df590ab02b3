/**
 * The site's outside links for this build: VITE_COMMUNITY_URL and VITE_TRADE_URL, set when the web
 * app is built (README "Configuration"), with the defaults of `site-links.ts`. A value that is not
 * an http(s) URL is ignored with a console warning rather than breaking every page.
 */
import { resolveLinks } from './site-links.ts';

declare global {
  interface ImportMetaEnv {
    readonly VITE_COMMUNITY_URL?: string;
    readonly VITE_TRADE_URL?: string;
  }
}

const resolved = resolveLinks({
  VITE_COMMUNITY_URL: import.meta.env.VITE_COMMUNITY_URL,
  VITE_TRADE_URL: import.meta.env.VITE_TRADE_URL,
});
for (const line of resolved.ignored) console.warn(line);

export const LINKS = resolved.links;
