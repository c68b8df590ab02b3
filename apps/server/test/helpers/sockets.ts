/**
 * socket.io-client players for tests: every frame they receive is kept, acks come back as promises.
 * Everything the server sends is read through the protocol's schemas: a frame or an ack that does not
 * match its schema fails the test (at the ack, at the `waitFor` that meets the frame, or at `close`).
 */
import type { Agent } from 'node:http';
import { matches } from '@memeslam/engine';
import {
  type ClientEventName,
  ackSchemaFor,
  isClientEventName,
  parseServerEvent,
  refusalCodeSchema,
} from '@memeslam/protocol';
import { type Socket, io } from 'socket.io-client';
import { onTestFinished } from 'vitest';
import * as z from 'zod';
import { newAccount, registerCall } from './boot.ts';

/** The ack of an event the protocol does not know: a refusal, with its code. */
const unknownEventAck = z.object({ success: z.literal(false), error: z.string(), code: refusalCodeSchema });

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 400) ?? String(value);

/**
 * Each event's ack schema, made once: `ackSchemaFor` builds a new schema at every call, and zod
 * compiles a schema's parser at its first parse, which cost more than the parse itself at every ack
 * (about 11 of the server suites' workers' 225 busy seconds, measured with --cpu-prof).
 */
const ackSchemas = new Map<ClientEventName, ReturnType<typeof ackSchemaFor>>();
function ackSchema(event: ClientEventName): ReturnType<typeof ackSchemaFor> {
  let schema = ackSchemas.get(event);
  if (!schema) ackSchemas.set(event, (schema = ackSchemaFor(event)));
  return schema;
}

/** The ack as the protocol's schema for `event` reads it; throws, naming the problem, when it does not. */
export function checkAck(event: string, ack: unknown): Ack {
  const schema = isClientEventName(event) ? ackSchema(event) : unknownEventAck;
  const parsed = schema.safeParse(ack);
  if (!parsed.success) {
    throw new Error(`the ack of ${event} does not match the protocol: ${parsed.error.message} in ${shown(ack)}`);
  }
  return ack as Ack;
}

export interface Frame {
  readonly event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever the server sent
  readonly payload: any;
}

export interface Ack {
  readonly success: boolean;
  readonly error?: string;
  readonly code?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever the server sent
  readonly data?: any;
}

