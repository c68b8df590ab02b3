/**
 * The HTTP client (docs/http-api.md): JSON under /api, the bearer token when one is
 * stored, a timestamp on every GET, a 15 s timeout, the generic toasts by status, and a 401 that
 * clears the session. Calls are typed by the protocol's route table.
 */
import {
  API_BASE,
  HTTP_TEXTS,
  type HttpRouteName,
  REQUEST_TIMEOUT_MS,
  type RouteBody,
  type RouteData,
  SERVER_ERROR_RETRY_DELAY_MS,
  SESSION_EXPIRED_REDIRECT_MS,
  failureEnvelopeSchema,
  httpErrorText,
  httpRoutes,
  routePath,
} from '@memeslam/protocol';
import { toast } from 'sonner';
import { session } from '../auth/session.ts';
import { retryAfterMs } from './busy.ts';

/**
 * A failed call: the status (0 when nothing came back), the server's message, the whole body, and
 * its Retry-After in milliseconds (null without one; api/busy.ts asks a busy 503 again after it).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown> | null;
  readonly retryAfterMs: number | null;

  constructor(status: number, message: string, body: Record<string, unknown> | null, retryAfter: number | null = null) {
    super(message);
    this.status = status;
    this.body = body;
    this.retryAfterMs = retryAfter;
  }

  /** The body's field the server names first in `errors` (a 422's problem, a 409's taken name); null if none. */
  get field(): string | null {
    const parsed = failureEnvelopeSchema.safeParse(this.body);
    return parsed.success ? (parsed.data.errors?.[0]?.path ?? null) : null;
  }
}

export interface CallOptions<K extends HttpRouteName> {
  readonly body?: RouteBody<K>;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly id?: string;
  /** Pages that show their own error text ask for no generic toast. */
  readonly quiet?: boolean;
}

export interface Envelope<K extends HttpRouteName> {
  readonly data: RouteData<K>;
  readonly message?: string;
  readonly raw: Record<string, unknown>;
}

function noResponseText(error: unknown): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return HTTP_TEXTS.timeout;
  }
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return HTTP_TEXTS.offline;
  if (error instanceof TypeError) return HTTP_TEXTS.network;
  return HTTP_TEXTS.unexpected;
}

/**
 * Where a 401 sends the user: "Session expired. Please login again." and /login after a second,
 * except from the login and register pages. A session revoked elsewhere (a password reset or change,
 * a guest upgrade) ends this way too (docs/accounts.md). Said once, however many calls were refused.
 */
function sessionExpired(token: string): void {
  if (session.get().token !== token) return;
  session.clear();
  const path = window.location.pathname;
  if (path === '/login' || path === '/register') return;
  toast.error(HTTP_TEXTS.sessionExpired);
  setTimeout(() => window.location.assign(`/login?from=${encodeURIComponent(path)}`), SESSION_EXPIRED_REDIRECT_MS);
}

export async function api<K extends HttpRouteName>(name: K, options: CallOptions<K> = {}): Promise<Envelope<K>> {
  const route = httpRoutes[name];
  const endpoint = routePath(name, options.id === undefined ? {} : { id: options.id });
  const url = new URL(`${API_BASE}${endpoint}`, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  if (route.method === 'GET') url.searchParams.set('_t', String(Date.now()));
  const headers: Record<string, string> = {};
  const token = session.get().token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const message = noResponseText(error);
    if (!options.quiet) toast.error(message);
    throw new ApiError(0, message, null);
  }
  let body: Record<string, unknown> | null;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    body = null;
  }
  if (response.ok && body?.success === true) {
    return {
      data: body.data as RouteData<K>,
      raw: body,
      ...(typeof body.message === 'string' ? { message: body.message } : {}),
    };
  }
  const serverMessage = typeof body?.message === 'string' ? body.message : undefined;
  if (response.status === 401 && token) sessionExpired(token);
  const text = httpErrorText(response.status, serverMessage, endpoint) ?? serverMessage ?? HTTP_TEXTS.unexpected;
  if (!options.quiet && response.status !== 401) {
    toast.error(text);
    const errors = body?.errors;
    if (response.status === 422 && Array.isArray(errors)) {
      for (const e of errors.slice(1)) if (typeof e?.message === 'string') toast.error(e.message);
    }
  }
  throw new ApiError(response.status, serverMessage ?? text, body, retryAfterMs(response.headers.get('retry-after')));
}

/** The server-error retry helper: on a 5xx, wait 1 s × the attempt number and try again. */
export async function withServerErrorRetry<T>(call: () => Promise<T>, retries: number): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status < 500 || attempt > retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, SERVER_ERROR_RETRY_DELAY_MS * attempt));
    }
  }
}
