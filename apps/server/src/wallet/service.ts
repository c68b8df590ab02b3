/**
 * Linking a Solana wallet (docs/security.md). The server hands out a nonce that needs no
 * storage: random bytes, the issue time and the expiry, sealed with an HMAC (keyed from the server
 * secret) over the user id, the address, the random bytes and both times. So a nonce is only good for
 * the account and the address it was issued for, and only until it expires. The message is in the
 * Sign-In-With-Solana (CAIP-122) shape and names this server's domain and URI (PUBLIC_URL): the
 * server rebuilds it from the nonce and its configuration, checks each field of the signed text the
 * client sends against it (another domain is the phishing case, refused as such), and verifies the
 * signature over its own text. The wallet signs with its ed25519 key; key and signature are base58.
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
import {
  WALLET_CHAIN_ID,
  WALLET_MESSAGE_VERSION,
  WALLET_STATEMENT,
  type WalletMessageFields,
  formatWalletMessage,
  parseWalletMessage,
} from './siws.ts';

/** How long a nonce may be signed and sent back. */
export const WALLET_NONCE_TTL_MS = 5 * 60_000;

const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
const RANDOM_BYTES = 16;
/** Epoch milliseconds in base 36, zero-padded (good for a hundred thousand years). */
const TIME_DIGITS = 10;
/**
 * random (32 hex) · issued-at (10 base 36) · expiry (10 base 36) · HMAC-SHA256 (64 hex): letters and
 * digits only, as SIWS and CAIP-122 want a nonce.
 */
const NONCE_FORMAT = /^([0-9a-f]{32})([0-9a-z]{10})([0-9a-z]{10})([0-9a-f]{64})$/;
/** First key of the two-key advisory lock that serialises linking one address. */
const ADDRESS_LOCK_SPACE = 7_316_002;

export interface WalletServiceDeps {
  readonly db: Db;
  /** The server secret; the HMAC key is derived from it, so it is never used as is. */
  readonly secret: string;
  readonly clock: { now(): number };
  /** The server's public URL (PUBLIC_URL): the message's URI, and its host the message's domain. */
  readonly publicUrl: string;
}

interface OpenedNonce {
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export class WalletService {
  readonly #db: Db;
  readonly #key: Buffer;
  readonly #clock: { now(): number };
  readonly #domain: string;
  readonly #uri: string;

  constructor(deps: WalletServiceDeps) {
    this.#db = deps.db;
    this.#key = createHmac('sha256', deps.secret).update('memeslam wallet nonce v2').digest();
    this.#clock = deps.clock;
    this.#domain = new URL(deps.publicUrl).host;
    this.#uri = deps.publicUrl;
  }

  /** A nonce for `user` to prove `address`, and the exact message the wallet signs. */
  async issueNonce(user: UserRow, address: string): Promise<WalletNonce> {
    const canonical = bs58.encode(decodeAddress(address));
    await this.#assertNotLinkedElsewhere(this.#db, user.id, canonical);
    const random = randomBytes(RANDOM_BYTES).toString('hex');
    const issuedAt = this.#clock.now();
    const expiresAt = issuedAt + WALLET_NONCE_TTL_MS;
    const times = `${time36(issuedAt)}${time36(expiresAt)}`;
    const nonce = `${random}${times}${this.#seal(user.id, canonical, random, issuedAt, expiresAt)}`;
    return {
      nonce,
      message: formatWalletMessage(this.#fields(canonical, nonce, { issuedAt, expiresAt })),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The message's fields as this server issues them for `nonce`. */
  #fields(address: string, nonce: string, opened: OpenedNonce): WalletMessageFields {
    return {
      domain: this.#domain,
      address,
      statement: WALLET_STATEMENT,
      uri: this.#uri,
      version: WALLET_MESSAGE_VERSION,
      chainId: WALLET_CHAIN_ID,
      nonce,
      issuedAt: new Date(opened.issuedAt).toISOString(),
      expirationTime: new Date(opened.expiresAt).toISOString(),
    };
  }

  /**
   * The signed text, checked field by field against the one this server issued for this nonce; the
   * text returned is the server's own (equal to the client's once every field matched).
   */
  #checkedMessage(signed: string, address: string, nonce: string, opened: OpenedNonce): string {
    const expected = this.#fields(address, nonce, opened);
    const given = parseWalletMessage(signed);
    if (!given) throw badRequest(SERVER_TEXTS.invalidWalletMessage);
    if (given.domain !== expected.domain) throw badRequest(SERVER_TEXTS.walletMessageWrongDomain);
    for (const field of Object.keys(expected) as (keyof WalletMessageFields)[]) {
      if (given[field] !== expected[field]) throw badRequest(SERVER_TEXTS.invalidWalletMessage);
    }
    const text = formatWalletMessage(expected);
    if (text !== signed) throw badRequest(SERVER_TEXTS.invalidWalletMessage);
    return text;
  }

  /** Checks the nonce and the signature, then stores the address on the user; returns the updated row. */
  async verify(
    user: UserRow,
    input: { address: string; nonce: string; signature: string; message: string },
  ): Promise<UserRow> {
    const publicKey = decodeAddress(input.address);
    const signature = decodeSignature(input.signature);
    const address = bs58.encode(publicKey);
    const opened = this.#openNonce(input.nonce, user.id, address);
    if (this.#clock.now() > opened.expiresAt) throw badRequest(SERVER_TEXTS.walletNonceExpired);
    const message = this.#checkedMessage(input.message, address, input.nonce, opened);
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

  /** The HMAC (hex) over everything a nonce is bound to. */
  #seal(userId: string, address: string, random: string, issuedAt: number, expiresAt: number): string {
    return createHmac('sha256', this.#key)
      .update(['memeslam-wallet-nonce', userId, address, random, String(issuedAt), String(expiresAt)].join('\n'))
      .digest('hex');
  }

  /** The nonce's times (epoch ms) when it was issued by this server for this user and address. */
  #openNonce(nonce: string, userId: string, address: string): OpenedNonce {
    const [, random, issued, expiry, mac] = NONCE_FORMAT.exec(nonce) ?? [];
    // The format's four groups are all required: a match has them all.
    if (random === undefined || issued === undefined || expiry === undefined || mac === undefined) {
      throw badRequest(SERVER_TEXTS.invalidWalletNonce);
    }
    const issuedAt = parseInt(issued, 36);
    const expiresAt = parseInt(expiry, 36);
    // Compared as text, lowercase hex both: one issued nonce has one spelling.
    const given = Buffer.from(mac, 'utf8');
    const expected = Buffer.from(this.#seal(userId, address, random, issuedAt, expiresAt), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw badRequest(SERVER_TEXTS.invalidWalletNonce);
    }
    return { issuedAt, expiresAt };
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

const time36 = (ms: number) => ms.toString(36).padStart(TIME_DIGITS, '0');

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
