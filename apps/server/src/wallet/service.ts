/**
 * Linking a Solana wallet (DESIGN §5). The server hands out a nonce that needs no storage: random
 * bytes and an expiry, sealed with an HMAC (keyed from the server secret) over the user id, the
 * address, the random bytes and the expiry. So a nonce is only good for the account and the address
 * it was issued for, and only until it expires; the signed message is rebuilt from those, never
 * taken from the client. The wallet signs that message with its ed25519 key; both key and signature
 * are base58.
 */
import { createHmac, createPublicKey, randomBytes, timingSafeEqual, verify } from 'node:crypto';
import { SERVER_TEXTS, type WalletNonce } from '@memeslam/protocol';
import bs58 from 'bs58';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { badRequest, conflict, unauthorized, unprocessable } from '../http/errors.ts';
import { type UserRow, updateUser } from '../users/repository.ts';
import { isUniqueViolation } from '../db/errors.ts';

/** How long a nonce may be signed and sent back. */
export const WALLET_NONCE_TTL_MS = 5 * 60_000;

const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
const RANDOM_BYTES = 16;
/** random (22) "." expiry in base 36 "." HMAC-SHA256 (43), all base64url but the expiry. */
const NONCE_FORMAT = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/;
/** First key of the two-key advisory lock that serialises linking one address. */
const ADDRESS_LOCK_SPACE = 7_316_002;

export interface WalletServiceDeps {
  readonly db: Db;
  /** The server secret; the HMAC key is derived from it, so it is never used as is. */
  readonly secret: string;
  readonly clock: { now(): number };
}

export class WalletService {
  readonly #db: Db;
  readonly #key: Buffer;
  readonly #clock: { now(): number };

  constructor(deps: WalletServiceDeps) {
    this.#db = deps.db;
    this.#key = createHmac('sha256', deps.secret).update('memeslam wallet nonce v1').digest();
    this.#clock = deps.clock;
  }

  /** A nonce for `user` to prove `address`, and the exact message the wallet signs. */
  async issueNonce(user: UserRow, address: string): Promise<WalletNonce> {
    const canonical = bs58.encode(decodeAddress(address));
    await this.#assertNotLinkedElsewhere(this.#db, user.id, canonical);
    const random = randomBytes(RANDOM_BYTES).toString('base64url');
    const expiresAt = this.#clock.now() + WALLET_NONCE_TTL_MS;
    const nonce = `${random}.${expiresAt.toString(36)}.${this.#seal(user.id, canonical, random, expiresAt).toString('base64url')}`;
    return {
      nonce,
      message: walletMessage(canonical, user.id, nonce, expiresAt),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** Checks the nonce and the signature, then stores the address on the user; returns the updated row. */
  async verify(user: UserRow, input: { address: string; nonce: string; signature: string }): Promise<UserRow> {
    const publicKey = decodeAddress(input.address);
    const signature = decodeSignature(input.signature);
    const address = bs58.encode(publicKey);
    const expiresAt = this.#openNonce(input.nonce, user.id, address);
    if (this.#clock.now() > expiresAt) throw badRequest(SERVER_TEXTS.walletNonceExpired);
    const message = walletMessage(address, user.id, input.nonce, expiresAt);
    if (!verifyEd25519(publicKey, message, signature)) throw badRequest(SERVER_TEXTS.invalidWalletSignature);

    return this.#db.transaction(async (tx) => {
      // Two accounts proving one address at the same moment: the lock makes the second one see the first.
      await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK_SPACE}, hashtext(${address}))`);
      await this.#assertNotLinkedElsewhere(tx, user.id, address);
      const updated = await updateUser(tx, user.id, { solanaAddress: address }).catch((error: unknown) => {
        // The unique index settles a race the check above could not see.
        if (isUniqueViolation(error)) throw conflict(SERVER_TEXTS.walletAddressTaken);
        throw error;
      });
      // The account was deleted between authentication and now.
      if (!updated) throw unauthorized(SERVER_TEXTS.authenticationRequired);
      return updated;
    });
  }

  #seal(userId: string, address: string, random: string, expiresAt: number): Buffer {
    return createHmac('sha256', this.#key)
      .update(['memeslam-wallet-nonce', userId, address, random, String(expiresAt)].join('\n'))
      .digest();
  }

  /** The nonce's expiry (epoch ms) when it was issued by this server for this user and address. */
  #openNonce(nonce: string, userId: string, address: string): number {
    const match = NONCE_FORMAT.exec(nonce);
    if (!match) throw badRequest(SERVER_TEXTS.invalidWalletNonce);
    const [, random, expiry, mac] = match as unknown as [string, string, string, string];
    const expiresAt = parseInt(expiry, 36);
    // Compared as text: decoding first would let the spare low bits of the last character vary.
    const given = Buffer.from(mac, 'utf8');
    const expected = Buffer.from(this.#seal(userId, address, random, expiresAt).toString('base64url'), 'utf8');
    if (
      !Number.isSafeInteger(expiresAt) ||
      expiresAt.toString(36) !== expiry ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw badRequest(SERVER_TEXTS.invalidWalletNonce);
    }
    return expiresAt;
  }

  async #assertNotLinkedElsewhere(db: Db, userId: string, address: string): Promise<void> {
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.solanaAddress, address), ne(users.id, userId)))
      .limit(1);
    if (owner) throw conflict(SERVER_TEXTS.walletAddressTaken);
  }
}

/** The text the wallet signs: everything the nonce is bound to, readable in the wallet's prompt. */
export function walletMessage(address: string, userId: string, nonce: string, expiresAt: number): string {
  return [
    'MemeSlam: link this Solana wallet to your account.',
    '',
    `Address: ${address}`,
    `Account: ${userId}`,
    `Nonce: ${nonce}`,
    `Expires: ${new Date(expiresAt).toISOString()}`,
  ].join('\n');
}

function decodeAddress(address: string): Uint8Array {
  const bytes = bs58.decodeUnsafe(address);
  if (!bytes || bytes.length !== PUBLIC_KEY_BYTES) {
    throw unprocessable(SERVER_TEXTS.invalidWalletAddress, [
      { path: 'address', message: SERVER_TEXTS.invalidWalletAddress },
    ]);
  }
  return bytes;
}

function decodeSignature(signature: string): Uint8Array {
  const bytes = bs58.decodeUnsafe(signature);
  if (!bytes || bytes.length !== SIGNATURE_BYTES) {
    throw unprocessable(SERVER_TEXTS.invalidWalletSignature, [
      { path: 'signature', message: SERVER_TEXTS.invalidWalletSignature },
    ]);
  }
  return bytes;
}

/** False for a wrong signature and for bytes that are no ed25519 public key at all. */
function verifyEd25519(publicKey: Uint8Array, message: string, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(message, 'utf8'), key, signature);
  } catch {
    return false;
  }
}
