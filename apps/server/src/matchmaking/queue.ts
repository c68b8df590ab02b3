/**
 * The "Play now" queue of one server (the embedded mode): who is searching, and once a second (and
 * at once when someone joins) the pairing's decisions carried out through the games' one door — a
 * room made by the longest-waiting person, the others joined and marked ready, the game starting by
 * itself. Nobody is in the queue and in an unfinished game at once: joining refuses a game in play
 * and leaves a lobby, taking a seat anywhere else leaves the queue, and a table is seated only with
 * people still queued and free.
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
import type { BudgetFactory, BudgetStore } from '../http/token-buckets.ts';
import { type Decision, type Seeker, pair } from './pairing.ts';

const TICK_MS = 1000;
/** Leaving a game in play this soon after it began is leaving early... */
export const EARLY_LEAVE_MS = 60_000;
/** ...and Play now takes the player again only this long after. */
export const COOLDOWN_MS = 2 * 60_000;
const HOUR_MS = 60 * 60 * 1000;

interface Queued extends Seeker {
  readonly user: User;
  offered: boolean;
}

export type Notify = <E extends ServerEventName>(userId: string, event: E, ...args: ServerArgs<E>) => void;

export class Matchmaker {
  readonly #games: GameService;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #joins: BudgetStore | null;
  readonly #queue = new Map<string, Queued>();
  /** When two users of one address were seated together, by the pair's key (the farming rule). */
  readonly #meetings = new Map<string, number[]>();
  /** Early leavers: when Play now takes them again. */
  readonly #cooldowns = new Map<string, number>();
  #timer: Timer | null = null;
  #pairing: Promise<void> = Promise.resolve();
  #closed = false;
  /** Where the queue's news goes (the gateway sets it: each user's sockets). */
  notify: Notify = () => {};

  constructor(deps: {
    games: GameService;
    db: Db;
    clock: Clock;
    log: FastifyBaseLogger;
    /** Queue joins per user and minute (null: unlimited), from the budgets of game creations. */
    budgets: BudgetFactory | null;
  }) {
    this.#games = deps.games;
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#log = deps.log;
    const perMinute = ABUSE_LIMITS.gamesCreatedPerUserPerMinute;
    this.#joins = deps.budgets ? deps.budgets('queue-joins', { capacity: perMinute, perSecond: perMinute / 60 }) : null;
    // Taking a seat by any other way leaves the queue.
    deps.games.onSeatTaken = (userId) => void this.leave(userId);
    // Leaving a game right after it began (a loss already): Play now waits a while for that player.
    deps.games.onLeftInPlay = (userId, startedAt) => {
      const now = this.#clock.now();
      if (now - startedAt <= EARLY_LEAVE_MS) this.#cooldowns.set(userId, now + COOLDOWN_MS);
    };
  }

  get searching(): number {
    return this.#queue.size;
  }

  isQueued(userId: string): boolean {
    return this.#queue.has(userId);
  }

