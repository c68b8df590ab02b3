/**
 * How the edge turns a failed schema into the answer a person reads: the first problem as the
 * message, every problem in `errors`. The server's HTTP error handler and its socket acks use the
 * same function, so a body and a payload that fail alike read alike.
 */
import * as z from 'zod';
import { VALIDATION_TEXTS, unknownFieldsText } from './texts.ts';

/**
 * A request body or client payload: unknown fields are refused with their names rather than
 * silently dropped, so a misspelt field is a clear 422 instead of a setting that did nothing.
 */
export function strictBody<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFieldsText(issue.keys) : undefined),
  });
}

/** One problem with a field: `path` is dotted ("prizePool.totalAmount"), empty for the whole body. */
export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

export type Parsed<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly message: string; readonly errors: FieldError[] };

/** Parses without throwing; on failure the message is the first problem, as forms show one at a time. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const errors = fieldErrors(result.error);
  return { success: false, message: errors[0]?.message ?? VALIDATION_TEXTS.invalidRequest, errors };
}
