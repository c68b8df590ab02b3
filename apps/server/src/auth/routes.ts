/** The account routes under /api/auth (docs/http-api.md, Accounts). */
import { AUTH_TEXTS, type HttpRouteName, SERVER_TEXTS, SUCCESS_TEXTS } from '@memeslam/protocol';
import type { FastifyInstance } from 'fastify';
import { type Answer, type RouteContext, defineRoute } from '../http/route.ts';
import { networkOf } from '../networks.ts';
import type { RateLimiter } from '../http/rate-limits.ts';
import type { UserRow } from '../users/repository.ts';
import { setLoginAccount } from './login-account.ts';
import { hashQueue } from './passwords.ts';
import type { AuthService } from './service.ts';

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, limit: RateLimiter): void {
  const on = <K extends HttpRouteName>(name: K, handler: (ctx: RouteContext<K>) => Promise<Answer<K>>) =>
    defineRoute(app, (token) => auth.authenticate(token), name, handler);
  /** On routes whose access is `user`, defineRoute has already refused a request without one. */
  const me = (user: UserRow | null) => user as UserRow;

  // A request the hashing line would refuse (docs/limits.md) is refused first, before the network's
  // limit counts it and before its lookups: a person asking again after Retry-After spends none of
  // the 5 registrations or 10 sign-ins a minute of their network on a busy server's refusals.
  on('register', async ({ body, request }) => {
    hashQueue.assertRoom('other');
    await limit(request, 'registerPerIp');
    const user = await auth.register(body);
    if (auth.requireEmailVerification) return { status: 201, envelope: pendingVerification(user.email) };
    return { status: 201, data: await auth.session(user), message: SUCCESS_TEXTS.accountCreated };
  });

  on('login', async ({ body, request }) => {
    hashQueue.assertRoom('login');
    await limit(request, 'loginPerIp');
    const account = await auth.findAccount(body.email);
    setLoginAccount(request, account, body.email);
    await limit(request, 'loginPerAccount');
    // Per account across every network too; past it only known networks may try (docs/limits.md).
    const user = await limit.login(request, account, body.email, () => auth.login(account, body.password));
    return { data: await auth.session(user), message: SUCCESS_TEXTS.loggedIn };
  });

  on('logout', async ({ user }) => {
    await auth.logout(me(user));
    return { data: null, message: SUCCESS_TEXTS.loggedOut };
  });

  on('me', async ({ user }) => ({ data: { user: await auth.present(me(user)) } }));

  on('updateProfile', async ({ user, body }) => {
    const updated = await auth.updateProfile(me(user), body);
    return { data: { user: await auth.present(updated) }, message: SUCCESS_TEXTS.profileUpdated };
  });

  on('refresh', async ({ user }) => ({ data: await auth.refresh(me(user)) }));

  on('demo', async ({ request }) => {
    await limit(request, 'guestsPerIp');
    return { status: 201, data: await auth.session(await auth.demo()), message: SUCCESS_TEXTS.demoLogin };
  });

  on('upgradeGuest', async ({ user, body, request }) => {
    hashQueue.assertRoom('other');
    await limit(request, 'registerPerIp');
    const upgraded = await auth.upgradeGuest(me(user), body);
    // The guest token is dead now. With verification required the answer is registration's: no
    // session until the mailed link is used and the account signs in (docs/accounts.md).
    if (auth.requireEmailVerification) return { envelope: pendingVerification(upgraded.email) };
    return { data: await auth.session(upgraded), message: SERVER_TEXTS.guestUpgraded };
  });

  on('resendVerification', async ({ body, request }) => {
    await limit(request, 'verificationMailPerIp', 'verificationMailPerAddress');
    auth.resendVerification(body.email);
    return { data: null, message: SUCCESS_TEXTS.verificationSentInbox };
  });

  // A mailed link verifies the address and signs nobody in (docs/accounts.md).
  on('verifyEmail', async ({ body }) => {
    await auth.verifyEmail(body.token);
    return { data: null, message: AUTH_TEXTS.emailVerified };
  });

  on('forgotPassword', async ({ body, request }) => {
    await limit(request, 'resetMailPerIp', 'resetMailPerAddress');
    auth.forgotPassword(body.email);
    return { data: null, message: SERVER_TEXTS.resetMailSent };
  });

  on('resetPassword', async ({ body, request }) => {
    await limit(request, 'resetPasswordPerIp');
    await auth.resetPassword(body.token, body.password, networkOf(request.ip));
    return { data: null, message: SERVER_TEXTS.passwordReset };
  });

  on('changePassword', async ({ user, body, request }) => {
    await limit.passwordCheck(request, me(user).id);
    const updated = await auth.changePassword(me(user), body.currentPassword, body.newPassword, networkOf(request.ip));
    return { data: await auth.session(updated), message: SERVER_TEXTS.passwordChanged };
  });

  on('exportAccount', async ({ user, reply }) => {
    reply.header('content-disposition', 'attachment; filename="memeslam-account.json"');
    return { data: await auth.exportData(me(user)) };
  });

  on('deleteAccount', async ({ user, body, request }) => {
    await limit.passwordCheck(request, me(user).id);
    await auth.deleteAccount(me(user), body?.password);
    return { data: null, message: SERVER_TEXTS.accountDeleted };
  });
}

/** Registration's (and a guest upgrade's) answer while the address awaits its mailed link. */
function pendingVerification(email: string) {
  return {
    success: true,
    requiresEmailVerification: true,
    message: SUCCESS_TEXTS.registrationCheckEmail,
    data: { email },
  } as const;
}
