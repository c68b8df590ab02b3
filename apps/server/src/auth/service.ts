/**
 * Accounts: registration, sign-in, sessions, e-mail verification, password reset and change, profile,
 * export and deletion. Handlers in routes.ts call these after the protocol schemas have checked input.
 */
import { randomInt } from 'node:crypto';
import {
  AUTH_TEXTS,
  type AccountExport,
  type GameRecord,
  GUEST_USERNAME_PREFIX,
  type Preferences,
  ROOM_CODE_ALPHABET,
  SERVER_TEXTS,
  type User,
} from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { tournamentParticipants, tournaments, walletLedger } from '../db/schema.ts';
import { AppError, badRequest, conflict, unauthorized } from '../http/errors.ts';
import { type Mail, type Mailer, passwordResetMail, verificationMail } from '../mail/mailer.ts';
import {
  type UserRow,
  bumpTokenVersion,
  deleteUser,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertGuest,
  insertUser,
  presentUser,
  promoteGuest,
  tokenEpochOf,
  tokenVersionsOf,
  updateUser,
} from '../users/repository.ts';
import { takenConflict } from './conflicts.ts';
import { issueLink, linkIsLive, redeemLink, retireLinks } from './links.ts';
import { keepOnlyNetwork } from './login-networks.ts';
import { TokenVersions } from './token-versions.ts';
import { assertAcceptablePassword } from './password-rules.ts';
import { hashPassword, verifyAgainstDecoy, verifyLogin, verifyPassword } from './passwords.ts';
import type { SessionTokens } from './tokens.ts';

export interface Session {
  readonly token: string;
  readonly user: User;
}

/**
 * Ends a user's live connections once their tokens are revoked (logout, refresh, password change or
 * reset, account deletion). The gateway implements it with `io.in(\`user:${id}\`).disconnectSockets(true)`:
 * in process today, and on every node once socket.io runs with its Redis adapter (cluster mode), since
 * the adapter fans that call out. Sockets on a node that missed it are still caught when they act:
 * the gateway re-checks their token version (below) before every event.
 */
export interface SessionRevocations {
  revoke(userId: string): void;
}

/** What registering (or a guest becoming an account) takes. */
type AccountInput = { readonly username: string; readonly email: string; readonly password: string };

export class AuthService {
  readonly #db: Db;
  readonly #tokens: SessionTokens;
  readonly #mailer: Mailer;
  readonly #config: Config;
  readonly #onMailError: (error: unknown, mail: Mail) => void;
  readonly #onBackgroundError: (error: unknown, task: string) => void;
  readonly #gameRecords: (userId: string) => Promise<GameRecord[]>;
  /** Work done after the answer went out (forgot-password, resend-verification). */
  readonly #background = new Set<Promise<void>>();

  constructor(deps: {
    db: Db;
    tokens: SessionTokens;
    mailer: Mailer;
    config: Config;
    onMailError: (error: unknown, mail: Mail) => void;
    onBackgroundError?: (error: unknown, task: string) => void;
    /** A user's finished games, newest first, for the account export (games/records.ts; accounts sit below games). */
    gameRecords: (userId: string) => Promise<GameRecord[]>;
  }) {
    this.#db = deps.db;
    this.#tokens = deps.tokens;
    this.#mailer = deps.mailer;
    this.#config = deps.config;
    this.#onMailError = deps.onMailError;
    this.#onBackgroundError = deps.onBackgroundError ?? (() => {});
    this.#gameRecords = deps.gameRecords;
    this.#versions = new TokenVersions(
      (ids) => tokenVersionsOf(this.#db, ids),
      () => tokenEpochOf(this.#db),
      {
        onError: (error) => this.#onBackgroundError(error, 'token version sweep'),
      },
    );
  }

  /** Resolves once the work started after earlier answers is done (the server waits for it on close). */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
  }

  /** Stops the token versions' sweeps and waits for the work in the background (the server is closing). */
  async close(): Promise<void> {
    this.#versions.close();
    await this.settled();
  }

