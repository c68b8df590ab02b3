/**
 * Play now: who is searching (a QueueStore: in process, or the cluster's Redis) and, once a second
 * (and at once when someone joins the matching node), the pairing's decisions carried out through the
 * games' one door: a room made by the longest-waiting person, the others joined and marked ready, the
 * game starting by itself. In a cluster one node pairs at a time (the store's lease); any node takes
 * joins and leaves.
 *
 * Nobody is in the queue and in an unfinished game at once, in any mix of tabs and nodes: joining
 * refuses a game in play and leaves a lobby, then looks again once queued (a seat taken meanwhile
 * elsewhere takes them out); taking a seat anywhere takes them out of the queue, before and after; a
 * table is taken out of the queue whole before it is seated, and the games' one-game-per-user rule
 * refuses anyone seated elsewhere meanwhile.
 */
import { DEFAULT_MATCH_PACE_MS, recordedPace } from '@memeslam/engine';
import {
  ABUSE_LIMITS,
  MATCH_ME,
  queueCooldownText,
  type QueueSize,
  type ServerArgs,
  type ServerEventName,
  type ServerPayload,
  createGameSettingsSchema,
} from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, type Timer, every } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { User } from '../games/requests.ts';
import type { GameService } from '../games/service.ts';
import { type Outcome, fail, ok } from '../games/types.ts';
import type { BudgetFactory, BudgetStore } from '../token-buckets.ts';
import { type Decision, pair } from './pairing.ts';
import { MemoryQueueStore, type QueueEntry, type QueueStore, pairKey } from './store.ts';

const TICK_MS = 1000;
/** Leaving a game in play this soon after it began is leaving early... */
export const EARLY_LEAVE_MS = 60_000;
/** ...and Play now takes the player again only this long after. */
export const COOLDOWN_MS = 2 * 60_000;

export type Notify = <E extends ServerEventName>(userId: string, event: E, ...args: ServerArgs<E>) => void;

export class Matchmaker {
  readonly #games: GameService;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #joins: BudgetStore | null;
  readonly #store: QueueStore;
  readonly #nodeId: string;
  #timer: Timer | null = null;
  #pairing: Promise<void> = Promise.resolve();
  #closed = false;
  /** Where the queue's news goes (the gateway sets it: each user's sockets, on whichever node). */
  notify: Notify = () => {};

