/**
 * The wallet-link message in the Sign-In-With-Solana shape (CAIP-122, as Phantom and other wallets
 * read it): a wallet that knows the format compares `domain` with the page asking for the signature
 * and warns on a mismatch, and the server refuses a message for any other domain (docs/security.md).
 */

/** SIWS's chain ID for Solana's main network, where prizes are paid. */
export const WALLET_CHAIN_ID = 'mainnet';
export const WALLET_MESSAGE_VERSION = '1';
export const WALLET_STATEMENT = 'Link this Solana wallet to your MemeSlam account.';

export interface WalletMessageFields {
  /** RFC 3986 authority (host and port) of the server's public URL. */
  readonly domain: string;
  readonly address: string;
  readonly statement: string;
  /** The server's public URL. */
  readonly uri: string;
  readonly version: string;
  readonly chainId: string;
  readonly nonce: string;
  /** ISO 8601, as the server issued it. */
  readonly issuedAt: string;
  readonly expirationTime: string;
}

/** The exact text the wallet signs. */
export function formatWalletMessage(f: WalletMessageFields): string {
  return [
    `${f.domain} wants you to sign in with your Solana account:`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
    `Expiration Time: ${f.expirationTime}`,
  ].join('\n');
}

const HEADER = / wants you to sign in with your Solana account:$/;
const FIELDS = [
  ['uri', 'URI: '],
  ['version', 'Version: '],
  ['chainId', 'Chain ID: '],
  ['nonce', 'Nonce: '],
  ['issuedAt', 'Issued At: '],
  ['expirationTime', 'Expiration Time: '],
] as const;

/** The fields of a message in that shape (every field present, in order), or null. */
export function parseWalletMessage(text: string): WalletMessageFields | null {
  const lines = text.split('\n');
  if (lines.length !== 5 + FIELDS.length) return null;
  const [header, address, blank1, statement, blank2, ...rest] = lines as [string, string, string, string, string];
  if (!HEADER.test(header) || blank1 !== '' || blank2 !== '' || !address || !statement) return null;
  const fields: Record<string, string> = {};
  for (const [index, [name, prefix]] of FIELDS.entries()) {
    const line = rest[index] ?? '';
    if (!line.startsWith(prefix)) return null;
    fields[name] = line.slice(prefix.length);
  }
  return {
    domain: header.replace(HEADER, ''),
    address,
    statement,
    uri: fields.uri ?? '',
    version: fields.version ?? '',
    chainId: fields.chainId ?? '',
    nonce: fields.nonce ?? '',
    issuedAt: fields.issuedAt ?? '',
    expirationTime: fields.expirationTime ?? '',
  };
}
