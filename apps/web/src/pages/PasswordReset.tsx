/** /forgot-password asks for a reset mail; /reset-password sets a new password from the mailed link. */
import { AUTH_TEXTS, VALIDATION_TEXTS, forgotPasswordSchema, parseWith, passwordSchema } from '@memeslam/protocol';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { Button, Field } from '../components/Field.tsx';

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseWith(forgotPasswordSchema, { email });
    if (!parsed.success) {
      setError(parsed.message);
      return;
    }
    setBusy(true);
    try {
      const { message } = await api('forgotPassword', { body: { email } });
      setSent(message ?? '');
    } catch {
      // The client's generic toast has spoken.
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Forgot your password?</h1>
      {sent !== null ? (
        <p role="status" className="rounded-lg bg-panel p-4">
          {sent}
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
          <Field
            label="Email"
            name="email"
            type="email"
            value={email}
            onChange={(v) => {
              setEmail(v);
              setError(undefined);
            }}
            error={error}
            autoComplete="email"
          />
          <Button type="submit" busy={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
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

export function ResetPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseWith(passwordSchema, password);
    const next: typeof errors = {};
    if (!parsed.success) next.password = parsed.message;
    if (!confirm) next.confirm = VALIDATION_TEXTS.confirmPasswordRequired;
    else if (confirm !== password) next.confirm = VALIDATION_TEXTS.passwordsDoNotMatch;
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      const { message } = await api('resetPassword', { body: { token, password }, quiet: true });
      toast.success(message ?? '');
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : AUTH_TEXTS.verifyFailedPage);
    } finally {
      setBusy(false);
    }
  }

  if (!token) {
    return (
      <main className="mx-auto max-w-md px-4 py-10">
        <h1 className="mb-6 text-3xl font-bold">Reset your password</h1>
        <p role="alert">{VALIDATION_TEXTS.invalidResetLink}</p>
        <Link to="/forgot-password" className="mt-4 inline-block underline">
          Request a new link
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Reset your password</h1>
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <Field
          label="New password"
          name="password"
          type="password"
          value={password}
          onChange={(v) => {
            setPassword(v);
            setErrors((e) => ({ ...e, password: undefined }));
          }}
          error={errors.password}
          autoComplete="new-password"
        />
        <Field
          label="Confirm password"
          name="confirmPassword"
          type="password"
          value={confirm}
          onChange={(v) => {
            setConfirm(v);
            setErrors((e) => ({ ...e, confirm: undefined }));
          }}
          error={errors.confirm}
          autoComplete="new-password"
        />
        <Button type="submit" busy={busy}>
          Set new password
        </Button>
      </form>
    </main>
  );
}
