/**
 * Registers a handler for a route of the protocol's table: the table gives method, path, access and
 * schemas; this checks the bearer token and parses body, query and params at the edge, so a handler
 * only ever sees valid, typed input.
 */
import {
  API_BASE,
  HTTP_TEXTS,
  type HttpRouteName,
  type RouteBodyParsed,
  type RouteData,
  type RouteQueryParsed,
  SERVER_TEXTS,
  STAFF_ROLES,
  httpRoutes,
  parseWith,
} from '@memeslam/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod';
import type { UserRow } from '../users/repository.ts';
import { forbidden, unauthorized, unprocessable } from './errors.ts';

export interface RouteContext<K extends HttpRouteName> {
  readonly body: RouteBodyParsed<K>;
  readonly query: RouteQueryParsed<K>;
  readonly params: { readonly id: string };
  /** Set on routes whose access is `user`, `staff` or `superadmin`; on `optional` routes when a token came. */
  readonly user: UserRow | null;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/** A handler's answer: the success envelope's data and message, or (rarely) a whole envelope. */
export type Answer<K extends HttpRouteName> =
  | { readonly data: RouteData<K>; readonly message?: string; readonly status?: number }
  | { readonly envelope: Record<string, unknown>; readonly status?: number };

export type Authenticate = (token: string) => Promise<UserRow | null>;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

function parse<S extends z.ZodType>(schema: S | undefined, input: unknown): z.output<S> | undefined {
  if (!schema) return undefined;
  const parsed = parseWith(schema, input);
  if (!parsed.success) throw unprocessable(parsed.message, parsed.errors);
  return parsed.data;
}

export function defineRoute<K extends HttpRouteName>(
  app: FastifyInstance,
  authenticate: Authenticate,
  name: K,
  handler: (ctx: RouteContext<K>) => Promise<Answer<K>>,
): void {
  const route = httpRoutes[name];
  app.route({
    method: route.method,
    url: `${API_BASE}${route.path}`,
    handler: async (request, reply) => {
      const token = bearer(request);
      let user: UserRow | null = null;
      if (route.access !== 'public' && token) user = await authenticate(token);
      if ((route.access === 'user' || route.access === 'staff' || route.access === 'superadmin') && !user) {
        throw unauthorized(token ? HTTP_TEXTS.sessionExpired : SERVER_TEXTS.authenticationRequired);
      }
      if (route.access === 'staff' && !(STAFF_ROLES as readonly string[]).includes(user?.role ?? '')) throw forbidden();
      if (route.access === 'superadmin' && user?.role !== 'superadmin') throw forbidden();
      const schemas = route as { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType };
      const ctx = {
        params: (parse(schemas.params, request.params) ?? {}) as { id: string },
        query: parse(schemas.query, request.query ?? {}),
        body: parse(schemas.body, request.body),
        user,
        request,
        reply,
      } as RouteContext<K>;
      const answer = await handler(ctx);
      reply.code(answer.status ?? 200);
      if ('envelope' in answer) return answer.envelope;
      return { success: true, data: answer.data, ...(answer.message !== undefined ? { message: answer.message } : {}) };
    },
  });
}
