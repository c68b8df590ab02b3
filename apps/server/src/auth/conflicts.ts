/** The 409s of account writes that lost a race on a unique name or address. */
import { SERVER_TEXTS } from '@memeslam/protocol';
import { pgError } from '../db/errors.ts';
import { conflict } from '../http/errors.ts';

/** The 409 of a racing registration, for the unique field it lost on (the index is named after it). */
export function takenConflict(error: unknown) {
  const constraint = String(pgError(error)?.constraint ?? '');
  return constraint.includes('email')
    ? conflict(SERVER_TEXTS.emailTaken, 'email')
    : conflict(SERVER_TEXTS.usernameTaken, 'username');
}
