/** "Play as guest": the demo sign-in (a guest account, Guest_XXXX, that can play). */
import { AUTH_TEXTS, SUCCESS_TEXTS } from '@memeslam/protocol';
import { toast } from 'sonner';
import { type BusyOptions, askWhileBusy } from '../api/busy.ts';
import { api } from '../api/http.ts';
import { session } from './session.ts';

/**
 * Signs in as a new guest; false (after saying so) when the server refused. A busy server's 503 with
 * Retry-After is asked again after it (`onLine` tells the page, which shows BusyLine meanwhile).
 */
export async function playAsGuest(onLine?: BusyOptions['onLine']): Promise<boolean> {
  try {
    const { data } = await askWhileBusy(() => api('demo', { quiet: true }), { onLine });
    session.signIn(data.token, data.user, { newAccount: true });
    toast.success(SUCCESS_TEXTS.demoLogin);
    return true;
  } catch {
    toast.error(AUTH_TEXTS.demoLoginFailed);
    return false;
  }
}
