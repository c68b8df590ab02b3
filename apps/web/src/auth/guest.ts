/** "Play as guest": the demo sign-in (a guest account, Guest_XXXX, that can play). */
import { AUTH_TEXTS, SUCCESS_TEXTS } from '@memeslam/protocol';
import { toast } from 'sonner';
import { api } from '../api/http.ts';
import { session } from './session.ts';

/** Signs in as a new guest; false (after saying so) when the server refused. */
export async function playAsGuest(): Promise<boolean> {
  try {
    const { data } = await api('demo', { quiet: true });
    session.signIn(data.token, data.user, { newAccount: true });
    toast.success(SUCCESS_TEXTS.demoLogin);
    return true;
  } catch {
    toast.error(AUTH_TEXTS.demoLoginFailed);
    return false;
  }
}
