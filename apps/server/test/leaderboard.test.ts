/**
 * GET /auth/leaderboard and GET /auth/admin/stats over real HTTP: rankings per sort, limits, tie
 * order, guests left out, win-rate rounding, the global figures and who is online; the admin
 * statistics with their access rule (any role with canAccessAdmin), counts per role and the rest.
 * Stats, roles and dates are set straight in the database to build the rankings.
 */
import {
  HTTP_TEXTS,
  SERVER_TEXTS,
  STAFF_ROLES,
  USER_ROLES,
  adminStatsSchema,
  leaderboardDataSchema,
  successSchemaFor,
  winRatePercent,
} from '@memeslam/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games, tournaments, users } from '../src/db/schema.ts';
import { winRateSql } from '../src/stats/repository.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { gameSettings, tournamentSettings } from './helpers/settings.ts';
import { type Client, connect } from './helpers/sockets.ts';

interface Account {
  readonly token: string;
  readonly id: string;
  readonly username: string;
}

async function register(server: Booted, prefix: string): Promise<Account> {
  const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(prefix) });
  expect(res.status).toBe(201);
  return { token: res.body.data.token, id: res.body.data.user.id, username: res.body.data.user.username };
}

async function guest(server: Booted): Promise<Account> {
  const res = await call(server.base, 'POST', '/auth/demo');
  expect(res.status).toBe(201);
  return { token: res.body.data.token, id: res.body.data.user.id, username: res.body.data.user.username };
}

type UserPatch = Partial<typeof users.$inferInsert>;
async function patch(server: Booted, id: string, values: UserPatch): Promise<void> {
  await server.app.db.update(users).set(values).where(eq(users.id, id));
}

/** Polls until `read` gives `expected` (socket connects and disconnects land asynchronously). */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (JSON.stringify(await read()) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await read()).toEqual(expected);
}

const day = (n: number) => new Date(Date.UTC(2024, 0, n, 12));

