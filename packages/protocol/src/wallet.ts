/**
 * Linking a Solana wallet: the server hands out a nonce, the user signs its message with
 * the wallet's ed25519 key, and the server checks the signature. Keys and signatures are base58.
 */
import * as z from 'zod';
import { currencySchema, idSchema, isoDateSchema } from './primitives.ts';
import { SERVER_TEXTS } from './texts.ts';
import { walletSchema } from './user.ts';
import { strictBody } from './validation.ts';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** A 32-byte ed25519 public key in base58: 32 to 44 characters. */
export const solanaAddressSchema = z
  .string({ error: SERVER_TEXTS.invalidWalletAddress })
  .trim()
  .regex(BASE58, SERVER_TEXTS.invalidWalletAddress)
  .min(32, SERVER_TEXTS.invalidWalletAddress)
  .max(44, SERVER_TEXTS.invalidWalletAddress);

/** A 64-byte ed25519 signature in base58: 64 to 88 characters. */
export const walletSignatureSchema = z
  .string({ error: SERVER_TEXTS.invalidWalletSignature })
  .regex(BASE58, SERVER_TEXTS.invalidWalletSignature)
  .min(64, SERVER_TEXTS.invalidWalletSignature)
  .max(88, SERVER_TEXTS.invalidWalletSignature);

/** POST /wallet/nonce. */
export const walletNonceSchema = strictBody({ address: solanaAddressSchema });

export const walletNonceDataSchema = z.object({
  nonce: z.string().min(1),
  /**
   * The exact text to sign, in the Sign-In-With-Solana (CAIP-122) shape: the site's domain, the
   * address, a statement, URI, version, chain ID, nonce, issued-at and expiration time.
   */
  message: z.string().min(1),
  expiresAt: isoDateSchema,
});
export type WalletNonce = z.infer<typeof walletNonceDataSchema>;

/** POST /wallet/verify. */
export const walletVerifySchema = strictBody({
  address: solanaAddressSchema,
  nonce: z.string().min(1).max(128),
  signature: walletSignatureSchema,
  /** The message as signed (Sign-In-With-Solana shape): the server checks each field against its own. */
  message: z.string({ error: SERVER_TEXTS.invalidWalletMessage }).min(1).max(2000),
});

export const walletVerifyDataSchema = z.object({ wallet: walletSchema });

/** One movement of a wallet; balance and totalWon are sums of these. */
export const ledgerEntrySchema = z.object({
  id: idSchema,
  amount: z.number(),
  currency: currencySchema,
  reason: z.enum(['tournamentPrize', 'adjustment']),
  tournamentId: idSchema.nullable(),
  createdAt: isoDateSchema,
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
