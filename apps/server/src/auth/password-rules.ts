/**
 * The password rule beyond the protocol schema's length: not the account's username or e-mail
 * address, and not one of the common passwords of `@zxcvbn-ts/language-common` (about 49,000 from
 * breach lists, most frequent first). The list stays on the server; the web app shows its refusal.
 */
import { VALIDATION_TEXTS, passwordIsAccountName, PASSWORD_MIN_LENGTH } from '@memeslam/protocol';
import { dictionary } from '@zxcvbn-ts/language-common';
import { unprocessable } from '../http/errors.ts';

let common: Set<string> | null = null;

/** Compared lower-cased; entries shorter than the minimum length are refused by that rule already. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN_LENGTH).map((p) => p.toLowerCase()),
  );
  return common.has(password.toLowerCase());
}

/** Throws the 422 a schema failure would give, on `field`, when the new password breaks the rule. */
export function assertAcceptablePassword(
  password: string,
  account: { username: string; email: string },
  field = 'password',
): void {
  const message = passwordIsAccountName(password, account)
    ? VALIDATION_TEXTS.passwordIsAccountName
    : isCommonPassword(password)
      ? VALIDATION_TEXTS.passwordTooCommon
      : null;
  if (message) throw unprocessable(message, [{ path: field, message }]);
}
