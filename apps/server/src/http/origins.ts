/**
 * Which browser origins may call the API (CORS) and open a socket: a page of this server's own (the
 * Origin names the host the request was sent to, as behind a proxy that keeps the Host header or
 * through Vite's dev proxy) and the configured ALLOWED_ORIGINS (default: PUBLIC_URL's origin). A
 * request without an Origin header is no browser's cross-site request (curl, the bots, server-side
 * clients) and is let through; browsers always send Origin on WebSocket upgrades and CORS requests.
 */
import type { IncomingMessage } from 'node:http';

/** The origin a request sent to `host` has when a page of this server sends it. */
function ownOrigins(host: string | undefined): string[] {
  if (!host) return [];
  return [`http://${host}`, `https://${host}`];
}

export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  const normalized = URL.canParse(origin) ? new URL(origin).origin : origin;
  return allowed.includes(normalized) || ownOrigins(host?.toLowerCase()).includes(normalized.toLowerCase());
}

/** socket.io's allowRequest: a handshake from another site's page is refused before it is a socket. */
export function socketOriginCheck(allowed: readonly string[]) {
  return (request: IncomingMessage, callback: (error: string | null | undefined, success: boolean) => void) => {
    const origin = request.headers.origin;
    callback(null, originAllowed(origin, request.headers.host, allowed));
  };
}
