/** /forgot-password asks for a reset mail; /reset-password sets a new password from the mailed link. */
import { AUTH_TEXTS, VALIDATION_TEXTS, forgotPasswordSchema } from '@memeslam/protocol';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { Button, Field } from '../components/Field.tsx';
import { resetPasswordFormSchema } from '../forms/schemas.ts';
import { useForm } from '../forms/useForm.ts';

export function ForgotPassword() {
  const { values, field, busy, submit } = useForm({ email: '' }, forgotPasswordSchema);
  const [sent, setSent] = useState<string | null>(null);

  async function send() {
    try {
      const { message } = await api('forgotPassword', { body: { email: values.email } });
      setSent(message ?? '');
    } catch {
      // The client's generic toast has spoken.
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
        <form onSubmit={submit(send)} noValidate className="flex flex-col gap-4">
          <Field label="Email" type="email" autoComplete="email" {...field('email')} />
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
  const { values, field, setErrors, busy, submit } = useForm(
    { password: '', confirmPassword: '' },
    resetPasswordFormSchema,
  );

  async function reset() {
    // Every try starts clean: a confirmation error left from the last one may no longer hold.
    setErrors({});
    try {
      const { message } = await api('resetPassword', { body: { token, password: values.password }, quiet: true });
      toast.success(message ?? '');
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : AUTH_TEXTS.verifyFailedPage);
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
      <form onSubmit={submit(reset)} noValidate className="flex flex-col gap-4">
        <Field label="New password" type="password" autoComplete="new-password" {...field('password')} />
        <Field label="Confirm password" type="password" autoComplete="new-password" {...field('confirmPassword')} />
        <Button type="submit" busy={busy}>
          Set new password
        </Button>
      </form>
    </main>
  );
}
