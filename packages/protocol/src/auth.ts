/**
 * Account calls under /api/auth (docs/http-api.md, Accounts). Bodies are
 * strict and carry the validation texts, so the server's 422 and the client's form show
 * the same words.
 */
import * as z from 'zod';
import {
  EMAIL_MAX_LENGTH,
  HIDDEN_NAME_CHARACTERS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from './constants.ts';
import { gameRecordSchema } from './game-record.ts';
import { isoDateSchema } from './primitives.ts';
import { VALIDATION_TEXTS as T } from './texts.ts';
import { userSchema } from './user.ts';
import { strictBody } from './validation.ts';
import { ledgerEntrySchema } from './wallet.ts';

/** A required text: missing, not a string or blank all read as "required" (checks stop there). */
function requiredText(requiredMessage: string) {
  return z.string({ error: requiredMessage }).trim().min(1, { error: requiredMessage, abort: true });
}

export const usernameSchema = requiredText(T.usernameRequired)
  .min(USERNAME_MIN_LENGTH, T.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, T.usernameTooLong)
  .regex(USERNAME_PATTERN, T.usernameCharacters)
  // The pattern already keeps names ASCII; said again so that no later widening lets these through.
  .refine((name) => !HIDDEN_NAME_CHARACTERS.test(name), T.usernameCharacters);

/** E-mail addresses are compared and stored trimmed and lower-cased. */
export function emailSchema(requiredMessage: string = T.emailRequired) {
  return requiredText(requiredMessage)
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH, T.emailInvalid)
    .pipe(z.email({ error: T.emailInvalid }));
}

/** A new password; never trimmed (spaces are characters too). */
export const passwordSchema = z
  .string({ error: T.passwordRequired })
  .min(1, { error: T.passwordRequired, abort: true })
  .min(PASSWORD_MIN_LENGTH, T.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, T.passwordTooLong);

/**
 * A new password may not be the account's username or e-mail address (compared case-insensitively).
 * The common-password list is the server's (too big for the browser); its refusal is shown as sent.
 */
export function passwordIsAccountName(password: string, account: { username?: string; email?: string }): boolean {
  const folded = password.trim().toLowerCase();
  return [account.username, account.email].some((name) => name !== undefined && name.trim().toLowerCase() === folded);
}

function checkPasswordAgainstAccount(
  form: { username: string; email: string; password: string },
  ctx: z.core.$RefinementCtx,
): void {
  if (passwordIsAccountName(form.password, form)) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: T.passwordIsAccountName });
  }
}

/** An existing password: only "required", as the login form checks nothing else. */
function currentPassword(requiredMessage: string) {
  return z.string({ error: requiredMessage }).min(1, requiredMessage).max(PASSWORD_MAX_LENGTH, T.passwordTooLong);
}

/** POST /auth/login: the `email` field carries an e-mail address or a username. */
export const loginSchema = strictBody({
  email: requiredText(T.emailOrUsernameRequired).max(EMAIL_MAX_LENGTH),
  password: currentPassword(T.passwordRequired),
});
export type LoginRequest = z.input<typeof loginSchema>;

/** POST /auth/register. */
export const registerSchema = strictBody({
  username: usernameSchema,
  email: emailSchema(),
  password: passwordSchema,
}).superRefine(checkPasswordAgainstAccount);
export type RegisterRequest = z.input<typeof registerSchema>;

/** The register form adds a confirmation the server never sees. */
export const registerFormSchema = z
  .object({
    username: usernameSchema,
    email: emailSchema(),
    password: passwordSchema,
    confirmPassword: z.string({ error: T.confirmPasswordRequired }).min(1, T.confirmPasswordRequired),
  })
  .superRefine(checkPasswordAgainstAccount)
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: T.passwordsDoNotMatch,
  });

/** PUT /auth/profile: username and preferences, merged; the e-mail address is read-only. */
export const updateProfileSchema = strictBody({
  username: usernameSchema.optional(),
  preferences: strictBody({
    sound: z.boolean().optional(),
    animations: z.boolean().optional(),
    autoPlay: z.boolean().optional(),
  }).optional(),
  /** Named so that sending it gets the profile's own words instead of "Unknown field". */
  email: z.never({ error: T.emailCannotBeChanged }).optional(),
}).transform(({ email: _email, ...changes }) => changes);
export type UpdateProfileRequest = z.input<typeof updateProfileSchema>;

/** POST /auth/resend-verification: an empty address gets the resend page's own text. */
export const resendVerificationSchema = strictBody({ email: emailSchema(T.enterEmail) });

/** POST /auth/verify-email. */
export const verifyEmailSchema = strictBody({ token: requiredText(T.invalidVerificationLink).max(256) });

/** POST /auth/forgot-password. */
export const forgotPasswordSchema = strictBody({ email: emailSchema(T.enterEmail) });

/** POST /auth/reset-password. */
export const resetPasswordSchema = strictBody({
  token: requiredText(T.invalidResetLink).max(256),
  password: passwordSchema,
});

/** POST /auth/change-password: answered with a fresh token, since older ones are revoked. */
export const changePasswordSchema = strictBody({
  currentPassword: currentPassword(T.currentPasswordRequired),
  newPassword: passwordSchema,
});

/** DELETE /auth/account: a password-holding account confirms with its password; a guest has none. */
export const deleteAccountSchema = strictBody({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() }).optional();

/** A signed-in session: login, demo, refresh, change-password and upgrade answer with it. */
export const authSessionSchema = z.object({ token: z.string().min(1), user: userSchema });
export type AuthSession = z.infer<typeof authSessionSchema>;

export const userDataSchema = z.object({ user: userSchema });

/** POST /auth/register's answer when the server asks for verification before the first login. */
export const registrationPendingSchema = z.object({
  success: z.literal(true),
  requiresEmailVerification: z.literal(true),
  message: z.string(),
  data: z.object({ email: z.string() }),
});

/** GET /auth/export: everything stored about the user, as JSON. */
export const accountExportSchema = z.object({
  exportedAt: isoDateSchema,
  user: userSchema,
  games: z.array(gameRecordSchema),
  walletLedger: z.array(ledgerEntrySchema),
  tournaments: z.array(z.object({ tournamentId: z.string(), name: z.string(), joinedAt: isoDateSchema })),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
