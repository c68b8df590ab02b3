import { describe, expect, it } from 'vitest';
import {
  VALIDATION_TEXTS,
  authSessionSchema,
  changePasswordSchema,
  deleteAccountSchema,
  failureEnvelopeSchema,
  forgotPasswordSchema,
  loginSchema,
  parseWith,
  registerFormSchema,
  registerSchema,
  registrationPendingSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  responseSchema,
  successSchemaFor,
  updateProfileSchema,
  userSchema,
  verificationRequiredSchema,
  verifyEmailSchema,
} from '../src/index.ts';
import { user } from './fixtures.ts';

const firstMessage = (schema: Parameters<typeof parseWith>[0], input: unknown) => {
  const result = parseWith(schema, input);
  return result.success ? null : result.message;
};

describe('login', () => {
  it('accepts an e-mail address or a username in the email field', () => {
    expect(loginSchema.parse({ email: ' alice ', password: 'secret1' })).toEqual({
      email: 'alice',
      password: 'secret1',
    });
    expect(loginSchema.safeParse({ email: 'alice@example.com', password: 'x' }).success).toBe(true);
  });

  it('uses the validation texts for missing fields', () => {
    expect(firstMessage(loginSchema, { password: 'secret1' })).toBe('Email or username is required');
    expect(firstMessage(loginSchema, { email: '   ', password: 'secret1' })).toBe('Email or username is required');
    expect(firstMessage(loginSchema, { email: 'alice' })).toBe('Password is required');
    expect(firstMessage(loginSchema, { email: 'alice', password: '' })).toBe('Password is required');
  });

  it('is strict and rejects wrong types', () => {
    expect(firstMessage(loginSchema, { email: 'alice', password: 'secret1', remember: true })).toBe(
      'Unknown field: remember',
    );
    expect(loginSchema.safeParse({ email: 42, password: 'secret1' }).success).toBe(false);
    expect(loginSchema.safeParse(null).success).toBe(false);
  });
});

describe('register', () => {
  const valid = { username: 'Meme_Lord42', email: ' Alice@Example.COM ', password: 'hunter22' };

  it('accepts a valid account and normalises the e-mail address', () => {
    expect(registerSchema.parse(valid)).toEqual({ ...valid, email: 'alice@example.com' });
  });

  it('gives every validation text exactly', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, username: 'ab' }, 'Username must be at least 3 characters'],
      [{ ...valid, username: 'a'.repeat(21) }, 'Username cannot exceed 20 characters'],
      [{ ...valid, username: 'meme lord' }, 'Username can only contain letters, numbers, and underscores'],
      [{ ...valid, username: 'pepe!' }, 'Username can only contain letters, numbers, and underscores'],
      [{ ...valid, email: 'not-an-email' }, 'Email is invalid'],
      [{ ...valid, password: '12345' }, 'Password must be at least 8 characters'],
      [{ ...valid, password: '' }, 'Password is required'],
    ];
    for (const [input, text] of cases) expect(firstMessage(registerSchema, input), text).toBe(text);
  });

  it('allows the boundaries 3 and 20', () => {
    expect(registerSchema.safeParse({ ...valid, username: 'abc' }).success).toBe(true);
    expect(registerSchema.safeParse({ ...valid, username: 'a'.repeat(20) }).success).toBe(true);
    expect(registerSchema.safeParse({ ...valid, password: '1234567' }).success).toBe(false);
    expect(registerSchema.safeParse({ ...valid, password: '12345678' }).success).toBe(true);
  });

  it('reports every problem in errors, by field', () => {
    const result = parseWith(registerSchema, { username: 'a', email: 'b', password: 'c', role: 'admin' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.errors).toEqual(
        expect.arrayContaining([
          { path: 'username', message: 'Username must be at least 3 characters' },
          { path: 'email', message: 'Email is invalid' },
          { path: 'password', message: 'Password must be at least 8 characters' },
          { path: '', message: 'Unknown field: role' },
        ]),
      );
    }
  });

  it('refuses the username or the e-mail address as password, in any case, on the form too', () => {
    for (const password of ['meme_lord42', 'ALICE@example.com']) {
      expect(firstMessage(registerSchema, { ...valid, password })).toBe(VALIDATION_TEXTS.passwordIsAccountName);
      expect(firstMessage(registerFormSchema, { ...valid, password, confirmPassword: password })).toBe(
        VALIDATION_TEXTS.passwordIsAccountName,
      );
    }
  });

  it('the form adds the confirmation texts', () => {
    expect(firstMessage(registerFormSchema, { ...valid, confirmPassword: '' })).toBe('Please confirm your password');
    expect(firstMessage(registerFormSchema, { ...valid, confirmPassword: 'hunter23' })).toBe('Passwords do not match');
    expect(registerFormSchema.safeParse({ ...valid, confirmPassword: 'hunter22' }).success).toBe(true);
  });
});

