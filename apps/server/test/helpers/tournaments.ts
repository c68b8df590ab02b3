/**
 * The tournament suites' server and tools (tournaments.test.ts, tournament-standings.test.ts): a server
 * per database mode on a hand-driven clock with a superadmin, accounts, a tournament's fields, and
 * finished games written into the books as the game service records them.
 */
import { randomUUID } from 'node:crypto';
import { tournamentSchema } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { gamePlayers, games, users } from '../../src/db/schema.ts';
import { type Booted, type DatabaseMode, boot, call, newAccount, registerCall } from './boot.ts';
import { gameSettings } from './settings.ts';

export const HOUR = 3_600_000;

/** Call inside a describe block: boots the server before its tests and closes it after. */
export function tournamentServer(mode: DatabaseMode) {
  let server: Booted;
  const clock = new ManualClock();
  let admin: string;
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
    admin = await account('superadmin');
  });
  afterAll(() => server.close());

  async function account(role: 'superadmin' | 'admin' | 'user' = 'user', target: Booted = server) {
    const res = await registerCall(target.base, newAccount(role.slice(0, 5)));
    const { token, user } = res.body.data;
    if (role !== 'user') await target.app.db.update(users).set({ role }).where(eq(users.id, user.id));
    return token as string;
  }

  /**
   * A registered player. By default an established one, as a prize tournament's entrants are: e-mail
   * verified (people-only tournaments require it) and registered a week ago, so that they are qualified
   * opponents for each other (docs/fair-play.md). `ageMs` and `verified` make a newer one.
   */
  async function person(target: Booted = server, options: { ageMs?: number; verified?: boolean } = {}) {
    const res = await registerCall(target.base, newAccount('entrant'));
    const id = res.body.data.user.id as string;
    const ageMs = options.ageMs ?? 7 * 24 * HOUR;
    await target.app.db
      .update(users)
      .set({
        createdAt: new Date(clock.now() - ageMs),
        emailVerifiedAt: (options.verified ?? true) ? new Date(clock.now() - ageMs) : null,
      })
      .where(eq(users.id, id));
    return { token: res.body.data.token as string, id };
  }

  const at = (offsetMs: number) => new Date(clock.now() + offsetMs).toISOString();
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Weekend Slam',
    description: 'Fast games, big pots',
    startDate: at(HOUR),
    endDate: at(2 * HOUR),
    currency: 'SLAM',
    totalAmount: 1000,
    winnersCount: 3,
    prizeDistribution: [
      { position: 1, amount: 500 },
      { position: 2, amount: 300 },
      { position: 3, amount: 200 },
    ],
    maxParticipants: null,
    minGamesRequired: 1,
    scoringMethod: 'totalPoints',
    allowBots: false,
    requireVerifiedSolana: false,
    isFeatured: false,
    ...overrides,
  });
  async function create(overrides: Record<string, unknown> = {}, token = admin) {
    const res = await call(server.base, 'POST', '/tournaments', { token, body: body(overrides) });
    expect(res.status).toBe(201);
    return tournamentSchema.parse(res.body.data.tournament);
  }

  /** A finished game in the books, as the game service would have recorded it. */
  async function recordGame(
    target: Booted,
    seats: { userId: string | null; points: number; bot?: boolean; wasGuest?: boolean; addressKey?: string }[],
    options: {
      winner?: string | null;
      finishedAt: number;
      durationMs?: number;
      reason?: string;
      bot?: boolean;
      /** Default: durationMs before finishedAt. */
      startedAt?: number;
    },
  ) {
    const durationMs = options.durationMs ?? 60_000;
    const id = randomUUID();
    await target.app.db.insert(games).values({
      id,
      roomCode: `T${Math.random().toString(36).slice(2, 7).toUpperCase()}`.slice(0, 6),
      status: 'finished',
      isBotGame: options.bot ?? false,
      settings: gameSettings(),
      winnerId: options.winner ?? null,
      endReason: options.reason ?? 'win',
      durationMs,
      startedAt: new Date(options.startedAt ?? options.finishedAt - durationMs),
      finishedAt: new Date(options.finishedAt),
    });
    await target.app.db.insert(gamePlayers).values(
      seats.map((s, seat) => ({
        gameId: id,
        seat,
        playerId: s.userId ?? `bot-${seat}`,
        userId: s.userId,
        username: s.userId ?? 'bot',
        isBot: s.bot ?? false,
        place: seat + 1,
        points: s.points,
        wasGuest: s.wasGuest ?? false,
        addressKey: s.addressKey ?? null,
      })),
    );
    return id;
  }

  return {
    clock,
    /** The booted server and its superadmin's token (inside a test or a later hook). */
    current: () => ({ server, admin }),
    account,
    person,
    at,
    body,
    create,
    recordGame,
  };
}
