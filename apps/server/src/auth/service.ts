/**
 * Accounts: registration, sign-in, sessions, e-mail verification, password reset and change, profile,
 * export and deletion. Handlers in routes.ts call these after the protocol schemas have checked input.
 */
import { randomInt } from 'node:crypto';
import {
  AUTH_TEXTS,
  type AccountExport,
  GUEST_USERNAME_PREFIX,
  type Preferences,
  ROOM_CODE_ALPHABET,
  SERVER_TEXTS,
  type User,
} from '@memeslam/protocol';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation, pgError } from '../db/errors.ts';
import { emailTokens, tournamentParticipants, tournaments, walletLedger } from '../db/schema.ts';
import { gameRecordsFor } from '../games/records.ts';
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
  insertUser,
  presentUser,
  updateUser,
} from '../users/repository.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { type SessionTokens, hashLinkToken, newLinkToken } from './tokens.ts';

const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;
type LinkPurpose = (typeof emailTokens.$inferSelect)['purpose'];

export interface Session {
  readonly token: string;
  readonly user: User;
}

export class AuthService {
  readonly #db: Db;
  readonly #tokens: SessionTokens;
  readonly #mailer: Mailer;
  readonly #config: Config;
  readonly #onMailError: (error: unknown, mail: Mail) => void;

  constructor(deps: {
    db: Db;
    tokens: SessionTokens;
    mailer: Mailer;
    config: Config;
    onMailError: (error: unknown, mail: Mail) => void;
  }) {
    this.#db = deps.db;
    this.#tokens = deps.tokens;
    this.#mailer = deps.mailer;
    this.#config = deps.config;
    this.#onMailError = deps.onMailError;
  }

  readonly #beforeDeletion: ((user: { id: string; username: string }) => Promise<void>)[] = [];

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
    const user = await findUserById(this.#db, claims.userId);
    return user && user.tokenVersion === claims.tokenVersion ? user : null;
  }

