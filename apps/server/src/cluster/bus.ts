/**
 * Requests between nodes over Redis pub/sub: each node listens on its own channel; a request names
 * the node it is for and is answered on the asker's channel. A request to a node nobody listens for
 * (PUBLISH reaches no subscriber: the node is gone) fails at once, and an unanswered one fails after
 * `timeoutMs`, so a caller never waits on a dead node for longer than that.
 *
 * Every message is parsed on receipt by its schema (messages.ts): a request that fails its schema is
 * logged and refused with INVALID_MESSAGE, an answer that fails its kind's schema fails the request
 * with that code; neither throws out of the listener. Refusals travel as codes, never as texts.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import * as z from 'zod';
import type { Clock } from '../clock.ts';
import {
  ASK_AGAIN,
  type Envelope,
  type NodeAnswers,
  type NodeBroadcasts,
  type NodeRefusalCode,
  type NodeRequest,
  type NodeRequestKind,
  type NodeRequestOf,
  envelopeSchema,
  nodeAnswerSchemas,
  nodeBroadcastSchemas,
  nodeRequestSchema,
} from './messages.ts';
import type { PubSub } from './redis-ports.ts';

/** No node took the request, none answered in time, or the one asked sent the asker on (`code`). */
export class NodeUnreachable extends Error {
  readonly code: NodeRefusalCode | null;

  constructor(message: string, code: NodeRefusalCode | null = null) {
    super(message);
    this.code = code;
  }
}

/**
 * A node's refusal. Thrown by a node's `serve` to refuse with a code (NODE_STOPPING, NOT_THE_OWNER);
 * on the asker's side, the refusal it received (one that does not send it on: INVALID_MESSAGE, FAILED).
 */
export class NodeRefused extends Error {
  readonly code: NodeRefusalCode;

  constructor(code: NodeRefusalCode, detail?: string) {
    super(detail === undefined ? code : `${code}: ${detail}`);
    this.code = code;
  }
}

/** Each kind's answer schema, indexable by a generic kind. */
const answerSchemas: { [K in NodeRequestKind]: z.ZodType<NodeAnswers[K]> } = nodeAnswerSchemas;
const broadcastSchemas: { [K in keyof NodeBroadcasts]: z.ZodType<NodeBroadcasts[K]> } = nodeBroadcastSchemas;

/** A request's answer as it came: its body (to be parsed by the asker), or a refusal. */
type Reply = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly error: Error };

/** What a node answers a request with; throw a NodeRefused to refuse with its code. */
export type Serve = (request: NodeRequest) => Promise<unknown>;

export class NodeBus {
  readonly #redis: PubSub;
  readonly #clock: Clock;
  readonly #nodeId: string;
  readonly #log: Pick<FastifyBaseLogger, 'warn'>;
  readonly #waiting = new Map<string, (reply: Reply) => void>();
  readonly #channels = new Map<string, (text: string) => void>();
  /** Gathers under way: each takes every node's answer (null for a node that refused). */
  readonly #gathering = new Map<string, (body: unknown) => void>();
  #serve: Serve = () => Promise.reject(new Error('not serving yet'));

