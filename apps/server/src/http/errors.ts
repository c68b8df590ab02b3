/**
 * One error type for every refusal a handler makes, and the one error handler that turns anything
 * thrown into the `{ success: false, message, errors? }` envelope. A 5xx never shows internals.
 */
import { type FieldError, HTTP_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyError, FastifyInstance } from 'fastify';

export class AppError extends Error {
  readonly status: number;
  /** Extra envelope fields, e.g. `errors` of a 422 or `requiresEmailVerification`. */
  readonly extra: Record<string, unknown>;

  constructor(status: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string = HTTP_TEXTS.accessDenied) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const unprocessable = (message: string, errors: FieldError[]) => new AppError(422, message, { errors });
export const tooManyRequests = (message: string = HTTP_TEXTS.tooManyRequests) => new AppError(429, message);

/** Fastify's own 4xx codes (body parsing, content type, size) in the words a person reads. */
const FRAMEWORK_TEXTS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send({ success: false, message: error.message, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 429 ? HTTP_TEXTS.tooManyRequests : (FRAMEWORK_TEXTS[error.code] ?? HTTP_TEXTS.invalidRequest);
      return reply.code(status).send({ success: false, message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ success: false, message: SERVER_TEXTS.internalError });
  });
}
