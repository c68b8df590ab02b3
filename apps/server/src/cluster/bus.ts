/**
 * Requests between nodes over Redis pub/sub: each node listens on its own channel; a request names
 * the node it is for and is answered on the asker's channel. A request to a node nobody listens for
 * (PUBLISH reaches no subscriber: the node is gone) fails at once, and an unanswered one fails after
 * `timeoutMs`, so a caller never waits on a dead node for longer than that.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { PubSub } from './redis-ports.ts';

type Message =
  | { readonly id: string; readonly from: string; readonly body: unknown }
  | { readonly reply: string; readonly ok: true; readonly body: unknown }
  | { readonly reply: string; readonly ok: false; readonly error: string };

export class NodeUnreachable extends Error {}

/** The answer of a node that is handing its games over: the asker looks for the next owner. */
export const NODE_STOPPING = 'node stopping';

/**
 * The answer of a node asked about a game it does not run: typically a node restarted within its old
 * run's lease, still named as the owner in Redis. The asker looks for the owner again (the lease runs
 * out and the game is taken over) instead of taking "nothing here" for the game's answer.
 */
export const NOT_THE_OWNER = 'not the owner of that game';

/** Answers that send the asker on to look for the game's owner again. */
const ASK_AGAIN = new Set([NODE_STOPPING, NOT_THE_OWNER]);

export class NodeBus {
  readonly #redis: PubSub;
  readonly #clock: Clock;
  readonly #nodeId: string;
  readonly #waiting = new Map<string, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();
  readonly #channels = new Map<string, (body: unknown) => void>();
  /** Gathers under way: each takes every node's answer (null for a node that failed). */
  readonly #gathering = new Map<string, (answer: unknown) => void>();
  #serve: (body: unknown) => Promise<unknown> = () => Promise.reject(new Error('not serving yet'));

  constructor(redis: PubSub, nodeId: string, clock: Clock) {
    this.#redis = redis;
    this.#nodeId = nodeId;
    this.#clock = clock;
    redis.onMessage((channel, text) => {
      if (channel === this.#channel(nodeId) || channel === this.#everyone()) this.#receive(text);
      else this.#channels.get(channel)?.(JSON.parse(text) as unknown);
    });
  }

  /** Subscribes to this node's channel and the one to every node; `serve` answers what arrives on them. */
  async start(serve: (body: unknown) => Promise<unknown>): Promise<void> {
    this.#serve = serve;
    await this.#redis.subscribe(this.#channel(this.#nodeId), this.#everyone());
  }

  /**
   * Asks every node (this one too) and resolves with the answers that came within `timeoutMs`: as
   * many as PUBLISH reached, or fewer if a node died meanwhile.
   */
  async gather(body: unknown, timeoutMs = 2000): Promise<unknown[]> {
    const id = randomUUID();
    const answers: unknown[] = [];
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
      answers.push(answer);
      if (answers.length >= expected) finish();
    };
    this.#gathering.set(id, collect);
    try {
      expected = await this.#redis.publish(this.#everyone(), JSON.stringify({ id, from: this.#nodeId, body }));
      if (answers.length >= expected) finish();
      await done;
    } finally {
      this.#gathering.delete(id);
    }
    return answers.filter((answer) => answer !== null);
  }

  /** A cluster-wide announcement channel (e.g. games released by a node that stops). */
  async onBroadcast(name: string, listener: (body: unknown) => void): Promise<void> {
    const channel = this.#redis.key('broadcast', name);
    this.#channels.set(channel, listener);
    await this.#redis.subscribe(channel);
  }

  async broadcast(name: string, body: unknown): Promise<void> {
    await this.#redis.publish(this.#redis.key('broadcast', name), JSON.stringify(body));
  }

  /** Sends `body` to `nodeId` and resolves with its answer; rejects with NodeUnreachable if nobody got it. */
  async request(nodeId: string, body: unknown, timeoutMs = 5000): Promise<unknown> {
    const id = randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = this.#clock.at(this.#clock.now() + timeoutMs, () => {
        this.#waiting.delete(id);
        reject(new NodeUnreachable(`node ${nodeId} did not answer within ${timeoutMs} ms`));
      });
      this.#waiting.set(id, {
        resolve: (value) => {
          timer.cancel();
          resolve(value);
        },
        reject: (error) => {
          timer.cancel();
          reject(error);
        },
      });
    });
    let receivers: number;
    try {
      receivers = await this.#publish(nodeId, { id, from: this.#nodeId, body });
    } catch (error) {
      this.#waiting.get(id)?.reject(new NodeUnreachable(`Redis unavailable: ${(error as Error).message}`));
      this.#waiting.delete(id);
      return answer;
    }
    if (receivers === 0) {
      this.#waiting.get(id)?.reject(new NodeUnreachable(`node ${nodeId} is not listening`));
      this.#waiting.delete(id);
    }
    return answer;
  }

  /** Fails every request still waiting (this node stops). */
  close(): void {
    for (const waiting of this.#waiting.values()) waiting.reject(new NodeUnreachable('this node is stopping'));
    this.#waiting.clear();
  }

  #everyone(): string {
    return this.#redis.key('everyone');
  }

  #channel(nodeId: string): string {
    return this.#redis.key('node', nodeId);
  }

  #publish(nodeId: string, message: Message): Promise<number> {
    return this.#redis.publish(this.#channel(nodeId), JSON.stringify(message));
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as Message;
    if ('reply' in message) {
      const gathering = this.#gathering.get(message.reply);
      if (gathering) return gathering(message.ok ? message.body : null);
      const waiting = this.#waiting.get(message.reply);
      this.#waiting.delete(message.reply);
      if (!waiting) return;
      if (message.ok) waiting.resolve(message.body);
      else waiting.reject(ASK_AGAIN.has(message.error) ? new NodeUnreachable(message.error) : new Error(message.error));
      return;
    }
    const { id, from, body } = message;
    this.#serve(body)
      .then(
        (answer) => this.#publish(from, { reply: id, ok: true, body: answer ?? null }),
        (error: unknown) =>
          this.#publish(from, { reply: id, ok: false, error: error instanceof Error ? error.message : String(error) }),
      )
      .catch(() => {
        // Redis went away before the answer could leave: the asker's request times out.
      });
  }
}
