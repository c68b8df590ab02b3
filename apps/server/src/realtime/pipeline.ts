/**
 * Each event of a signed-in socket, in order: its budgets (RATE_LIMITS.socketEventsPerSecond a
 * second per socket, and one token bucket per user across all their sockets, cluster-wide in cluster
 * mode), its name and size, its payload against the protocol's schema, the user's token version (a
 * session revoked since the handshake closes the socket), then its handler (handlers.ts). Every event
 * is answered through its ack — `{ success, error?, data? }`, never a crash or silence — or, without
 * an ack, a refusal by `gameError` (game commands) or `error`.
 */
import {
  ABUSE_LIMITS,
  type AckRefusal,
  type ClientEventName,
  RATE_LIMITS,
  ackError,
  isClientEventName,
  parseClientEvent,
} from '@memeslam/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthService } from '../auth/service.ts';
import { type Outcome, fail } from '../games/types.ts';
import { type BudgetStore, MemoryTokenBuckets } from '../token-buckets.ts';
import type { Metrics } from '../metrics.ts';
import type { Handlers } from './handlers.ts';
import type { GameSocket, SocketState } from './typed-socket.ts';

/** Socket events a second per socket. */
const EVENTS_PER_SECOND = RATE_LIMITS.socketEventsPerSecond;
/**
 * Payloads are a few short fields. Bigger ones are answered with an error; socket.io's own cap
 * (transport.ts, MAX_MESSAGE_BYTES) sits well above it, so an oversized event gets an ack instead of
 * a dropped connection.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024;

/** Every event's answer: the handler's data, or a refusal with its code. */
type Reply = (response: { readonly success: true; readonly data: unknown } | AckRefusal) => void;

const GAME_COMMANDS = new Set<string>([
  'playCard',
  'usePowerUp',
  'checkDeadlock',
  'forceDeadlockResolution',
  'requestHand',
  'getPowerUpStatus',
]);

export interface PipelineOptions {
  readonly rateLimits: boolean;
  readonly metrics: Metrics;
  /** Each user's event budget across their sockets; default in process. */
  readonly userEvents?: BudgetStore | undefined;
  readonly log: FastifyBaseLogger;
}

export interface Pipeline {
  /** Starts a socket's budget window and sends its every event through the pipeline. */
  listen(socket: GameSocket): void;
}

export function eventPipeline(auth: AuthService, handlers: Handlers, options: PipelineOptions): Pipeline {
  const { rateLimits, metrics, log } = options;
  const userEvents =
    options.userEvents ??
    new MemoryTokenBuckets({ capacity: ABUSE_LIMITS.userEventBurst, perSecond: EVENTS_PER_SECOND });

  // One listener serves every socket (socket.io calls it with the socket as `this`) and the
  // per-socket state is on `socket.data`: no closures per connection.
  const overBudget = (state: SocketState) => {
    const now = Date.now();
    if (now - state.windowStart >= 1000) {
      state.windowStart = now;
      state.inWindow = 0;
    }
    state.inWindow += 1;
    return rateLimits && state.inWindow > EVENTS_PER_SECOND;
  };

  const overLimit = (reply: Reply) => {
    metrics.rateLimited('socket');
    reply(ackError('RATE_LIMITED'));
  };

  /** One event past the budgets and the size check: its payload against its schema, then its handler. */
  const answer = <E extends ClientEventName>(socket: GameSocket, event: E, payload: unknown, reply: Reply): void => {
    const state = socket.data;
    const { user } = state;
    const parsed = parseClientEvent(event, payload ?? {});
    if (!parsed.success) {
      if (event === 'usePowerUp') socket.emit('powerUpError', { message: parsed.message, code: 'INVALID_PAYLOAD' });
      return reply(ackError('INVALID_PAYLOAD', parsed.message));
    }
    // The session may have been revoked since the handshake (a node that missed the fan-out).
    auth
      .currentTokenVersion(user.id)
      .then((version): Outcome<unknown> | Promise<Outcome<unknown>> => {
        if (version !== state.tokenVersion) {
          setImmediate(() => socket.disconnect(true));
          return fail('AUTHENTICATION_FAILED');
        }
        return handlers[event](user, parsed.data, socket);
      })
      .then(
        (outcome) => {
          if (outcome.ok) return reply({ success: true, data: outcome.data ?? undefined });
          if (event === 'usePowerUp') socket.emit('powerUpError', { message: outcome.error, code: outcome.code });
          reply(ackError(outcome.code, outcome.error));
        },
        (error: unknown) => {
          log.error({ err: error, event, userId: user.id }, 'socket event failed');
          reply(ackError('INTERNAL_ERROR'));
        },
      );
  };

  /** `budgetedAt`: when an event came that a cluster budget has since let through (its answer comes later). */
  const handleEvent = (socket: GameSocket, event: string, args: unknown[], budgetedAt?: number) => {
    const state = socket.data;
    const { user } = state;
    const received = budgetedAt ?? performance.now();
    const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as Reply) : null;
    const payload = args.length > (ack ? 1 : 0) ? args[0] : undefined;
    // Without an ack a refusal still gets an answer: gameError for game commands, error otherwise.
    const reply: Reply = (response) => {
      metrics.recordCommand(performance.now() - received);
      if (ack) ack(response);
      else if (!response.success) {
        socket.emit(GAME_COMMANDS.has(event) ? 'gameError' : 'error', { message: response.error, code: response.code });
      }
    };
    const allowed =
      budgetedAt !== undefined || (!overBudget(state) && (!rateLimits || userEvents.take(user.id, Date.now())));
    if (allowed === false) return overLimit(reply);
    if (allowed !== true) {
      return void allowed.then((taken) => (taken ? handleEvent(socket, event, args, received) : overLimit(reply)));
    }
    if (!isClientEventName(event)) return reply(ackError('UNKNOWN_EVENT'));
    if (payloadBytes(payload) > MAX_PAYLOAD_BYTES) return reply(ackError('PAYLOAD_TOO_LARGE'));
    answer(socket, event, payload, reply);
  };
  const onAnyEvent = function (this: GameSocket, event: string, ...args: unknown[]) {
    handleEvent(this, event, args);
  };

  return {
    listen(socket) {
      socket.data.windowStart = Date.now();
      socket.data.inWindow = 0;
      socket.onAny(onAnyEvent);
    },
  };
}

function payloadBytes(payload: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(payload) ?? '');
  } catch {
    // Not serialisable (a cycle cannot arrive over the wire, but be sure): treat as too large.
    return Number.POSITIVE_INFINITY;
  }
}
