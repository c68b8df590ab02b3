/**
 * The Solana wallet a browser extension injects (window.phantom.solana, or window.solana as most
 * wallets also provide it): connect for the public key, signMessage for an ed25519 signature.
 */
export interface SolanaProvider {
  connect(): Promise<{ publicKey: { toString(): string } }>;
  signMessage(message: Uint8Array, display?: 'utf8'): Promise<{ signature: Uint8Array }>;
}

type WithWallets = Window & { phantom?: { solana?: SolanaProvider }; solana?: SolanaProvider };

export function solanaProvider(): SolanaProvider | null {
  const w = window as WithWallets;
  const provider = w.phantom?.solana ?? w.solana;
  return provider && typeof provider.connect === 'function' && typeof provider.signMessage === 'function'
    ? provider
    : null;
}