  #later(task: string, work: () => Promise<void>): void {
    const running: Promise<void> = work()
      .catch((error: unknown) => this.#onBackgroundError(error, task))
      .finally(() => this.#background.delete(running));
    this.#background.add(running);
  }

  readonly #beforeDeletion: ((user: { id: string; username: string }) => Promise<void>)[] = [];
  readonly #revocations: SessionRevocations[] = [];
  readonly #versions: TokenVersions;

  /** Who ends live connections when a user's tokens are revoked (the socket gateway). */
  onRevoked(revocations: SessionRevocations): void {
    this.#revocations.push(revocations);
  }

  /** Others that hold an account's data in memory (game rooms) let go of it before it is deleted. */
  beforeAccountDeletion(hook: (user: { id: string; username: string }) => Promise<void>): void {
    this.#beforeDeletion.push(hook);
  }

  get requireEmailVerification(): boolean {
    return this.#config.requireEmailVerification;
  }

  /** The signed-in user behind a bearer token, or null when it is missing, bad, expired or revoked. */
  async authenticate(token: string): Promise<UserRow | null> {
    const claims = await this.#tokens.verify(token);
    if (!claims) return null;
    const readAt = this.#versions.now();
    const user = await findUserById(this.#db, claims.userId);
    this.#versions.remember(claims.userId, user?.tokenVersion ?? null, readAt);
    return user && user.tokenVersion === claims.tokenVersion ? user : null;
  }

  /**
   * The user's current token version (null once the account is gone): what a live socket is checked
   * against when it acts, never older than TOKEN_VERSION_RECHECK_MS (token-versions.ts).
   */
  currentTokenVersion(userId: string): Promise<number | null> {
    return this.#versions.current(userId);
  }

  /** Every token of the user issued before now stops working; their open sockets are closed. */
  #revoked(userId: string, version: number | null): void {
    this.#versions.remember(userId, version);
    for (const revocations of this.#revocations) revocations.revoke(userId);
  }

  present(user: UserRow): Promise<User> {
    return presentUser(this.#db, user);
  }

  async session(user: UserRow): Promise<Session> {
    const token = await this.#tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion });
    return { token, user: await this.present(user) };
  }

  register(input: AccountInput): Promise<UserRow> {
    return this.#account(input, (tx, passwordHash) =>
      insertUser(tx, { username: input.username, email: input.email, passwordHash }),
    );
  }

  /**
   * A guest becomes an account: the same user (its games, stats and level stay) with a name, an
   * address and a password of its own. Its address is unverified until the mailed link is used, as a
   * new account's. One statement turns the guest into the account only while it still is a guest, so
   * of two concurrent upgrades exactly one wins (the other gets 409), and it raises the token version:
   * the guest token is dead afterwards and its sockets are closed (docs/accounts.md).
   */
  async upgradeGuest(guest: UserRow, input: AccountInput): Promise<UserRow> {
    if (!guest.isGuest) throw conflict(SERVER_TEXTS.notAGuest);
    const upgraded = await this.#account(input, async (tx, passwordHash) => {
      const row = await promoteGuest(tx, guest.id, { username: input.username, email: input.email, passwordHash });
      if (!row) throw conflict(SERVER_TEXTS.notAGuest);
      return row;
    });
    this.#revoked(upgraded.id, upgraded.tokenVersion);
    return upgraded;
  }

