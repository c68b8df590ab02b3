/**
 * The checks of the forms whose fields are not a protocol body as they are. Each says exactly what
 * its form has always said; the words are the protocol's.
 */
import { LOBBY_TEXTS, VALIDATION_TEXTS, passwordSchema, usernameSchema } from '@memeslam/protocol';
import * as z from 'zod';

/** The profile's username, sent trimmed. */
export const usernameFormSchema = z.object({ username: usernameSchema });

/** "Join Existing Game": any code that is not blank; the server says whether it is a room. */
export const roomCodeFormSchema = z.object({ code: z.string().trim().min(1, LOBBY_TEXTS.enterRoomCode) });

/** The resend page asks only for something typed; the server judges the address. */
export const resendFormSchema = z.object({ email: z.string().trim().min(1, VALIDATION_TEXTS.enterEmail) });

/**
 * Setting a new password from the mailed link. The password's rule and the confirmation are
 * checked apart, so both fields can show their error at once (zod skips an object's refinements
 * once a field has failed).
 */
export const resetPasswordFormSchema = z
  .object({ password: z.string(), confirmPassword: z.string() })
  .superRefine(({ password, confirmPassword }, ctx) => {
    for (const issue of passwordSchema.safeParse(password).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: issue.message });
    }
    const confirmError = !confirmPassword
      ? VALIDATION_TEXTS.confirmPasswordRequired
      : confirmPassword !== password
        ? VALIDATION_TEXTS.passwordsDoNotMatch
        : null;
    if (confirmError) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: confirmError });
  });

/** The profile's password change: the current password first, then the new one's rule. */
export const changePasswordFormSchema = z.object({
  currentPassword: z.string().min(1, VALIDATION_TEXTS.currentPasswordRequired),
  newPassword: passwordSchema,
});

/** The admin form shows a place's amount (prizeDistribution.N.amount) under the split, like the sum rule. */
export function tournamentErrorField(path: string): string {
  return path.startsWith('prizeDistribution') ? 'prizeDistribution' : (path.split('.').at(-1) ?? '');
}