describe('profile', () => {
  it('accepts username and partial preferences', () => {
    expect(updateProfileSchema.parse({ username: 'newname', preferences: { autoPlay: true } })).toEqual({
      username: 'newname',
      preferences: { autoPlay: true },
    });
    expect(updateProfileSchema.parse({})).toEqual({});
  });

  it('refuses an e-mail change with "Email cannot be changed"', () => {
    expect(firstMessage(updateProfileSchema, { email: 'new@example.com' })).toBe('Email cannot be changed');
    expect(firstMessage(updateProfileSchema, { username: 'ok_name', email: 'alice@example.com' })).toBe(
      'Email cannot be changed',
    );
  });

  it('is strict, nested preferences too, and checks the username rules', () => {
    expect(firstMessage(updateProfileSchema, { role: 'admin' })).toBe('Unknown field: role');
    expect(firstMessage(updateProfileSchema, { preferences: { theme: 'dark' } })).toBe('Unknown field: theme');
    expect(updateProfileSchema.safeParse({ preferences: { sound: 'on' } }).success).toBe(false);
    expect(firstMessage(updateProfileSchema, { username: 'no' })).toBe('Username must be at least 3 characters');
  });
});

describe('verification, passwords and the account', () => {
  it('resend and forgot-password need an address', () => {
    expect(firstMessage(resendVerificationSchema, { email: '' })).toBe('Please enter your email address');
    expect(firstMessage(forgotPasswordSchema, {})).toBe(VALIDATION_TEXTS.enterEmail);
    expect(firstMessage(resendVerificationSchema, { email: 'x' })).toBe('Email is invalid');
    expect(resendVerificationSchema.parse({ email: 'A@B.io' })).toEqual({ email: 'a@b.io' });
  });

  it('verify-email without a token gives the invalid-link text', () => {
    expect(firstMessage(verifyEmailSchema, {})).toBe(
      'Invalid verification link. Please check your email for the correct link.',
    );
    expect(verifyEmailSchema.safeParse({ token: 'abc123' }).success).toBe(true);
  });

  it('reset and change password apply the password rules', () => {
    expect(resetPasswordSchema.safeParse({ token: 't', password: 'newpass1' }).success).toBe(true);
    expect(firstMessage(resetPasswordSchema, { token: 't', password: '123' })).toBe(
      'Password must be at least 8 characters',
    );
    expect(firstMessage(changePasswordSchema, { newPassword: 'newpass1' })).toBe(
      VALIDATION_TEXTS.currentPasswordRequired,
    );
    expect(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: 'newpass1' }).success).toBe(true);
  });

  it('delete-account takes nothing or a password', () => {
    expect(deleteAccountSchema.safeParse(undefined).success).toBe(true);
    expect(deleteAccountSchema.safeParse({ password: 'secret1' }).success).toBe(true);
    expect(deleteAccountSchema.safeParse({ confirm: true }).success).toBe(false);
  });
});

describe('user and envelopes', () => {
  it('accepts a full user and rejects a bad role or negative stats', () => {
    expect(userSchema.safeParse(user).success).toBe(true);
    expect(userSchema.safeParse({ ...user, role: 'owner' }).success).toBe(false);
    expect(userSchema.safeParse({ ...user, stats: { ...user.stats, gamesPlayed: -1 } }).success).toBe(false);
    expect(userSchema.safeParse({ ...user, wallet: { balance: 1, totalWon: 1 } }).success).toBe(false);
  });

  it('shapes success and failure answers', () => {
    const session = { token: 'jwt', user };
    expect(successSchemaFor('login').safeParse({ success: true, data: session }).success).toBe(true);
    expect(
      responseSchema(authSessionSchema).safeParse({ success: false, message: 'Invalid email or password' }).success,
    ).toBe(true);
    expect(
      failureEnvelopeSchema.safeParse({
        success: false,
        message: 'Validation error',
        errors: [{ path: 'email', message: 'Email is invalid' }],
      }).success,
    ).toBe(true);
    expect(failureEnvelopeSchema.safeParse({ success: false }).success).toBe(false);
  });

  it('has the 401 verification variant of login and the pending registration', () => {
    expect(
      verificationRequiredSchema.safeParse({
        success: false,
        message: 'Please verify your email address before logging in',
        requiresEmailVerification: true,
        email: 'alice@example.com',
      }).success,
    ).toBe(true);
    const pending = {
      success: true,
      requiresEmailVerification: true,
      message: 'Registration successful! Please check your email to verify your account.',
      data: { email: 'alice@example.com' },
    };
    expect(registrationPendingSchema.safeParse(pending).success).toBe(true);
    expect(successSchemaFor('register').safeParse(pending).success).toBe(true);
  });
});