  /**
   * An account's name, address and password, checked, then written by `write` with the verification
   * link in one transaction, and the link mailed.
   */
  async #account(input: AccountInput, write: (tx: Db, passwordHash: string) => Promise<UserRow>): Promise<UserRow> {
    assertAcceptablePassword(input.password, input);
    await this.#assertAvailable(input.username, input.email);
    const passwordHash = await hashPassword(input.password);
    const { user, link } = await this.#db.transaction(async (tx) => {
      const user = await write(tx, passwordHash).catch((error: unknown) => {
        // Two requests racing for one name: the unique index decides, the loser gets a 409.
        if (isUniqueViolation(error)) throw takenConflict(error);
        throw error;
      });
      const link = await issueLink(tx, this.#config.publicUrl, user.id, 'verify-email');
      return { user, link };
    });
    await this.#sendQuietly(verificationMail(user.email, user.username, link));
    return user;
  }

  /** The account a login (username or e-mail address) names, if any. */
  findAccount(login: string): Promise<UserRow | null> {
    return findUserByLogin(this.#db, login);
  }

  /** Checks the password of the account findAccount found (null: none; the same work is done). */
  async login(user: UserRow | null, password: string): Promise<UserRow> {
    const ok = user?.passwordHash ? await verifyLogin(user.passwordHash, password) : await verifyAgainstDecoy(password);
    if (!user || !ok) throw unauthorized(AUTH_TEXTS.invalidCredentials);
    if (this.requireEmailVerification && user.emailVerifiedAt === null) {
      throw new AppError(401, AUTH_TEXTS.verifyBeforeLogin, { requiresEmailVerification: true, email: user.email });
    }
    return user;
  }

  async logout(user: UserRow): Promise<UserRow> {
    const updated = await bumpTokenVersion(this.#db, user.id);
    this.#revoked(user.id, updated.tokenVersion);
    return updated;
  }

  /**
   * POST /auth/refresh rotates: the answer's token is the only one that works afterwards. Tokens are
   * stateless apart from the user's token version, so rotating raises it — which also ends the
   * account's other sessions (other devices sign in again) and closes its sockets.
   */
  async refresh(user: UserRow): Promise<Session> {
    const updated = await bumpTokenVersion(this.#db, user.id);
    this.#revoked(user.id, updated.tokenVersion);
    return this.session(updated);
  }

  /** A guest account `Guest_XXXX` that can play; it has no password and no real address. */
  async demo(): Promise<UserRow> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const suffix = Array.from(
        { length: attempt < 10 ? 4 : 6 },
        () => ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)],
      ).join('');
      const username = `${GUEST_USERNAME_PREFIX}${suffix}`;
      try {
        return await insertGuest(this.#db, { username, email: `${username.toLowerCase()}@guest.invalid` });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error('could not find a free guest name');
  }

  async updateProfile(
    user: UserRow,
    changes: { username?: string; preferences?: Partial<Preferences> },
  ): Promise<UserRow> {
    if (changes.username !== undefined && changes.username.toLowerCase() !== user.username.toLowerCase()) {
      const taken = await findUserByUsername(this.#db, changes.username);
      if (taken) throw conflict(SERVER_TEXTS.usernameTaken, 'username');
    }
    return updateUser(this.#db, user.id, {
      ...(changes.username !== undefined ? { username: changes.username } : {}),
      preferences: { ...user.preferences, ...changes.preferences },
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw conflict(SERVER_TEXTS.usernameTaken, 'username');
      throw error;
    });
  }

  /**
   * Always answers alike and at once: the lookup and the mail happen after the answer, so neither the
   * words nor the time taken tell which addresses have accounts.
   */
  resendVerification(email: string): void {
    this.#later('resend-verification', async () => {
      const user = await findUserByEmail(this.#db, email);
      if (!user || user.isGuest || user.emailVerifiedAt !== null) return;
      const link = await this.#db.transaction((tx) => issueLink(tx, this.#config.publicUrl, user.id, 'verify-email'));
      await this.#sendQuietly(verificationMail(user.email, user.username, link));
    });
  }

  /**
   * Marks the address verified and signs nobody in: a mailed link is not a key to the account
   * (docs/accounts.md). The link is single use and dies with a password reset or change.
   */
  async verifyEmail(token: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const userId = await redeemLink(tx, token, 'verify-email');
      const user = (await findUserById(tx, userId)) as UserRow;
      if (!user.emailVerifiedAt) await updateUser(tx, userId, { emailVerifiedAt: new Date() });
    });
  }

  /** Like resendVerification: answered at once, the work done afterwards. */
  forgotPassword(email: string): void {
    this.#later('forgot-password', async () => {
      const user = await findUserByEmail(this.#db, email);
      if (!user?.passwordHash) return;
      const link = await this.#db.transaction((tx) => issueLink(tx, this.#config.publicUrl, user.id, 'reset-password'));
      await this.#sendQuietly(passwordResetMail(user.email, user.username, link));
    });
  }

  /**
   * A reset proves the address too; every older session and every other unused mailed link ends, and
   * the network it was made from becomes the account's only known one (docs/limits.md).
   */
  async resetPassword(token: string, password: string, network: string): Promise<void> {
    // The link is checked before the costly hash, so a bogus token costs one indexed lookup, no argon2;
    // it is redeemed (single use) in the transaction below.
    if (!(await linkIsLive(this.#db, token, 'reset-password'))) throw badRequest(SERVER_TEXTS.invalidOrExpiredToken);
    const passwordHash = await hashPassword(password);
    const updated = await this.#db.transaction(async (tx) => {
      const userId = await redeemLink(tx, token, 'reset-password');
      const user = (await findUserById(tx, userId)) as UserRow;
      // Refused here, the transaction rolls back and the link stays usable for a better password.
      assertAcceptablePassword(password, user);
      await updateUser(tx, userId, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? new Date() });
      await retireLinks(tx, userId);
      await keepOnlyNetwork(tx, userId, network);
      return bumpTokenVersion(tx, userId);
    });
    this.#revoked(updated.id, updated.tokenVersion);
  }

  async changePassword(user: UserRow, currentPassword: string, newPassword: string, network: string): Promise<UserRow> {
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
      throw badRequest(SERVER_TEXTS.currentPasswordIncorrect);
    }
    assertAcceptablePassword(newPassword, user, 'newPassword');
    const passwordHash = await hashPassword(newPassword);
    const updated = await this.#db.transaction(async (tx) => {
      await updateUser(tx, user.id, { passwordHash });
      await retireLinks(tx, user.id);
      await keepOnlyNetwork(tx, user.id, network);
      return bumpTokenVersion(tx, user.id);
    });
    this.#revoked(user.id, updated.tokenVersion);
    return updated;
  }

  async exportData(user: UserRow): Promise<AccountExport> {
    const [games, ledger, joined] = await Promise.all([
      this.#gameRecords(user.id),
      this.#db.select().from(walletLedger).where(eq(walletLedger.userId, user.id)),
      this.#db
        .select({ tournamentId: tournaments.id, name: tournaments.name, joinedAt: tournamentParticipants.joinedAt })
        .from(tournamentParticipants)
        .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
        .where(eq(tournamentParticipants.userId, user.id)),
    ]);
    return {
      exportedAt: new Date().toISOString(),
      user: await this.present(user),
      games,
      walletLedger: ledger.map((entry) => ({
        id: entry.id,
        amount: Number(entry.amount),
        currency: entry.currency,
        reason: entry.kind === 'tournamentPrize' ? 'tournamentPrize' : 'adjustment',
        tournamentId: entry.kind === 'tournamentPrize' ? entry.reference : null,
        createdAt: entry.createdAt.toISOString(),
      })),
      tournaments: joined.map((t) => ({ ...t, joinedAt: t.joinedAt.toISOString() })),
    };
  }

  /** An account with a password confirms with it; a guest has none to give. */
  async deleteAccount(user: UserRow, password: string | undefined): Promise<void> {
    if (user.passwordHash && !(password !== undefined && (await verifyPassword(user.passwordHash, password)))) {
      throw badRequest(SERVER_TEXTS.currentPasswordIncorrect);
    }
    // Its sockets close and stop acting first, so nothing joins or plays while the account goes.
    // Should the deletion fail, the next handshake reads the account again and lets it back in.
    this.#revoked(user.id, null);
    for (const hook of this.#beforeDeletion) await hook(user);
    await this.#db.transaction((tx) => deleteUser(tx, user.id));
  }

  async #assertAvailable(username: string, email: string): Promise<void> {
    if (await findUserByUsername(this.#db, username)) throw conflict(SERVER_TEXTS.usernameTaken, 'username');
    if (await findUserByEmail(this.#db, email)) throw conflict(SERVER_TEXTS.emailTaken, 'email');
  }

  /** Registration succeeds even if the mail server is down; the user can ask for the mail again. */
  async #sendQuietly(mail: Mail): Promise<void> {
    try {
      await this.#mailer.send(mail);
    } catch (error) {
      this.#onMailError(error, mail);
    }
  }
}