  constructor(redis: PubSub, nodeId: string, clock: Clock, log: Pick<FastifyBaseLogger, 'warn'>) {
    this.#redis = redis;
    this.#nodeId = nodeId;
    this.#clock = clock;
    this.#log = log;
    redis.onMessage((channel, text) => {
      if (channel === this.#channel(nodeId) || channel === this.#everyone()) this.#receive(text);
      else this.#channels.get(channel)?.(text);
    });
  }

  /** Subscribes to this node's channel and the one to every node; `serve` answers what arrives on them. */
  async start(serve: Serve): Promise<void> {
    this.#serve = serve;
    await this.#redis.subscribe(this.#channel(this.#nodeId), this.#everyone());
  }

  /**
   * Asks every node (this one too) and resolves with the answers that came within `timeoutMs`: as
   * many as PUBLISH reached, or fewer if a node died meanwhile or refused (or answered out of schema).
   */
  async gather<K extends NodeRequestKind>(body: NodeRequestOf<K>, timeoutMs = 2000): Promise<NodeAnswers[K][]> {
    const id = randomUUID();
    const schema = answerSchemas[body.kind];
    const answers: NodeAnswers[K][] = [];
    let received = 0;
    let expected = Number.POSITIVE_INFINITY;
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      const timer = this.#clock.at(this.#clock.now() + timeoutMs, resolve);
      finish = () => {
        timer.cancel();
        resolve();
      };
    });
    const collect = (answer: unknown) => {
      received += 1;
      if (answer !== null) {
        const parsed = schema.safeParse(answer);
        if (parsed.success) answers.push(parsed.data);
        else this.#log.warn({ kind: body.kind, issues: parsed.error.issues }, 'a node answered out of schema');
      }
      if (received >= expected) finish();
    };
    this.#gathering.set(id, collect);
    try {
      expected = await this.#redis.publish(this.#everyone(), JSON.stringify({ id, from: this.#nodeId, body }));
      if (received >= expected) finish();
      await done;
    } finally {
      this.#gathering.delete(id);
    }
    return answers;
  }

  /** A cluster-wide announcement channel (e.g. games released by a node that stops). */
  async onBroadcast<N extends keyof NodeBroadcasts>(
    name: N,
    listener: (body: NodeBroadcasts[N]) => void,
  ): Promise<void> {
    const channel = this.#redis.key('broadcast', name);
    const schema = broadcastSchemas[name];
    this.#channels.set(channel, (text) => {
      const parsed = schema.safeParse(parseJson(text));
      if (parsed.success) listener(parsed.data);
      else this.#log.warn({ broadcast: name, issues: parsed.error.issues }, 'a node broadcast out of schema; ignored');
    });
    await this.#redis.subscribe(channel);
  }

  async broadcast<N extends keyof NodeBroadcasts>(name: N, body: NodeBroadcasts[N]): Promise<void> {
    await this.#redis.publish(this.#redis.key('broadcast', name), JSON.stringify(body));
  }

  /**
   * Sends `body` to `nodeId` and resolves with its answer, parsed by its kind's schema. Rejects with
   * NodeUnreachable if nobody got it, nobody answered, or the node sent the asker on; with NodeRefused
   * for any other refusal.
   */
  async request<K extends NodeRequestKind>(
    nodeId: string,
    body: NodeRequestOf<K>,
    timeoutMs = 5000,
  ): Promise<NodeAnswers[K]> {
    const id = randomUUID();
    const reply = new Promise<Reply>((resolve) => {
      const timer = this.#clock.at(this.#clock.now() + timeoutMs, () => {
        this.#waiting.delete(id);
        resolve({ ok: false, error: new NodeUnreachable(`node ${nodeId} did not answer within ${timeoutMs} ms`) });
      });
      this.#waiting.set(id, (value) => {
        timer.cancel();
        resolve(value);
      });
    });
    const fail = (error: Error) => {
      this.#waiting.get(id)?.({ ok: false, error });
      this.#waiting.delete(id);
    };
    try {
      const receivers = await this.#publish(nodeId, { id, from: this.#nodeId, body });
      if (receivers === 0) fail(new NodeUnreachable(`node ${nodeId} is not listening`));
    } catch (error) {
      fail(new NodeUnreachable(`Redis unavailable: ${error instanceof Error ? error.message : String(error)}`));
    }
    const answer = await reply;
    if (!answer.ok) throw answer.error;
    const parsed = answerSchemas[body.kind].safeParse(answer.body);
    if (parsed.success) return parsed.data;
    this.#log.warn({ node: nodeId, kind: body.kind, issues: parsed.error.issues }, 'a node answered out of schema');
    throw new NodeRefused('INVALID_MESSAGE', `the answer to ${body.kind} failed its schema`);
  }

  /** Fails every request still waiting (this node stops). */
  close(): void {
    for (const waiting of this.#waiting.values())
      waiting({ ok: false, error: new NodeUnreachable('this node is stopping') });
    this.#waiting.clear();
  }

  #everyone(): string {
    return this.#redis.key('everyone');
  }

  #channel(nodeId: string): string {
    return this.#redis.key('node', nodeId);
  }

  #publish(nodeId: string, message: Envelope): Promise<number> {
    return this.#redis.publish(this.#channel(nodeId), JSON.stringify(message));
  }

  #receive(text: string): void {
    const envelope = envelopeSchema.safeParse(parseJson(text));
    if (!envelope.success) {
      this.#log.warn({ issues: envelope.error.issues }, 'a bus message out of schema; dropped');
      return;
    }
    const message = envelope.data;
    if ('reply' in message) return this.#answered(message);
    const { id, from } = message;
    const request = nodeRequestSchema.safeParse(message.body);
    const answer = request.success
      ? this.#serve(request.data)
      : Promise.reject(new NodeRefused('INVALID_MESSAGE', z.prettifyError(request.error)));
    if (!request.success)
      this.#log.warn({ from, issues: request.error.issues }, 'a node request out of schema; refused');
    answer
      .then(
        (body) => this.#publish(from, { reply: id, ok: true, body: body ?? null }),
        (error: unknown) => this.#publish(from, refusal(id, error)),
      )
      .catch(() => {
        // Redis went away before the answer could leave: the asker's request times out.
      });
  }

  #answered(message: Extract<Envelope, { reply: string }>): void {
    const gathering = this.#gathering.get(message.reply);
    if (gathering) return gathering(message.ok ? message.body : null);
    const waiting = this.#waiting.get(message.reply);
    this.#waiting.delete(message.reply);
    if (!waiting) return;
    if (message.ok) return waiting({ ok: true, body: message.body });
    const { code, detail } = message;
    waiting({
      ok: false,
      error: ASK_AGAIN.has(code) ? new NodeUnreachable(code, code) : new NodeRefused(code, detail),
    });
  }
}

/** The answer refusing request `id`: a NodeRefused's code, or FAILED with the error's text (for the log). */
function refusal(id: string, error: unknown): Envelope {
  if (error instanceof NodeRefused) return { reply: id, ok: false, code: error.code, detail: error.message };
  return { reply: id, ok: false, code: 'FAILED', detail: error instanceof Error ? error.message : String(error) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
