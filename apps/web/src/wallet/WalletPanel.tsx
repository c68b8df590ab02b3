/**
 * The profile's wallet (docs/security.md, Linking a Solana wallet): the balance and
 * total won, which are sums of the ledger where tournament prizes land, read fresh from the server;
 * the verified Solana address, or linking one by signing the server's Sign-In-With-Solana message
 * (this site's domain, a nonce, issued-at and expiry) with the wallet; the message is shown here while
 * the wallet asks, and sent back with the signature so the server checks each field (docs/security.md).
 */
import type { User } from '@memeslam/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { useFreshUser } from '../dashboard/queries.ts';
import { base58Encode } from './base58.ts';
import { solanaProvider } from './provider.ts';

export const WALLET_UI = {
  title: 'Wallet',
  balance: 'Balance',
  totalWon: 'Total won',
  address: 'Verified Solana wallet',
  notLinked: 'No verified Solana wallet yet. Tournaments that require one ask for it.',
  link: 'Link Solana wallet',
  linking: 'Waiting for your wallet…',
  linked: 'Solana wallet verified',
  noProvider: 'No Solana wallet was found in this browser. Install a wallet extension, then reload this page.',
  linkFailed: 'Could not link the wallet',
  signing: 'Your wallet asks you to sign this message. Sign it only if it names this site:',
} as const;

function amount(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 9 });
}

export function WalletPanel({ user }: { user: User }) {
  const fresh = useFreshUser();
  const queryClient = useQueryClient();
  const [linking, setLinking] = useState(false);
  const [signing, setSigning] = useState<string | null>(null);
  const wallet = (fresh.data ?? user).wallet;
  // SOL prizes are kept apart; shown once there are any (a user stored by an older build may lack them).
  const solTotals: { balance: number; totalWon: number } | undefined = wallet.byCurrency.SOL;
  const sol = solTotals && (solTotals.balance !== 0 || solTotals.totalWon !== 0) ? solTotals : null;

  async function link() {
    const provider = solanaProvider();
    if (!provider) {
      toast.error(WALLET_UI.noProvider);
      return;
    }
    setLinking(true);
    try {
      const { publicKey } = await provider.connect();
      const address = publicKey.toString();
      const { data: nonce } = await api('walletNonce', { body: { address }, quiet: true });
      setSigning(nonce.message);
      const { signature } = await provider.signMessage(new TextEncoder().encode(nonce.message), 'utf8');
      await api('walletVerify', {
        body: { address, nonce: nonce.nonce, message: nonce.message, signature: base58Encode(signature) },
        quiet: true,
      });
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      await queryClient.invalidateQueries({ queryKey: ['tournament'] });
      toast.success(WALLET_UI.linked);
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.message
          ? error.message
          : error instanceof Error && error.message
            ? `${WALLET_UI.linkFailed}: ${error.message}`
            : WALLET_UI.linkFailed,
      );
    } finally {
      setLinking(false);
      setSigning(null);
    }
  }

  return (
    <section id="wallet" aria-labelledby="wallet-title" className="rounded-lg border border-edge bg-panel p-4">
      <h2 id="wallet-title" className="mb-4 text-xl font-semibold">
        {WALLET_UI.title}
      </h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <div>
          <dt className="text-sm text-muted">{WALLET_UI.balance}</dt>
          <dd className="text-2xl font-bold" data-testid="wallet-balance">
            {amount(wallet.balance)} SLAM
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{WALLET_UI.totalWon}</dt>
          <dd className="text-2xl font-bold">{amount(wallet.totalWon)} SLAM</dd>
        </div>
        {sol && (
          <div>
            <dt className="text-sm text-muted">SOL</dt>
            <dd className="text-2xl font-bold">{amount(sol.balance)} SOL</dd>
          </div>
        )}
      </dl>
      <div className="mt-4 border-t border-edge pt-4">
        {wallet.solanaAddress ? (
          <p>
            <span className="block text-sm text-muted">{WALLET_UI.address}</span>
            <span className="font-mono text-sm break-all">{wallet.solanaAddress}</span>
          </p>
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-muted">{WALLET_UI.notLinked}</p>
            <button
              type="button"
              className="rounded-lg border border-gold px-4 py-2 font-semibold text-gold disabled:opacity-60"
              disabled={linking}
              aria-busy={linking}
              onClick={() => void link()}
            >
              {linking ? WALLET_UI.linking : WALLET_UI.link}
            </button>
            {signing && (
              <figure className="w-full" data-testid="wallet-message">
                <figcaption className="mb-1 text-sm text-muted">{WALLET_UI.signing}</figcaption>
                <pre className="overflow-x-auto rounded border border-edge p-2 text-xs whitespace-pre-wrap break-all">
                  {signing}
                </pre>
              </figure>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