  async join(user: User, size: QueueSize, address: string): Promise<Outcome<ServerPayload<'queueStatus'>>> {
    if (this.#closed) return fail('SERVER_BUSY');
    const until = this.#cooldowns.get(user.id) ?? 0;
    if (until > this.#clock.now()) return fail('QUEUE_COOLDOWN', queueCooldownText(until - this.#clock.now()));
    this.#cooldowns.delete(user.id);
    if (this.#joins && !(await this.#joins.take(user.id, this.#clock.now()))) return fail('TOO_MANY_GAMES');
    const current = await this.#games.currentGame(user.id);
    if (current && current.status !== 'waiting') return fail('ALREADY_IN_GAME');
    if (current) {
      const left = await this.#games.handle(user, { type: 'leave' });
      if (!left.ok) return left;
    }
    const [row] = await this.#db
      .select({ rating: users.rating, paces: users.playPaces })
      .from(users)
      .where(eq(users.id, user.id));
    const since = this.#queue.get(user.id)?.since ?? this.#clock.now();
    this.#queue.set(user.id, {
      user,
      userId: user.id,
      rating: row?.rating ?? 1500,
      size,
      since,
      address,
      paceMs: row ? recordedPace(row.paces) : DEFAULT_MATCH_PACE_MS,
      offered: false,
    });
    this.#startTicking();
    void this.#tick();
    return ok(this.#status(user.id));
  }

  /** Leaves the queue (cancel, the page left, the last socket closed, a seat taken); true if queued. */
  leave(userId: string): boolean {
    const was = this.#queue.delete(userId);
    if (this.#queue.size === 0) this.#stopTicking();
    return was;
  }

  close(): void {
    this.#closed = true;
    this.#queue.clear();
    this.#stopTicking();
  }

  #status(userId: string): ServerPayload<'queueStatus'> {
    const seeker = this.#queue.get(userId);
    return {
      searching: this.#queue.size,
      waitedMs: seeker ? Math.max(0, this.#clock.now() - seeker.since) : 0,
      size: seeker?.size ?? 'any',
    };
  }

  #startTicking(): void {
    if (!this.#closed) this.#timer ??= every(this.#clock, TICK_MS, () => void this.#tick());
  }

  #stopTicking(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }

  /** One pairing at a time: a table is seated before the next look at the queue. */
  #tick(): Promise<void> {
    this.#pairing = this.#pairing
      .then(() => this.#pairOnce())
      .catch((error: unknown) => {
        this.#log.error({ err: error }, 'matchmaking failed');
      });
    return this.#pairing;
  }

  async #pairOnce(): Promise<void> {
    const now = this.#clock.now();
    const decisions = pair([...this.#queue.values()], {
      now,
      meetingsWithin: (a, b) => this.#meetingsOf(a, b, now).length,
      offered: (s) => this.#queue.get(s.userId)?.offered ?? false,
    });
    for (const decision of decisions) {
      if (decision.kind === 'offerBots') {
        const seeker = this.#queue.get(decision.seeker.userId);
        if (!seeker) continue;
        seeker.offered = true;
        this.notify(seeker.userId, 'botGameOffered', {
          waitedMs: now - seeker.since,
          botPaceMs: Math.round(decision.botPaceMs),
        });
      } else await this.#seat(decision, now);
    }
    for (const userId of this.#queue.keys()) this.notify(userId, 'queueStatus', this.#status(userId));
  }

  /** Seats a table: a room made by its first person, the others in, everyone ready; it starts by itself. */
  async #seat(table: Extract<Decision, { kind: 'table' }>, now: number): Promise<void> {
    const people = table.people.map((p) => this.#queue.get(p.userId)).filter((p) => p !== undefined);
    if (people.length !== table.people.length) return;
    for (const p of people) this.#queue.delete(p.userId);
    const [host, ...guests] = people as [Queued, ...Queued[]];
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
      this.#log.warn({ code: created.code, userId: host.userId }, 'a Play now table could not be made');
      this.#requeue(guests);
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
      this.#requeue([host]);
      return;
    }
    for (const person of seated.slice(1)) await this.#games.handle(person.user, { type: 'ready', isReady: true });
    for (const a of seated)
      for (const b of seated) if (a.userId < b.userId && a.address === b.address) this.#met(a, b, now);
    for (const person of seated) {
      this.notify(person.userId, 'matchFound', {
        gameId,
        roomCode,
        people: seated.length,
        bots: table.bots,
      });
    }
  }

  #requeue(people: readonly Queued[]): void {
    for (const p of people) this.#queue.set(p.userId, p);
    if (this.#queue.size > 0) this.#startTicking();
  }

  #pairKey(a: Seeker, b: Seeker): string {
    return a.userId < b.userId ? `${a.userId}|${b.userId}` : `${b.userId}|${a.userId}`;
  }

  #meetingsOf(a: Seeker, b: Seeker, now: number): number[] {
    const key = this.#pairKey(a, b);
    const recent = (this.#meetings.get(key) ?? []).filter((at) => now - at < HOUR_MS);
    if (recent.length === 0) this.#meetings.delete(key);
    else this.#meetings.set(key, recent);
    return recent;
  }

  #met(a: Seeker, b: Seeker, now: number): void {
    this.#meetings.set(this.#pairKey(a, b), [...this.#meetingsOf(a, b, now), now]);
  }
}
