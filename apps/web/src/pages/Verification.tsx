/** /verify-email (verifying, success, error) and /resend-verification, with their redirects. */
import {
  AUTH_TEXTS,
  RESEND_VERIFICATION_REDIRECT_MS,
  SUCCESS_TEXTS,
  VALIDATION_TEXTS,
  VERIFY_EMAIL_REDIRECT_MS,
} from '@memeslam/protocol';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { session } from '../auth/session.ts';
import { Button, Field } from '../components/Field.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { resendFormSchema } from '../forms/schemas.ts';
import { useForm } from '../forms/useForm.ts';

type VerifyState = { kind: 'verifying' } | { kind: 'success' } | { kind: 'error'; message: string };

export function VerifyEmail() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [state, setState] = useState<VerifyState>(
    token ? { kind: 'verifying' } : { kind: 'error', message: VALIDATION_TEXTS.invalidVerificationLink },
  );
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    api('verifyEmail', { body: { token }, quiet: true }).then(
      () => {
        // The link verifies the address and signs nobody in (docs/accounts.md): a browser that is not
        // signed in ends on the login page by the dashboard's guard. One that is signed in reads its
        // account again, so it shows the address as verified.
        if (session.get().token) {
          void api('me', { quiet: true }).then(
            ({ data }) => session.setUser(data.user),
            () => undefined,
          );
        }
        setState({ kind: 'success' });
      },
      (error: unknown) => {
        setState({
          kind: 'error',
          message: error instanceof ApiError && error.message ? error.message : AUTH_TEXTS.verifyFailedPage,
        });
        toast.error(AUTH_TEXTS.verifyFailedToast);
      },
    );
  }, [token]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = setTimeout(() => navigate('/dashboard', { replace: true }), VERIFY_EMAIL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  return (
    <main className="mx-auto max-w-md px-4 py-10 text-center">
      <h1 className="mb-6 text-3xl font-bold">Email verification</h1>
      {state.kind === 'verifying' && <Spinner label="Verifying" />}
      {state.kind === 'success' && (
        <>
          <p role="status">{AUTH_TEXTS.emailVerified}</p>
          <Button type="button" className="mt-6" onClick={() => navigate('/dashboard', { replace: true })}>
            Go to Dashboard Now
          </Button>
        </>
      )}
      {state.kind === 'error' && (
        <>
          <p role="alert">{state.message}</p>
          <div className="mt-6 flex justify-center gap-3">
            <Link to="/login" className="rounded-lg border border-edge px-4 py-2">
              Go to Login
            </Link>
            <button
              type="button"
              className="rounded-lg border border-edge px-4 py-2"
              onClick={() => toast.info(AUTH_TEXTS.useResendFromLogin)}
            >
              Request New Verification Email
            </button>
          </div>
        </>
      )}
    </main>
  );
}

export function ResendVerification() {
  const navigate = useNavigate();
  // A blank address is said by a toast, not under the field.
  const { values, setField, busy, submit } = useForm({ email: '' }, resendFormSchema, {
    onInvalid: () => toast.error(VALIDATION_TEXTS.enterEmail),
  });
  const [sent, setSent] = useState(false);
  // The server's refusal stays until the next try, whatever is typed meanwhile.
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => navigate('/login'), RESEND_VERIFICATION_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  async function resend() {
    setError(null);
    try {
      await api('resendVerification', { body: { email: values.email }, quiet: true });
      toast.success(SUCCESS_TEXTS.verificationSent);
      setSent(true);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.message ? failure.message : AUTH_TEXTS.resendFailedPage);
      toast.error(AUTH_TEXTS.resendFailed);
    }
  }

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Resend verification email</h1>
      {sent ? (
        <p role="status">{SUCCESS_TEXTS.verificationSentInbox}</p>
      ) : (
        <form onSubmit={submit(resend)} noValidate className="flex flex-col gap-4">
          <Field
            label="Email"
            name="email"
            type="email"
            value={values.email}
            onChange={(v) => setField('email', v)}
            autoComplete="email"
          />
          {error && (
            <p role="alert" className="text-sm text-red-400">
              {error}
            </p>
          )}
          <Button type="submit" busy={busy}>
            {busy ? 'Sending...' : 'Send Verification Email'}
          </Button>
        </form>
      )}
      <p className="mt-6 text-sm">
        <Link to="/login" className="underline">
          Back to Login
        </Link>
      </p>
    </main>
  );
}