  constructor(deps: {
    games: GameService;
    db: Db;
    clock: Clock;
    log: FastifyBaseLogger;
    /** Queue joins per user and minute (null: unlimited), from the budgets of game creations. */
    budgets: BudgetFactory | null;
    /** Where the queue lives (default: in this process). */
    store?: QueueStore;
    /** This node's id (cluster mode: the queue entries name the node that queued them). */
    nodeId?: string;
  }) {
    this.#games = deps.games;
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#store = deps.store ?? new MemoryQueueStore();
    this.#nodeId = deps.nodeId ?? 'local';
    const perMinute = ABUSE_LIMITS.gamesCreatedPerUserPerMinute;
    this.#joins = deps.budgets ? deps.budgets('queue-joins', { capacity: perMinute, perSecond: perMinute / 60 }) : null;
    // Taking a seat by any other way leaves the queue.
    deps.games.onSeatTaken = (userId) => void this.leave(userId);
    // Leaving a game right after it began (a loss already): Play now waits a while for that player.
    deps.games.onLeftInPlay = (userId, startedAt) => {
      const now = this.#clock.now();
      if (now - startedAt > EARLY_LEAVE_MS) return;
      this.#store.setCooldown(userId, now + COOLDOWN_MS, now).catch((error: unknown) => {
        this.#log.warn({ err: error, userId }, 'a Play now cooldown could not be recorded');
      });
    };
    // A shared queue may gain people on any node: every node looks each second (one of them pairs).
    if (this.#store.shared) this.#startTicking();
  }

  async join(user: User, size: QueueSize, address: string): Promise<Outcome<ServerPayload<'queueStatus'>>> {
    if (this.#closed) return fail('SERVER_BUSY');
    try {
      return await this.#join(user, size, address);
    } catch (error) {
      // Cluster mode with Redis away: the queue is out of reach, said clearly.
      this.#log.warn({ err: error, userId: user.id }, 'the Play now queue could not be reached');
      return fail('RECONNECTING');
    }
  }

  async #join(user: User, size: QueueSize, address: string): Promise<Outcome<ServerPayload<'queueStatus'>>> {
    const now = this.#clock.now();
    const until = await this.#store.cooldownUntil(user.id, now);
    if (until > now) return fail('QUEUE_COOLDOWN', queueCooldownText(until - now));
    if (this.#joins && !(await this.#joins.take(user.id, now))) return fail('TOO_MANY_GAMES');
    const seated = await this.#leaveLobby(user);
    if (!seated.ok) return seated;
    const [row] = await this.#db
      .select({ rating: users.rating, paces: users.playPaces })
      .from(users)
      .where(eq(users.id, user.id));
    const since = await this.#store.put(
      {
        user,
        userId: user.id,
        node: this.#nodeId,
        rating: row?.rating ?? 1500,
        size,
        address,
        paceMs: row ? recordedPace(row.paces) : DEFAULT_MATCH_PACE_MS,
      },
      this.#clock.now(),
    );
    // A seat taken meanwhile (another tab, on any node) wins: its own leave may have come first.
    if ((await this.#games.currentGame(user.id)) !== null) {
      await this.#store.remove(user.id);
      return fail('ALREADY_IN_GAME');
    }
    this.#startTicking();
    void this.#tick();
    return ok({ searching: await this.#store.count(), waitedMs: Math.max(0, this.#clock.now() - since), size });
  }

  /** A game in play refuses the queue; a lobby is left for it. */
  async #leaveLobby(user: User): Promise<Outcome<unknown>> {
    const current = await this.#games.currentGame(user.id);
    if (!current) return ok(undefined);
    if (current.status !== 'waiting') return fail('ALREADY_IN_GAME');
    return this.#games.handle(user, { type: 'leave' });
  }

  /** Leaves the queue (cancel, the page left, the last socket closed, a seat taken); true if queued. */
  async leave(userId: string): Promise<boolean> {
    // A node shutting down leaves its people queued: their pages reconnect to another node.
    if (this.#closed) return false;
    try {
      return await this.#store.remove(userId);
    } catch (error) {
      this.#log.warn({ err: error, userId }, 'a Play now leave could not reach the queue');
      return false;
    } finally {
      if (!this.#store.shared && (await this.#store.count()) === 0) this.#stopTicking();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTicking();
    await this.#pairing;
    await this.#store.close().catch(() => {});
  }

  #startTicking(): void {
    if (!this.#closed) this.#timer ??= every(this.#clock, TICK_MS, () => void this.#tick());
  }

  #stopTicking(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }

  /** One pairing at a time on this node: a table is seated before the next look at the queue. */
  #tick(): Promise<void> {
    this.#pairing = this.#pairing
      .then(() => this.#pairOnce())
      .catch((error: unknown) => {
        this.#log.error({ err: error }, 'matchmaking failed');
      });
    return this.#pairing;
  }

  async #pairOnce(): Promise<void> {
    if (this.#closed || !(await this.#store.lead())) return;
    const now = this.#clock.now();
    const { entries, offered } = await this.#store.snapshot();
    if (entries.length === 0) {
      if (!this.#store.shared) this.#stopTicking();
      return;
    }
    const byId = new Map(entries.map((e) => [e.userId, e]));
    const meetings = await this.#store.meetings(sameAddressPairs(entries), now);
    const decisions = pair(entries, {
      now,
      meetingsWithin: (a, b) => meetings.get(pairKey(a.userId, b.userId)) ?? 0,
      offered: (s) => offered.has(s.userId),
    });
    const seated = new Set<string>();
    for (const decision of decisions) {
      if (decision.kind === 'offerBots') {
        await this.#store.markOffered(decision.seeker.userId);
        this.notify(decision.seeker.userId, 'botGameOffered', {
          waitedMs: now - decision.seeker.since,
          botPaceMs: Math.round(decision.botPaceMs),
        });
        continue;
      }
      const people = decision.people.map((p) => byId.get(p.userId)).filter((p) => p !== undefined);
      // Taken out of the queue whole (or not at all: someone left meanwhile, on any node).
      if (people.length !== decision.people.length || !(await this.#store.take(people.map((p) => p.userId)))) continue;
      for (const p of people) seated.add(p.userId);
      await this.#seat(people, decision, now);
    }
    const searching = entries.length - seated.size;
    for (const entry of entries) {
      if (seated.has(entry.userId)) continue;
      this.notify(entry.userId, 'queueStatus', {
        searching,
        waitedMs: Math.max(0, now - entry.since),
        size: entry.size,
      });
    }
  }

  /** Seats a table: a room made by its first person, the others in, everyone ready; it starts by itself. */
  async #seat(people: readonly QueueEntry[], table: Extract<Decision, { kind: 'table' }>, now: number): Promise<void> {
    const [host, ...guests] = people as [QueueEntry, ...QueueEntry[]];
    const setup = createGameSettingsSchema.parse({
      maxPlayers: people.length + table.bots,
      autoStart: true,
      ...(table.bots > 0 ? { withBots: true, numberOfBots: table.bots, botDifficulty: MATCH_ME } : {}),
    });
    const created = await this.#games.handle(host.user, {
      type: 'create',
      setup,
      ...(table.botPaceMs === null ? {} : { matchPaceMs: Math.round(table.botPaceMs) }),
    });
    if (!created.ok) {
      // No node has headroom for a new game (docs/capacity.md): everyone searches on, in their places
      // (the create's own "seat taken" emptied the queue meanwhile and stopped its ticks).
      if (created.code === 'NO_HEADROOM') {
        await this.#store.restore(people);
        this.#startTicking();
        return;
      }
      this.#log.warn({ code: created.code, userId: host.userId }, 'a Play now table could not be made');
      await this.#store.restore(guests);
      return;
    }
    const { gameId, roomCode } = created.data;
    const seated = [host];
    for (const guest of guests) {
      const joined = await this.#games.handle(guest.user, { type: 'join', roomCode });
      if (joined.ok) seated.push(guest);
    }
    if (seated.length < 2) {
      // Everyone else went elsewhere meanwhile: the room is given up and the host searches on.
      await this.#games.handle(host.user, { type: 'leave', game: gameId });
      await this.#store.restore([host]);
      return;
    }
    for (const person of seated.slice(1)) await this.#games.handle(person.user, { type: 'ready', isReady: true });
    for (const a of seated)
      for (const b of seated)
        if (a.userId < b.userId && a.address === b.address) await this.#store.met(pairKey(a.userId, b.userId), now);
    for (const person of seated) {
      this.notify(person.userId, 'matchFound', { gameId, roomCode, people: seated.length, bots: table.bots });
    }
  }
}

/** The pairs of queued users who connect from one address (the only pairs the farming rule counts). */
function sameAddressPairs(entries: readonly QueueEntry[]): string[] {
  const keys: string[] = [];
  for (const a of entries)
    for (const b of entries) if (a.userId < b.userId && a.address === b.address) keys.push(pairKey(a.userId, b.userId));
  return keys;
}