export class Client {
  readonly socket: Socket;
  readonly frames: Frame[] = [];
  /** Frames that did not match their schema, described. */
  readonly mismatches: string[] = [];
  readonly #waiters: {
    event: string;
    from: number;
    test: (p: Frame['payload']) => boolean;
    resolve: (p: Frame['payload']) => void;
  }[] = [];

  constructor(socket: Socket) {
    this.socket = socket;
    socket.onAny((event: string, payload: unknown) => {
      const parsed = parseServerEvent(event, payload);
      if (!parsed.success) this.mismatches.push(`${event}: ${parsed.message} in ${shown(payload)}`);
      this.frames.push({ event, payload });
      for (const waiter of [...this.#waiters]) {
        if (waiter.event === event && waiter.test(payload)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(payload);
        }
      }
    });
  }

  /** Sends an event; its ack, checked against the protocol's schema. */
  async emit(event: string, payload?: unknown): Promise<Ack> {
    const ack: unknown =
      payload === undefined
        ? await this.socket.timeout(10_000).emitWithAck(event)
        : await this.socket.timeout(10_000).emitWithAck(event, payload);
    return checkAck(event, ack);
  }

  /** Throws if any frame so far did not match its schema. */
  checkFrames(): void {
    if (this.mismatches.length > 0) {
      throw new Error(`frames that do not match the protocol:\n${this.mismatches.join('\n')}`);
    }
  }

  /** The first frame of `event` at or after index `from` that passes `test`, now or when it comes. */
  waitFor(
    event: string,
    test: (payload: Frame['payload']) => boolean = () => true,
    from = 0,
  ): Promise<Frame['payload']> {
    this.checkFrames();
    const found = this.frames.slice(from).find((f) => f.event === event && test(f.payload));
    if (found) return Promise.resolve(found.payload);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${event} within 15 s; got ${this.frames.map((f) => f.event).join(', ')}`)),
        15_000,
      );
      this.#waiters.push({
        event,
        from,
        test,
        resolve: (p) => {
          clearTimeout(timer);
          try {
            this.checkFrames();
            resolve(p);
          } catch (error) {
            reject(error as Error);
          }
        },
      });
    });
  }

  /** Frames of one event, in order. */
  all(event: string): Frame['payload'][] {
    return this.frames.filter((f) => f.event === event).map((f) => f.payload);
  }

  /** The newest hand this client was sent. */
  get hand(): { id: string; number: number; color: string; logo: string }[] {
    const last = this.frames
      .filter((f) => f.event === 'handDealt' || f.event === 'handUpdated' || f.event === 'gameRejoined')
      .at(-1);
    return last?.payload.hand ?? [];
  }

  /** Disconnects; throws if any frame it received did not match its schema. */
  close(): void {
    this.socket.disconnect();
    this.checkFrames();
  }
}

export function connect(
  base: string,
  token: string | undefined,
  options: { transports?: string[]; agent?: Agent } = {},
): Promise<Client> {
  const socket = io(base, {
    auth: token === undefined ? {} : { token },
    transports: options.transports ?? ['websocket'],
    // engine.io-client types `agent` as a browser's string | boolean; in Node, its polling and its
    // WebSocket both make their connections with the http.Agent given here.
    ...(options.agent ? { agent: options.agent as never } : {}),
    reconnection: false,
    forceNew: true,
  });
  const client = new Client(socket);
  try {
    // A frame that did not match fails the test it came in, even if nothing waited for it.
    onTestFinished(() => client.checkFrames());
  } catch {
    // Connected outside a test (in a hook): checked at `close` and at each `waitFor`.
  }
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(client));
    socket.once('connect_error', (error) => reject(error));
  });
}

/** A new account registered at `base`, with a socket signed in as it (kept in `clients`, to close). */
export async function newPerson(base: string, prefix: string, clients: Client[]) {
  const res = await registerCall(base, newAccount(prefix));
  const token = res.body.data.token as string;
  const client = await connect(base, token);
  clients.push(client);
  return { client, token, user: res.body.data.user as { id: string; username: string } };
}

/** Lets socket frames already sent arrive (a round trip through the server). */
export async function settle(client: Client): Promise<void> {
  await client.emit('getPowerUpStatus');
}

/** Plays one matching card if the hand has one; the card's id once acknowledged, else null. */
export async function playOne(client: Client): Promise<string | null> {
  const state = await client.emit('requestHand', {});
  if (!state.success) return null;
  const tops = (state.data.gameState.discardPiles as { id: string }[][]).map((p) => p.at(-1));
  for (const card of state.data.hand) {
    const pileIndex = tops.findIndex((top) => top && matches(card, top as never));
    if (pileIndex >= 0) {
      const ack = await client.emit('playCard', { cardId: card.id, pileIndex });
      return ack.success ? (card.id as string) : null;
    }
  }
  return null;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays `count` more matching cards (waiting while none matches), each acknowledged, into `played`. */
export async function playCards(client: Client, count: number, played: string[], withinMs = 60_000): Promise<void> {
  const goal = played.length + count;
  const deadline = Date.now() + withinMs;
  while (played.length < goal) {
    if (Date.now() > deadline) throw new Error(`${count} plays were not acknowledged within ${withinMs / 1000} s`);
    const card = await playOne(client);
    if (card) played.push(card);
    else await pause(100);
  }
}

/** The first play acknowledged within `withinMs` (through a game changing hands, say), or null. */
export async function firstPlayWithin(client: Client, withinMs: number): Promise<string | null> {
  const deadline = Date.now() + withinMs;
  let card: string | null = null;
  while (!card && Date.now() < deadline) {
    card = await playOne(client);
    if (!card) await pause(100);
  }
  return card;
}
