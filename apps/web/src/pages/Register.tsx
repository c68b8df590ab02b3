/**
 * /register: the form with its client-side rules (an error clears when its field is edited), and the
 * guest sign-in. A signed-in guest gets the same form to become an account, keeping its games, stats
 * and level. A busy server's 503 with Retry-After is asked again after it, the page saying the person
 * is in line meanwhile (api/busy.ts).
 */
import { AUTH_TEXTS, SERVER_TEXTS, SUCCESS_TEXTS, VALIDATION_TEXTS, registerFormSchema } from '@memeslam/protocol';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { askWhileBusy } from '../api/busy.ts';
import { ApiError, api } from '../api/http.ts';
import { returnPath } from '../app/guards.tsx';
import { playAsGuest } from '../auth/guest.ts';
import { session, useSession } from '../auth/session.ts';
import { BusyLine } from '../components/BusyLine.tsx';
import { Button, Field } from '../components/Field.tsx';
import { useForm } from '../forms/useForm.ts';

export function Register() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where to go once in: the page that sent here (an invite's lobby, say), else the dashboard.
  const next = returnPath(params);
  const keepFrom = params.get('from') ? `?from=${encodeURIComponent(next)}` : '';
  const { values, field, setError, busy, submit } = useForm(
    { username: '', email: '', password: '', confirmPassword: '' },
    registerFormSchema,
  );

  const upgrading = useSession().user?.isGuest === true;
  /** When the wait in the server's line began, while the page asks again (null: not in line). */
  const [inLineSince, setInLineSince] = useState<number | null>(null);
  const inLine = { onLine: setInLineSince };

  async function register() {
    try {
      const { username, email, password } = values;
      if (upgrading) {
        const { data, message, raw } = await askWhileBusy(
          () => api('upgradeGuest', { body: { username, email, password }, quiet: true }),
          inLine,
        );
        if (raw.requiresEmailVerification === true) {
          // As a registration: the guest session ended with the upgrade, and the account signs in once
          // its address is verified (docs/accounts.md).
          session.clear();
          toast.success(SUCCESS_TEXTS.registrationCheckEmail);
          navigate(`/login${keepFrom}`, { replace: true });
          return;
        }
        session.signIn(data.token, data.user);
        toast.success(message ?? SERVER_TEXTS.guestUpgraded);
        navigate(next, { replace: true });
        return;
      }
      const { data, raw } = await askWhileBusy(
        () => api('register', { body: { username, email, password }, quiet: true }),
        inLine,
      );
      if (raw.requiresEmailVerification === true) {
        toast.success(SUCCESS_TEXTS.registrationCheckEmail);
        navigate(`/login${keepFrom}`);
        return;
      }
      if (!data?.token || !data.user) throw new Error(AUTH_TEXTS.registrationInvalidResponse);
      session.signIn(data.token, data.user, { newAccount: true });
      toast.success(SUCCESS_TEXTS.accountCreated);
      navigate(next, { replace: true });
    } catch (error) {
      // A name or address taken (409), or the server's own password checks (422, a common password):
      // shown on the field the server names, as it words them.
      if (error instanceof ApiError) {
        const field = error.field;
        if (error.status === 409 && (field === 'email' || field === 'username')) setError(field, error.message);
        if (error.status === 422 && field === 'password') setError('password', error.message);
      }
      toast.error(error instanceof ApiError && error.message ? error.message : AUTH_TEXTS.registrationFailed);
    }
  }

  async function demo() {
    if (await playAsGuest(setInLineSince)) navigate(next, { replace: true });
  }

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Create your account</h1>
      {upgrading && <p className="-mt-3 mb-6 text-muted">Your games, stats and level as a guest come with you.</p>}
      <form onSubmit={submit(register)} noValidate className="flex flex-col gap-4">
        <Field label="Username" autoComplete="username" {...field('username')} />
        <Field label="Email" type="email" autoComplete="email" {...field('email')} />
        <Field label="Password" type="password" autoComplete="new-password" {...field('password')} />
        <p className="-mt-2 text-xs text-muted">{VALIDATION_TEXTS.passwordRule}</p>
        <Field label="Confirm password" type="password" autoComplete="new-password" {...field('confirmPassword')} />
        <p className="text-xs text-muted">
          By creating an account you agree to the{' '}
          <Link to="/terms" className="underline">
            terms of service
          </Link>{' '}
          and the{' '}
          <Link to="/privacy" className="underline">
            privacy policy
          </Link>
          .
        </p>
        {inLineSince !== null && <BusyLine since={inLineSince} />}
        <Button type="submit" busy={busy}>
          {busy ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      {!upgrading && (
        <div className="mt-6 flex items-center justify-between text-sm text-muted">
          <Link to={`/login${keepFrom}`} className="underline">
            Already have an account? Sign in
          </Link>
          <button type="button" className="underline" disabled={inLineSince !== null} onClick={() => void demo()}>
            Play as guest
          </button>
        </div>
      )}
    </main>
  );
}
