/**
 * One error type for every refusal a handler makes, and the one error handler that turns anything
 * thrown into the `{ success: false, message, errors? }` envelope. A 5xx never shows internals.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type FieldError, HTTP_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

export class AppError extends Error {
  readonly status: number;
  /** Extra envelope fields, e.g. `errors` of a 422 or `requiresEmailVerification`. */
  readonly extra: Record<string, unknown>;
  /** Headers the answer carries, e.g. `retry-after` of a 503. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string = HTTP_TEXTS.accessDenied) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
/** `field`: the body's field the conflict is about, named in `errors` so a form marks it without reading the text. */
export const conflict = (message: string, field?: string) =>
  new AppError(409, message, field === undefined ? {} : { errors: [{ path: field, message }] });
export const unprocessable = (message: string, errors: FieldError[]) => new AppError(422, message, { errors });
export const tooManyRequests = (message: string = HTTP_TEXTS.tooManyRequests) => new AppError(429, message);
/**
 * A ceiling of the server was reached: try again shortly. `retryAfterSeconds`, when the server knows
 * when (the hashing queue's estimate), goes out as Retry-After, which the web app waits before asking again.
 */
export const serverBusy = (retryAfterSeconds?: number) =>
  new AppError(
    503,
    SERVER_TEXTS.serverBusy,
    {},
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

/** Fastify's own 4xx codes (body parsing, content type, size) in the words a person reads. */
const FRAMEWORK_TEXTS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length',
  FST_ERR_BAD_URL: 'Malformed URL',
};

function frameworkMessage(error: FastifyError, status: number): string {
  return status === 429 ? HTTP_TEXTS.tooManyRequests : (FRAMEWORK_TEXTS[error.code] ?? HTTP_TEXTS.invalidRequest);
}

/**
 * Fastify's constructor options that keep its answers before routing (a malformed URL, a bad
 * content-type header) and to broken HTTP (a header too large, a client timeout) in the envelope.
 */
export const envelopeOptions = {
  frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    void reply.code(status).send({ success: false, message: frameworkMessage(error, status) });
  },
  clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({
      success: false,
      message: status === 400 ? HTTP_TEXTS.invalidRequest : (STATUS_CODES[status] ?? HTTP_TEXTS.invalidRequest),
    });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;

/**
 * The error handler, and JSON bodies read with Fastify's own parser (prototype-poisoning checks
 * included) except that an empty body with a JSON content type is taken as no body, not refused.
 */
export function installErrorHandler(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    // Fastify's JSON parser answers through `done`; handing back what it returns keeps Fastify in charge
    // of a parser that returns a promise instead (its type allows both kinds).
    return parseJson(request, body as string, done);
  });
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ success: false, message: error.message, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ success: false, message: frameworkMessage(error, status) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ success: false, message: SERVER_TEXTS.internalError });
  });
}
