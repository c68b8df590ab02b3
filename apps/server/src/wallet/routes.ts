/** POST /wallet/nonce and POST /wallet/verify: linking a Solana address to the account. */
import type { HttpRouteName } from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/service.ts';
import { type Answer, type RouteContext, defineRoute } from '../http/route.ts';
import type { UserRow } from '../users/repository.ts';
import { WalletService } from './service.ts';

export function registerWalletRoutes(
  app: FastifyInstance,
  auth: AuthService,
  secret: string,
  clock: { now(): number },
  publicUrl: string,
): void {
  const wallets = new WalletService({ db: app.db, secret, clock, publicUrl });
  const on = <K extends HttpRouteName>(name: K, handler: (ctx: RouteContext<K>) => Promise<Answer<K>>) =>
    defineRoute(app, (token) => auth.authenticate(token), name, handler);
  /** Both routes' access is `user`: defineRoute has already refused a request without one. */
  const me = (user: UserRow | null) => user as UserRow;

  on('walletNonce', async ({ user, body }) => ({ data: await wallets.issueNonce(me(user), body.address) }));

  on('walletVerify', async ({ user, body }) => {
    const updated = await wallets.verify(me(user), body);
    return { data: { wallet: (await auth.present(updated)).wallet } };
  });
}
