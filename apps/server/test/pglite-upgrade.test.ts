/**
 * The upgrade from the PGlite release: a DATA_DIR whose database is PGlite's (`DATA_DIR/pglite`),
 * made with today's schema and migrations and filled through today's services (accounts, sessions,
 * e-mail links, a linked wallet, a tournament paid into the wallet ledger, a finished bot game with
 * its replay, a live game with its log), is moved into the embedded PostgreSQL on the first start of
 * this release. Everything is found there, the live game is rebuilt and playable, the old folder is
 * kept as a backup that the log names, and a later start copies nothing again.
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, type GameConfig, advance, apply, createGame } from '@memeslam/engine';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import * as schema from '../src/db/schema.ts';
import { type Booted, boot, call, temporaryDataDir } from './helpers/boot.ts';
import { type Client, connect, playOne } from './helpers/sockets.ts';
import {
  BOT_GAME,
  type Dump,
  type Filled,
  PRIZE,
  counts,
  dump,
  fillPgliteRelease,
  onApp,
} from './helpers/pglite-release.ts';

describe('a DATA_DIR written by the PGlite release', () => {
  const clock = new ManualClock();
  const dataDir = temporaryDataDir('memeslam-pglite-');
  const lines: string[] = [];
  const logStream = { write: (line: string) => void lines.push(line) };
  const messages = () => lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg ?? ''));
  let filled: Filled;
  let server: Booted;
  let bob: Client | undefined;

  beforeAll(async () => {
    filled = await fillPgliteRelease(dataDir, clock);
    // This thread also ran PGlite (WebAssembly) to write the old release's data, and the upgrade reads
    // it here too: on a loaded test machine its pauses pass the 1 s "Server busy" ceiling, which this
    // suite does not test (abuse.test.ts does), so the ceiling is out of its way.
    server = await boot(
      'own',
      { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      { clock, logStream, ceilings: { maxEventLoopDelayMs: 60_000 } },
    );
    // The live game's rebuild (its players counted away until they come back) is durable.
    await server.app.games.find(filled.liveGameId)?.settled();
  }, 240_000);

  afterAll(async () => {
    bob?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is moved whole: every row of every table, as PGlite held it', async () => {
    const after = await dump(onApp(server));
    expect(Object.keys(after).sort()).toEqual(Object.keys(filled.before).sort());
    for (const [table, rows] of Object.entries(filled.before)) {
      if (table === 'game_log') continue;
      expect(after[table], table).toEqual(rows);
    }
    // The live game's log is carried over as it was; its rebuild added the away player's step after it.
    const entries = (all: Dump) => all.game_log?.filter((row) => row.includes(filled.liveGameId)) ?? [];
    expect(entries(filled.before).length).toBeGreaterThan(0);
    expect(entries(after)).toEqual(expect.arrayContaining(entries(filled.before)));
    for (const table of [
      'users',
      'email_tokens',
      'outbox',
      'games',
      'game_players',
      'replays',
      'wallet_ledger',
      'tournaments',
      'tournament_participants',
    ]) {
      expect(filled.before[table]?.length, table).toBeGreaterThan(0);
    }
  });

  it('keeps the old folder as a backup and says where', () => {
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    const backups = readdirSync(dataDir).filter((name) => name.startsWith('pglite-before-postgres-'));
    expect(backups).toHaveLength(1);
    const backup = join(dataDir, backups[0] as string);
    expect(existsSync(join(backup, 'PG_VERSION'))).toBe(true);
    expect(messages()).toContain(
      `the PGlite database now lives in the embedded PostgreSQL; the old folder is kept as a backup in ${backup}`,
    );
  });

  it('accounts and sessions: the password signs in, the latest session works, a revoked one does not', async () => {
    const login = await call(server.base, 'POST', '/auth/login', {
      body: { email: filled.alice.email, password: filled.alice.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user.id).toBe(filled.alice.id);
    const me = await call(server.base, 'GET', '/auth/me', { token: filled.alice.token });
    expect(me.status).toBe(200);
    expect(me.body.data.user).toMatchObject({
      id: filled.alice.id,
      stats: { gamesPlayed: 1, botGamesPlayed: 1 },
      wallet: { balance: PRIZE, totalWon: PRIZE, solanaAddress: filled.walletAddress },
    });
    expect((await call(server.base, 'GET', '/auth/me', { token: filled.alice.staleToken })).status).toBe(401);
  });

  it('e-mail tokens: the links are there, and the one in the outbox still verifies', async () => {
    const rows = await server.app.db.select().from(schema.emailTokens);
    const purposes = (userId: string) =>
      rows
        .filter((r) => r.userId === userId)
        .map((r) => r.purpose)
        .sort();
    expect(purposes(filled.alice.id)).toEqual(['reset-password', 'verify-email']);
    expect(purposes(filled.bob.id)).toEqual(['verify-email']);
    const verified = await call(server.base, 'POST', '/auth/verify-email', { body: { token: filled.bobVerifyToken } });
    expect(verified.status).toBe(200);
    // Verifying signs nobody in (docs/accounts.md): the row says verified.
    const [bob] = await server.app.db.select().from(schema.users).where(eq(schema.users.id, filled.bob.id));
    expect(bob?.emailVerifiedAt).not.toBeNull();
  });

  it('the finished game: in the history, with its seats and a readable replay', async () => {
    const history = await call(server.base, 'GET', '/game/history', { token: filled.alice.token });
    expect(history.status).toBe(200);
    expect(history.body.data.total).toBe(1);
    expect(history.body.data.games[0]).toMatchObject({
      gameId: filled.finishedGameId,
      reason: 'win',
      gameState: { winner: { userId: 'bot-1' } },
    });
    const seats = await server.app.db
      .select()
      .from(schema.gamePlayers)
      .where(eq(schema.gamePlayers.gameId, filled.finishedGameId));
    expect(seats.map((s) => s.playerId).sort()).toEqual(['bot-1', filled.alice.id].sort());
    const replay = await call(server.base, 'GET', `/game/${filled.finishedGameId}/replay`, {
      token: filled.alice.token,
    });
    expect(replay.status).toBe(200);
    const [stored] = await server.app.db
      .select()
      .from(schema.replays)
      .where(eq(schema.replays.gameId, filled.finishedGameId));
    expect(replay.body.data).toMatchObject({ gameId: filled.finishedGameId, config: { seed: expect.any(String) } });
    expect(replay.body.data.commands).toEqual(stored?.commands);
    // The replay runs again through the engine to the same end: her one card, then the bot's win.
    const { config, commands } = replay.body.data as {
      config: GameConfig;
      commands: { at: number; command: Command }[];
    };
    expect(commands.map((c) => c.command)).toEqual([
      expect.objectContaining({ type: 'playCard', playerId: filled.alice.id }),
    ]);
    let state = createGame(config);
    for (const { at, command } of commands) {
      state = advance(state, at).state;
      const applied = apply(state, command, at);
      expect(applied.ok).toBe(true);
      state = applied.state;
    }
    state = advance(state, state.endsAt).state;
    const [game] = await server.app.db.select().from(schema.games).where(eq(schema.games.id, filled.finishedGameId));
    expect(state.result).toMatchObject({ reason: 'win', winnerId: 'bot-1', durationMs: game?.durationMs });
  });

  it('the tournament, its participants, and its payout in the wallet ledger to the last digit', async () => {
    const [ledger, ...more] = await server.app.db
      .select()
      .from(schema.walletLedger)
      .where(eq(schema.walletLedger.reference, filled.tournamentId));
    expect(more).toEqual([]);
    expect(ledger).toMatchObject({
      userId: filled.alice.id,
      currency: 'SLAM',
      kind: 'tournamentPrize',
      amount: '1234.567891000',
    });
    const listed = await call(server.base, 'GET', '/tournaments', { token: filled.alice.token });
    const tournament = (listed.body.data.tournaments as { id: string }[]).find((t) => t.id === filled.tournamentId);
    expect(tournament).toMatchObject({
      name: 'Before Postgres',
      status: 'ended',
      participantCount: 2,
      isJoined: true,
      prizePool: { totalAmount: PRIZE, distribution: [{ position: 1, amount: PRIZE }] },
    });
    const board = await call(server.base, 'GET', `/tournaments/${filled.tournamentId}/live-leaderboard`);
    expect(board.body.data.leaderboard).toMatchObject([
      { userId: filled.alice.id, position: 1, isPrizeWinner: true, prizeAmount: PRIZE },
      { userId: filled.bob.id, position: 2, isPrizeWinner: false },
    ]);
    // Settling again (the start already did) pays nothing more.
    await server.app.tournaments.settle();
    const rows = await server.app.db
      .select()
      .from(schema.walletLedger)
      .where(eq(schema.walletLedger.reference, filled.tournamentId));
    expect(rows).toHaveLength(1);
  });

  it('the live game is rebuilt from its log and playable', async () => {
    expect(server.app.games.find(filled.liveGameId)?.status).toBe('active');
    bob = await connect(server.base, filled.bob.token);
    const rejoined = await bob.waitFor('gameRejoined');
    expect(rejoined.game.gameId).toBe(filled.liveGameId);
    expect(rejoined.cardsLeft).toBe(BOT_GAME.cardsPerPlayer - 1);
    expect((rejoined.hand as { id: string }[]).map((c) => c.id)).not.toContain(filled.playedBefore);
    const card = await playOne(bob);
    expect(card).not.toBeNull();
    const [entry] = await server.app.db
      .select()
      .from(schema.gameLog)
      .where(eq(schema.gameLog.gameId, filled.liveGameId))
      .orderBy(sql`${schema.gameLog.n} desc`)
      .limit(1);
    expect(entry?.command).toMatchObject({ type: 'playCard', playerId: filled.bob.id, cardId: card });
    bob.close();
  });

  it('a second start copies nothing again, even when it finds the PGlite folder back in place', async () => {
    const backups = () => readdirSync(dataDir).filter((name) => name.startsWith('pglite-before-postgres-'));
    const before = counts(await dump(onApp(server)));
    delete before.game_log;
    const moved = () => messages().filter((m) => m.startsWith('moving the PGlite database')).length;
    expect(moved()).toBe(1);

    // A plain restart: no folder to move.
    await server.restart({ clock, logStream });
    await server.app.games.find(filled.liveGameId)?.settled();
    expect(counts(await dump(onApp(server)))).toMatchObject(before);
    expect(backups()).toHaveLength(1);
    expect(moved()).toBe(1);

    // The copy committed but the process died before the rename: the next start renames, copies nothing.
    cpSync(join(dataDir, backups()[0] as string), join(dataDir, 'pglite'), { recursive: true });
    await server.restart({ clock, logStream });
    await server.app.games.find(filled.liveGameId)?.settled();
    expect(counts(await dump(onApp(server)))).toMatchObject(before);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(backups()).toHaveLength(2);
    expect(moved()).toBe(1);
  });
});