describe.each(DATABASE_MODES)('leaderboard on %s', (mode) => {
  let server: Booted;
  const clients: Client[] = [];
  /** The ranked players by name; p4 and p5 are equal in everything but their ids. */
  const p: Record<string, Account> = {};
  let guestAccount: Account;
  let idle: Account;

  beforeAll(async () => {
    server = await boot(mode);
    // name: [played, won, points, fastest, joined]; win rates 14 (29/200), 13 (1/8 = 12.5 rounds up),
    // 67, 33, 33, 100, 20, 15.
    const table: Record<string, [number, number, number, number | null, Date]> = {
      p1: [200, 29, 900, null, day(1)],
      p2: [8, 1, 900, 30, day(2)],
      p3: [3, 2, 300, 45, day(3)],
      p4: [3, 1, 300, null, day(3)],
      p5: [3, 1, 300, null, day(3)],
      p6: [1, 1, 50, 20, day(4)],
      p7: [50, 10, 1200, null, day(5)],
      p8: [20, 3, 100, 60, day(6)],
    };
    for (const [name, [gamesPlayed, gamesWon, totalPoints, fastestGame, createdAt]] of Object.entries(table)) {
      p[name] = await register(server, name);
      await patch(server, (p[name] as Account).id, { gamesPlayed, gamesWon, totalPoints, fastestGame, createdAt });
    }
    // Equal in every stat and date, p4 and p5 are told apart by id: name them in id order.
    if ((p.p4 as Account).id > (p.p5 as Account).id) [p.p4, p.p5] = [p.p5 as Account, p.p4 as Account];
    // A guest who would top every board, and an account that never played.
    guestAccount = await guest(server);
    await patch(server, guestAccount.id, { gamesPlayed: 500, gamesWon: 400, totalPoints: 99_999 });
    idle = await register(server, 'idle');

    // Two games played, one aborted, one still waiting: only the first two count.
    const row = (roomCode: string, status: 'finished' | 'waiting', endReason: string | null) => ({
      roomCode,
      status,
      endReason,
      settings: gameSettings(),
      ...(status === 'finished' ? { finishedAt: new Date() } : {}),
    });
    await server.app.db
      .insert(games)
      .values([
        row('AAAAAA', 'finished', 'win'),
        row('BBBBBB', 'finished', 'timeCap'),
        row('CCCCCC', 'finished', 'aborted'),
        row('DDDDDD', 'waiting', null),
      ]);
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function board(query = '') {
    const res = await call(server.base, 'GET', `/auth/leaderboard${query}`);
    expect(res.status).toBe(200);
    const parsed = successSchemaFor('leaderboard').parse(res.body) as { data: unknown };
    return leaderboardDataSchema.parse(parsed.data);
  }
  const names = (list: { _id: string }[]) =>
    list.map((u) => Object.entries(p).find(([, a]) => a.id === u._id)?.[0] ?? u._id);

  it('ranks by totalPoints by default, without signing in, with the full row', async () => {
    const data = await board();
    expect(names(data.users)).toEqual(['p7', 'p1', 'p2', 'p3', 'p4', 'p5', 'p8', 'p6']);
    expect(data.users.map((u) => u.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(data.users[2]).toEqual({
      _id: p.p2?.id,
      rank: 3,
      username: p.p2?.username,
      createdAt: day(2).toISOString(),
      stats: {
        gamesPlayed: 8,
        gamesWon: 1,
        winRate: 13,
        totalPoints: 900,
        fastestGame: 30,
        rating: 1500,
        ratingProvisional: true,
        ratedGames: 0,
      },
    });
    expect(await board('?sortBy=totalPoints')).toEqual(data);
  });

  it('ranks by rating only those with a rated game, provisional ones marked', async () => {
    await patch(server, (p.p1 as Account).id, { rating: 1600.4, ratingDeviation: 60, ratedGames: 12 });
    await patch(server, (p.p3 as Account).id, { rating: 1712.6, ratingDeviation: 200, ratedGames: 2 });
    const { users: rated } = await board('?sortBy=rating');
    expect(names(rated)).toEqual(['p3', 'p1']);
    expect(rated.map((u) => [u.stats.rating, u.stats.ratingProvisional, u.stats.ratedGames])).toEqual([
      [1713, true, 2],
      [1600, false, 12],
    ]);
    for (const id of [p.p1, p.p3]) {
      await patch(server, (id as Account).id, { rating: 1500, ratingDeviation: 350, ratedGames: 0 });
    }
  });

  it('ranks by each sort, ties broken by points, wins, join date, then id', async () => {
    expect(names((await board('?sortBy=gamesWon')).users)).toEqual(['p1', 'p7', 'p8', 'p3', 'p2', 'p4', 'p5', 'p6']);
    expect(names((await board('?sortBy=winRate')).users)).toEqual(['p6', 'p3', 'p4', 'p5', 'p7', 'p8', 'p1', 'p2']);
    expect(names((await board('?sortBy=gamesPlayed')).users)).toEqual(['p1', 'p7', 'p8', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('answers the same order every time, whatever order the rows were written in', async () => {
    // Rewriting p4 moves its row in the heap; its place among equals must not change.
    await patch(server, (p.p4 as Account).id, { totalPoints: 300 });
    for (const sortBy of ['totalPoints', 'gamesWon', 'winRate', 'gamesPlayed']) {
      const first = await board(`?sortBy=${sortBy}`);
      expect(await board(`?sortBy=${sortBy}`)).toEqual(first);
      const order = names(first.users);
      expect(order.indexOf('p4')).toBe(order.indexOf('p5') - 1);
    }
    // Equal points and wins: the earlier account first (p1 joined before p2, both 900 points)...
    await patch(server, (p.p2 as Account).id, { gamesPlayed: 200, gamesWon: 29 });
    expect(names((await board()).users).slice(1, 3)).toEqual(['p1', 'p2']);
    await patch(server, (p.p2 as Account).id, { createdAt: day(0) });
    expect(names((await board()).users).slice(1, 3)).toEqual(['p2', 'p1']);
    expect(names((await board('?sortBy=gamesWon')).users).slice(0, 2)).toEqual(['p2', 'p1']);
    // ...whoever that is.
    await patch(server, (p.p2 as Account).id, { gamesPlayed: 8, gamesWon: 1, createdAt: day(2) });
  });

  it('rounds win rates to whole percents exactly as the profile does', async () => {
    const rates = Object.fromEntries((await board()).users.map((u) => [names([u])[0], u.stats.winRate]));
    expect(rates).toEqual({ p1: 14, p2: 13, p3: 67, p4: 33, p5: 33, p6: 100, p7: 20, p8: 15 });
    expect(winRatePercent(29, 200)).toBe(14);
    // The SQL expression agrees with winRatePercent on every record up to 300 games.
    // node-postgres answers raw SQL with a `rows` array.
    const result = (await server.app.db.execute(
      sql`select played, won, ${winRateSql(sql`won`, sql`played`)} as rate
          from generate_series(0, 300) as played, generate_series(0, 300) as won where won <= played`,
    )) as unknown as { rows: { played: number; won: number; rate: number }[] };
    const list = result.rows;
    expect(list.length).toBe((301 * 302) / 2);
    const wrong = list.filter((r) => Number(r.rate) !== winRatePercent(Number(r.won), Number(r.played)));
    expect(wrong).toEqual([]);
  });

  it('leaves out guests and accounts that never played', async () => {
    for (const sortBy of ['totalPoints', 'gamesWon', 'winRate', 'gamesPlayed']) {
      const ids = (await board(`?sortBy=${sortBy}`)).users.map((u) => u._id);
      expect(ids).not.toContain(guestAccount.id);
      expect(ids).not.toContain(idle.id);
      expect(ids).toHaveLength(8);
    }
  });

  it('takes limits from 1 to 50 and refuses others with a 422', async () => {
    expect(names((await board('?limit=1')).users)).toEqual(['p7']);
    expect(names((await board('?sortBy=winRate&limit=3')).users)).toEqual(['p6', 'p3', 'p4']);
    expect((await board('?limit=50')).users).toHaveLength(8);
    for (const query of ['?limit=51', '?limit=0', '?limit=-1', '?limit=2.5', '?limit=ten', '?sortBy=level']) {
      const res = await call(server.base, 'GET', `/auth/leaderboard${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("accepts the client's cache-busting timestamp and a bearer token", async () => {
    const data = await board(`?sortBy=gamesWon&limit=50&_t=${Date.now()}`);
    expect(names(data.users)[0]).toBe('p1');
    const withToken = await call(server.base, 'GET', '/auth/leaderboard?sortBy=gamesWon', {
      token: (p.p3 as Account).token,
    });
    expect(withToken.body.data).toEqual(data);
  });

  it('counts games in the games table, points over every account', async () => {
    const { stats } = await board();
    expect(stats.totalGamesPlayed).toBe(2);
    // 900 + 900 + 300 * 3 + 50 + 1200 + 100 for the ranked, 99 999 for the guest, 0 for the idle account.
    expect(stats.totalPointsScored).toBe(4050 + 99_999);
  });

  it('counts players online: users with a live socket, each once', async () => {
    const online = async () => (await board()).stats.totalPlayersOnline;
    expect(await online()).toBe(0);
    const first = await connect(server.base, (p.p1 as Account).token);
    const secondTab = await connect(server.base, (p.p1 as Account).token);
    const other = await connect(server.base, guestAccount.token);
    clients.push(first, secondTab, other);
    await eventually(online, 2);
    first.close();
    await eventually(online, 2);
    secondTab.close();
    other.close();
    await eventually(online, 0);
  });
});

describe.each(DATABASE_MODES)('admin statistics on %s', (mode) => {
  let server: Booted;
  const clients: Client[] = [];
  const staff: Record<string, Account> = {};
  let player: Account;
  let veteran: Account;
  let demo: Account;

  beforeAll(async () => {
    server = await boot(mode);
    for (const role of STAFF_ROLES) {
      staff[role] = await register(server, role.slice(0, 5));
      await patch(server, (staff[role] as Account).id, { role });
    }
    player = await register(server, 'player');
    veteran = await register(server, 'veteran');
    demo = await guest(server);
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const stats = async (token: string) => {
    const res = await call(server.base, 'GET', '/auth/admin/stats', { token });
    expect(res.status).toBe(200);
    return adminStatsSchema.parse(res.body.data);
  };

  it('needs sign-in (401) and a role with admin access (403)', async () => {
    const signedOut = await call(server.base, 'GET', '/auth/admin/stats');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toEqual({ success: false, message: SERVER_TEXTS.authenticationRequired });
    expect((await call(server.base, 'GET', '/auth/admin/stats', { token: 'not-a-token' })).status).toBe(401);
    for (const account of [player, demo]) {
      const res = await call(server.base, 'GET', '/auth/admin/stats', { token: account.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: HTTP_TEXTS.accessDenied });
    }
    for (const role of STAFF_ROLES) {
      const res = await call(server.base, 'GET', `/auth/admin/stats?_t=${Date.now()}`, {
        token: (staff[role] as Account).token,
      });
      expect(res.status, role).toBe(200);
      expect(successSchemaFor('adminStats').safeParse(res.body).success).toBe(true);
    }
    // A role taken away counts at once: the token is the same, the role is read per request.
    await patch(server, (staff.moderator as Account).id, { role: 'user' });
    expect((await call(server.base, 'GET', '/auth/admin/stats', { token: staff.moderator?.token })).status).toBe(403);
    await patch(server, (staff.moderator as Account).id, { role: 'moderator' });
  });

  it('counts registered accounts per role, every role present, guests left out', async () => {
    const data = await stats((staff.admin as Account).token);
    expect(Object.keys(data.userStats).sort()).toEqual([...USER_ROLES].sort());
    expect(data.userStats).toEqual({
      superadmin: { count: 1, onlineCount: 0 },
      admin: { count: 1, onlineCount: 0 },
      moderator: { count: 1, onlineCount: 0 },
      user: { count: 2, onlineCount: 0 },
    });
    expect(data.totalUsers).toBe(5);
    expect(data.tournamentCount).toBe(0);
    expect(await stats((staff.moderator as Account).token)).toEqual(data);
    expect(await stats((staff.superadmin as Account).token)).toEqual(data);
    // Nobody here has played: the public board is empty.
    const board = await call(server.base, 'GET', '/auth/leaderboard');
    expect(board.body.data.users).toEqual([]);
  });

  it('counts a role with nobody in it as zero', async () => {
    await patch(server, (staff.superadmin as Account).id, { role: 'admin' });
    const data = await stats((staff.admin as Account).token);
    expect(data.userStats.superadmin).toEqual({ count: 0, onlineCount: 0 });
    expect(data.userStats.admin).toEqual({ count: 2, onlineCount: 0 });
    await patch(server, (staff.superadmin as Account).id, { role: 'superadmin' });
  });

  it('counts who is online per role, each user once', async () => {
    const read = async () => {
      const { userStats } = await stats((staff.superadmin as Account).token);
      return Object.fromEntries(USER_ROLES.map((role) => [role, userStats[role].onlineCount]));
    };
    const sockets = [
      await connect(server.base, (staff.moderator as Account).token),
      await connect(server.base, (staff.moderator as Account).token),
      await connect(server.base, player.token),
      await connect(server.base, demo.token),
    ];
    clients.push(...sockets);
    await eventually(read, { superadmin: 0, admin: 0, moderator: 1, user: 1 });
    sockets.forEach((s) => s.close());
    await eventually(read, { superadmin: 0, admin: 0, moderator: 0, user: 0 });
  });

  it('counts registrations of the last 7 days', async () => {
    expect((await stats((staff.admin as Account).token)).recentRegistrations).toBe(5);
    await patch(server, veteran.id, { createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
    expect((await stats((staff.admin as Account).token)).recentRegistrations).toBe(4);
    await patch(server, veteran.id, { createdAt: new Date(Date.now() - 6 * 24 * 60 * 60 * 1000) });
    const data = await stats((staff.admin as Account).token);
    expect(data.recentRegistrations).toBe(5);
    expect(data.totalUsers).toBe(5);
  });

  it('counts tournaments', async () => {
    const noPrizes = { settings: tournamentSettings(), prizeTotal: '0', prizeAmounts: [] };
    const start = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await server.app.db.insert(tournaments).values([
      { name: 'Spring Slam', startDate: start, endDate: new Date(start.getTime() + 3_600_000), ...noPrizes },
      { name: 'Summer Slam', startDate: start, endDate: new Date(start.getTime() + 7_200_000), ...noPrizes },
    ]);
    expect((await stats((staff.moderator as Account).token)).tournamentCount).toBe(2);
  });
});