  present(user: UserRow): Promise<User> {
    return presentUser(this.#db, user);
  }

  async session(user: UserRow): Promise<Session> {
    const token = await this.#tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion });
    return { token, user: await this.present(user) };
  }

  async register(input: { username: string; email: string; password: string }): Promise<UserRow> {
    await this.#assertAvailable(input.username, input.email);
    const passwordHash = await hashPassword(input.password);
    const { user, link } = await this.#db.transaction(async (tx) => {
      const user = await insertUser(tx, { username: input.username, email: input.email, passwordHash }).catch(
        (error: unknown) => {
          // Two registrations racing for one name: the unique index decides, the loser gets a 409.
          if (isUniqueViolation(error)) throw conflict(takenText(error));
          throw error;
        },
      );
      const link = await this.#issueLink(tx, user.id, 'verify-email');
      return { user, link };
    });
    await this.#sendQuietly(verificationMail(user.email, user.username, link));
    return user;
  }

  async login(login: string, password: string): Promise<UserRow> {
    const user = await findUserByLogin(this.#db, login);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, password)
      : await verifyAgainstDecoy(password);
    if (!user || !ok) throw unauthorized(AUTH_TEXTS.invalidCredentials);
    if (this.requireEmailVerification && user.emailVerifiedAt === null) {
      throw new AppError(401, AUTH_TEXTS.verifyBeforeLogin, { requiresEmailVerification: true, email: user.email });
    }
    return user;
  }

  logout(user: UserRow): Promise<UserRow> {
    return bumpTokenVersion(this.#db, user.id);
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
        return await insertUser(this.#db, {
          username,
          email: `${username.toLowerCase()}@guest.invalid`,
          isGuest: true,
        });
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
      if (taken) throw conflict(SERVER_TEXTS.usernameTaken);
    }
    return updateUser(this.#db, user.id, {
      ...(changes.username !== undefined ? { username: changes.username } : {}),
      preferences: { ...user.preferences, ...changes.preferences },
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw conflict(SERVER_TEXTS.usernameTaken);
      throw error;
    });
  }

  /** Always answers alike, so the call does not tell which addresses have accounts. */
  async resendVerification(email: string): Promise<void> {
    const user = await findUserByEmail(this.#db, email);
    if (!user || user.isGuest || user.emailVerifiedAt !== null) return;
    const link = await this.#db.transaction((tx) => this.#issueLink(tx, user.id, 'verify-email'));
    await this.#mailer.send(verificationMail(user.email, user.username, link));
  }

  async verifyEmail(token: string): Promise<UserRow> {
    return this.#db.transaction(async (tx) => {
      const userId = await this.#redeemLink(tx, token, 'verify-email');
      const user = (await findUserById(tx, userId)) as UserRow;
      return user.emailVerifiedAt ? user : updateUser(tx, userId, { emailVerifiedAt: new Date() });
    });
  }

  async forgotPassword(email: string): Promise<void> {
    const user = await findUserByEmail(this.#db, email);
    if (!user?.passwordHash) return;
    const link = await this.#db.transaction((tx) => this.#issueLink(tx, user.id, 'reset-password'));
    await this.#mailer.send(passwordResetMail(user.email, user.username, link));
  }

  /** A reset proves the address too; every older session ends. */
  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.#db.transaction(async (tx) => {
      const userId = await this.#redeemLink(tx, token, 'reset-password');
      const user = (await findUserById(tx, userId)) as UserRow;
      await updateUser(tx, userId, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? new Date() });
      await bumpTokenVersion(tx, userId);
    });
  }

  async changePassword(user: UserRow, currentPassword: string, newPassword: string): Promise<UserRow> {
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
      throw badRequest(SERVER_TEXTS.currentPasswordIncorrect);
    }
    const passwordHash = await hashPassword(newPassword);
    return this.#db.transaction(async (tx) => {
      await updateUser(tx, user.id, { passwordHash });
      return bumpTokenVersion(tx, user.id);
    });
  }

  async exportData(user: UserRow): Promise<AccountExport> {
    const [games, ledger, joined] = await Promise.all([
      gameRecordsFor(this.#db, user.id),
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
    for (const hook of this.#beforeDeletion) await hook(user);
    await this.#db.transaction((tx) => deleteUser(tx, user.id));
  }

  async #assertAvailable(username: string, email: string): Promise<void> {
    if (await findUserByUsername(this.#db, username)) throw conflict(SERVER_TEXTS.usernameTaken);
    if (await findUserByEmail(this.#db, email)) throw conflict(SERVER_TEXTS.emailTaken);
  }

  /** A new single-use link; earlier unused links of the same kind stop working. */
  async #issueLink(db: Db, userId: string, purpose: LinkPurpose): Promise<string> {
    const { token, hash } = newLinkToken();
    const now = new Date();
    await db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    const ttl = purpose === 'verify-email' ? VERIFY_TTL_MS : RESET_TTL_MS;
    await db.insert(emailTokens).values({ userId, purpose, tokenHash: hash, expiresAt: new Date(now.getTime() + ttl) });
    const page = purpose === 'verify-email' ? 'verify-email' : 'reset-password';
    return `${this.#config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
  }

  /** Marks a link used and returns its user; refuses an unknown, used or expired one. */
  async #redeemLink(db: Db, token: string, purpose: LinkPurpose): Promise<string> {
    const [row] = await db
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailTokens.tokenHash, hashLinkToken(token)),
          eq(emailTokens.purpose, purpose),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: emailTokens.userId });
    if (!row) throw badRequest(SERVER_TEXTS.invalidOrExpiredToken);
    return row.userId;
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

/** Which of the two unique fields a racing registration lost on. */
function takenText(error: unknown): string {
  const constraint = String(pgError(error)?.constraint ?? '');
  return constraint.includes('email') ? SERVER_TEXTS.emailTaken : SERVER_TEXTS.usernameTaken;
}
