/**
 * Session tokens (JWT HS256 via jose, 7 days) and one-time link tokens (32 random bytes, only their
 * SHA-256 stored). A session token carries the user's token version; raising it revokes the rest.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AUTH_TOKEN_TTL_MS } from '@memeslam/protocol';
import { SignJWT, jwtVerify } from 'jose';

export const SESSION_TTL_SECONDS = AUTH_TOKEN_TTL_MS / 1000;
const ISSUER = 'memeslam';

export interface SessionClaims {
  readonly userId: string;
  readonly tokenVersion: number;
}

export class SessionTokens {
  readonly #key: Uint8Array;

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
  }

  sign(claims: SessionClaims): Promise<string> {
    return new SignJWT({ ver: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
      .sign(this.#key);
  }

  /** The claims of a valid, unexpired token of ours; null for anything else, a token without `exp` too. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        requiredClaims: ['exp', 'sub'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      return { userId: payload.sub, tokenVersion: payload.ver };
    } catch {
      return null;
    }
  }
}

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
