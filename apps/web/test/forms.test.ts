/**
 * The forms' one helper: a schema's issues become one error per field, the first
 * of each, under the field a form shows them; and the checks of the forms that are not a protocol
 * body as they are, each saying what its form has always said.
 */
import {
  LOBBY_TEXTS,
  VALIDATION_TEXTS as T,
  TOURNAMENT_TEXTS,
  createTournamentSchema,
  loginSchema,
  registerFormSchema,
} from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import {
  changePasswordFormSchema,
  resendFormSchema,
  resetPasswordFormSchema,
  roomCodeFormSchema,
  tournamentErrorField,
  usernameFormSchema,
} from '../src/forms/schemas.ts';
import { check, firstErrors, unchecked } from '../src/forms/useForm.ts';

const asPath = (path: string) => path;

describe('firstErrors', () => {
  it('keeps the first message of each field, in the order the issues came', () => {
    const issues = [
      { path: 'password', message: 'first' },
      { path: 'email', message: 'only' },
      { path: 'password', message: 'second' },
    ];
    expect(firstErrors(issues, asPath)).toEqual({ password: 'first', email: 'only' });
  });

  it('puts issues under the field fieldOf names', () => {
    const issues = [
      { path: 'prizeDistribution.1.amount', message: 'a place' },
      { path: 'prizePool.totalAmount', message: 'the total' },
      { path: 'prizeDistribution', message: 'the sum' },
    ];
    expect(firstErrors(issues, tournamentErrorField)).toEqual({
      prizeDistribution: 'a place',
      totalAmount: 'the total',
    });
  });

  it('no issues, no errors', () => {
    expect(firstErrors([], asPath)).toEqual({});
  });
});

describe('check', () => {
  it('passes on the schema output', () => {
    expect(check(usernameFormSchema, { username: '  meme_lord ' }, asPath)).toEqual({
      ok: true,
      data: { username: 'meme_lord' },
    });
  });

  it('a form with nothing to check always passes, its values as they are', () => {
    const values = { password: '' };
    expect(check(unchecked, values, asPath)).toEqual({ ok: true, data: values });
  });

  it('login: each empty field says it is required', () => {
    expect(check(loginSchema, { email: '', password: '' }, asPath)).toEqual({
      ok: false,
      errors: { email: T.emailOrUsernameRequired, password: T.passwordRequired },
    });
  });

  it('register: one error per field, the first', () => {
    const result = check(
      registerFormSchema,
      { username: '', email: 'not-an-address', password: 'short', confirmPassword: '' },
      asPath,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        username: T.usernameRequired,
        email: T.emailInvalid,
        password: T.passwordTooShort,
        confirmPassword: T.confirmPasswordRequired,
      },
    });
  });

  it('the admin form: an issue shows under the last part of its path, a place under the split', () => {
    const result = check(
      createTournamentSchema,
      { name: '', startDate: '', endDate: '', totalAmount: '', prizeDistribution: [] },
      tournamentErrorField,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      name: TOURNAMENT_TEXTS.nameRequired,
      startDate: TOURNAMENT_TEXTS.startDateRequired,
      endDate: TOURNAMENT_TEXTS.endDateRequired,
      totalAmount: TOURNAMENT_TEXTS.prizeAmountRequired,
    });
  });

  it("the admin form: a place's amount shows under the split", () => {
    const body = {
      name: 'Weekly',
      startDate: '2030-01-01T10:00',
      endDate: '2030-01-02T10:00',
      totalAmount: '100',
      winnersCount: 2,
      prizeDistribution: [
        { position: 1, amount: Number.NaN },
        { position: 2, amount: 50 },
      ],
    };
    const result = check(createTournamentSchema, body, tournamentErrorField);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual(['prizeDistribution']);
  });
});

describe('reset password form', () => {
  it.each([
    ['', '', { password: T.passwordRequired, confirmPassword: T.confirmPasswordRequired }],
    ['', 'something', { password: T.passwordRequired, confirmPassword: T.passwordsDoNotMatch }],
    ['short', 'short', { password: T.passwordTooShort }],
    ['short', 'other', { password: T.passwordTooShort, confirmPassword: T.passwordsDoNotMatch }],
    ['long enough', '', { confirmPassword: T.confirmPasswordRequired }],
    ['long enough', 'long enougH', { confirmPassword: T.passwordsDoNotMatch }],
  ])('password %j, confirmation %j', (password, confirmPassword, errors) => {
    expect(check(resetPasswordFormSchema, { password, confirmPassword }, asPath)).toEqual({ ok: false, errors });
  });

  it('a valid password confirmed passes', () => {
    expect(check(resetPasswordFormSchema, { password: 'long enough', confirmPassword: 'long enough' }, asPath).ok).toBe(
      true,
    );
  });
});

describe('change password form: one error for the dialog', () => {
  const toDialog = () => 'form' as const;
  it.each([
    ['', '', T.currentPasswordRequired],
    ['', 'long enough', T.currentPasswordRequired],
    ['old password', '', T.passwordRequired],
    ['old password', 'short', T.passwordTooShort],
  ])('current %j, new %j', (currentPassword, newPassword, error) => {
    expect(check(changePasswordFormSchema, { currentPassword, newPassword }, toDialog)).toEqual({
      ok: false,
      errors: { form: error },
    });
  });

  it('sends both passwords as typed', () => {
    const values = { currentPassword: ' old ', newPassword: ' long enough ' };
    expect(check(changePasswordFormSchema, values, toDialog)).toEqual({ ok: true, data: values });
  });
});

describe('the forms that only ask for something typed', () => {
  it('join: a blank room code is refused; a code is trimmed', () => {
    expect(check(roomCodeFormSchema, { code: '  ' }, asPath)).toEqual({
      ok: false,
      errors: { code: LOBBY_TEXTS.enterRoomCode },
    });
    expect(check(roomCodeFormSchema, { code: 'ABC123' }, asPath)).toEqual({ ok: true, data: { code: 'ABC123' } });
  });

  it('resend verification: a blank address is refused; the server judges the rest', () => {
    expect(check(resendFormSchema, { email: ' ' }, asPath)).toEqual({ ok: false, errors: { email: T.enterEmail } });
    expect(check(resendFormSchema, { email: 'not-an-address' }, asPath).ok).toBe(true);
  });

  it('profile: a blank username is refused', () => {
    expect(check(usernameFormSchema, { username: '   ' }, asPath)).toEqual({
      ok: false,
      errors: { username: T.usernameRequired },
    });
  });
});
