/**
 * The two shapes every /api answer takes: `{success: true, data}` or
 * `{success: false, message, errors?}`, plus the login refusal that asks for e-mail verification.
 */
import * as z from 'zod';
import { fieldErrorSchema, strictBody } from './validation.ts';

/** A success answer around `data`; some calls add a message the client shows as a toast. */
export function successEnvelope<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

export const failureEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  /** Every problem of a 422, by field; a 409 names the field it is about (a username or e-mail taken). */
  errors: z.array(fieldErrorSchema).optional(),
});
export type Failure = z.infer<typeof failureEnvelopeSchema>;

/** POST /auth/login's 401 when the account's e-mail is not verified yet. */
export const verificationRequiredSchema = failureEnvelopeSchema.extend({
  requiresEmailVerification: z.literal(true),
  email: z.string(),
});
export type VerificationRequired = z.infer<typeof verificationRequiredSchema>;

export interface Success<Data> {
  readonly success: true;
  readonly data: Data;
  readonly message?: string;
}

/** What a call may answer: its success or a failure, told apart by `success`. */
export type ApiResponse<Data> = Success<Data> | Failure;

/** Schema of a whole answer, for a client that checks what it reads. */
export function responseSchema<Data extends z.ZodType>(data: Data) {
  return z.discriminatedUnion('success', [successEnvelope(data), failureEnvelopeSchema]);
}

/** A POST that takes no body: nothing, or an empty object. */
export const noBodySchema = strictBody({}).optional();
/** Calls whose success carries only a message. */
export const noDataSchema = z.null();
