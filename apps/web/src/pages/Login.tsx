/**
 * /login: e-mail or username and password; the verification box when the server asks for it. A busy
 * server's 503 with Retry-After is asked again after it, the page saying the person is in line (api/busy.ts).
 */
import { AUTH_TEXTS, SUCCESS_TEXTS, loginSchema, welcomeBackText } from '@memeslam/protocol';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { askWhileBusy } from '../api/busy.ts';
import { ApiError, api } from '../api/http.ts';
import { returnPath } from '../app/guards.tsx';
import { playAsGuest } from '../auth/guest.ts';
import { session } from '../auth/session.ts';
import { BusyLine } from '../components/BusyLine.tsx';
import { Button, Field } from '../components/Field.tsx';
import { useForm } from '../forms/useForm.ts';

export function Login() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { values, field, errors, setError, busy, submit } = useForm({ email: '', password: '' }, loginSchema);
  const next = returnPath(params);
  const keepFrom = params.get('from') ? `?from=${encodeURIComponent(next)}` : '';
  const [verification, setVerification] = useState<{ email: string; message: string } | null>(null);
  /** When the wait in the server's line began, while the page asks again (null: not in line). */
  const [inLineSince, setInLineSince] = useState<number | null>(null);

  async function signIn() {
    try {
      const { data } = await askWhileBusy(() => api('login', { body: values, quiet: true }), {
        onLine: setInLineSince,
      });
      if (!data?.token || !data.user) throw new Error(AUTH_TEXTS.loginInvalidResponse);
      session.signIn(data.token, data.user);
      toast.success(SUCCESS_TEXTS.loggedIn, { description: welcomeBackText(data.user.username) });
      navigate(next, { replace: true });
    } catch (error) {
      setError('form', undefined);
      if (error instanceof ApiError && error.body?.requiresEmailVerification === true) {
        setVerification({
          email: String(error.body.email ?? values.email),
          message: error.message || AUTH_TEXTS.verifyBeforeLogin,
        });
        toast.error(AUTH_TEXTS.verifyBeforeLoginToast);
      } else if (error instanceof ApiError && error.status === 401) {
        // Said at the form too, where it stays until the next try: a toast alone is gone in 4 s.
        setError('form', AUTH_TEXTS.invalidCredentials);
        toast.error(AUTH_TEXTS.invalidCredentials);
      } else if (error instanceof ApiError && error.status === 429) {
        toast.error(AUTH_TEXTS.tooManyLoginAttempts);
      } else {
        toast.error(error instanceof Error ? error.message : AUTH_TEXTS.loginInvalidResponse);
      }
    }
  }

  async function resend() {
    if (!verification) return;
    try {
      const { message } = await api('resendVerification', { body: { email: verification.email }, quiet: true });
      toast.success(message ?? SUCCESS_TEXTS.verificationSentInbox);
    } catch {
      toast.error(AUTH_TEXTS.resendFailed);
    }
  }

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Sign in</h1>
      {verification && (
        <section
          aria-labelledby="verify-title"
          className="mb-6 rounded-lg border border-yellow-500 bg-yellow-500/10 p-4"
        >
          <h2 id="verify-title" className="font-semibold text-yellow-300">
            {AUTH_TEXTS.verificationRequiredTitle}
          </h2>
          <p className="mt-1 text-sm">{verification.message}</p>
          <div className="mt-3 flex gap-3">
            <Button type="button" onClick={() => void resend()}>
              Resend Email
            </Button>
            <Link to="/resend-verification" className="self-center text-sm underline">
              Verification Help
            </Link>
          </div>
        </section>
      )}
      <form onSubmit={submit(signIn)} noValidate className="flex flex-col gap-4">
        <Field label="Email or username" autoComplete="username" {...field('email')} />
        <Field label="Password" type="password" autoComplete="current-password" {...field('password')} />
        {errors.form && (
          <p role="alert" className="-mt-2 text-sm text-red-400">
            {errors.form}
          </p>
        )}
        {inLineSince !== null && <BusyLine since={inLineSince} />}
        <Button type="submit" busy={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
      <p className="mt-6 flex flex-wrap justify-between gap-3 text-sm text-muted">
        <Link to={`/register${keepFrom}`} className="underline">
          Create an account
        </Link>
        <button
          type="button"
          className="underline"
          disabled={inLineSince !== null}
          onClick={() => void playAsGuest(setInLineSince).then((ok) => ok && navigate(next, { replace: true }))}
        >
          Play as guest
        </button>
        <Link to="/forgot-password" className="underline">
          Forgot password?
        </Link>
      </p>
    </main>
  );
}
