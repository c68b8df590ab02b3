/**
 * A DATA_DIR as the PGlite release left it, for pglite-upgrade.test.ts: PGlite's database made with
 * today's schema and migrations and filled through today's services (accounts, sessions, e-mail links,
 * a linked wallet, a tournament paid into the wallet ledger, a finished bot game with its replay, a
 * live game with its log), and the tools to compare its rows with PostgreSQL's.
 */

import { type KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type Card, type GameState, matches } from '@memeslam/engine';
import { createBotGameSchema, createTournamentSchema } from '@memeslam/protocol';
import bs58 from 'bs58';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pino from 'pino';
import { expect } from 'vitest';
import { AuthService } from '../../src/auth/service.ts';
import { SessionTokens } from '../../src/auth/tokens.ts';
import type { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import * as schema from '../../src/db/schema.ts';
import { gameRecordsFor } from '../../src/games/records.ts';
import { GameService } from '../../src/games/service.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { TournamentService } from '../../src/tournaments/service.ts';
import { WalletService } from '../../src/wallet/service.ts';
import { type Booted, newAccount } from './boot.ts';
import { botWinsSeed, findSeed } from './deals.ts';

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));
const HOUR_MS = 3_600_000;
/** Six decimals, as the tournament form allows: it must reach the ledger to the last digit. */
export const PRIZE = 1234.567891;
export const BOT_GAME = {
  numberOfBots: 1,
  botDifficulty: 'easy',
  gameSpeed: 'fast',
  autoStart: true,
  cardsPerPlayer: 20,
};

/** The tops of the piles the human (seat 0) has a card for. */
function playablePiles(state: GameState): Set<number> {
  const piles = new Set<number>();
  state.piles.forEach((pile, index) => {
    const top = pile.at(-1);
    if (top && state.players[0]?.hand.some((card) => matches(card, top))) piles.add(index);
  });
  return piles;
}

/** A deal of the live game where the human can play on two piles: one play before the upgrade, one after. */
const liveSeed = findSeed(2, (state) => playablePiles(state).size >= 2, {
  cardsPerPlayer: BOT_GAME.cardsPerPlayer,
  speed: 'fast',
  bots: [null, 'easy'],
});

/** Every row of every table, as PostgreSQL's JSON of it, sorted: what a copy must carry over unchanged. */
export type Dump = Record<string, string[]>;
type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

export async function dump(query: Query): Promise<Dump> {
  const { rows: tables } = await query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  const all: Dump = {};
  for (const { name } of tables) {
    const { rows } = await query(`SELECT row_to_json(t)::text AS row FROM "${String(name)}" t`);
    all[String(name)] = rows.map((r) => String(r.row)).sort();
  }
  return all;
}

export const onApp =
  (server: Booted): Query =>
  async (text) =>
    (await server.app.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };

export interface Filled {
  readonly alice: { id: string; email: string; password: string; token: string; staleToken: string };
  readonly bob: { id: string; token: string };
  readonly walletAddress: string;
  readonly tournamentId: string;
  readonly finishedGameId: string;
  readonly liveGameId: string;
  /** Bob's card played in the live game before the upgrade. */
  readonly playedBefore: string;
  /** Bob's verification link, as the dev outbox holds it. */
  readonly bobVerifyToken: string;
  readonly before: Dump;
}

/**
 * The PGlite release's DATA_DIR: PGlite in `DATA_DIR/pglite`, today's migrations, and rows written by
 * today's services (the PGlite release's own code paths: same schema, same statements).
 */
export async function fillPgliteRelease(dataDir: string, clock: ManualClock): Promise<Filled> {
  const pglite = await PGlite.create(join(dataDir, 'pglite'));
  const drizzled = drizzle(pglite, { schema });
  await migrate(drizzled, { migrationsFolder });
  const db = drizzled as unknown as Db;
  const log = pino({ level: 'silent' });
  // No JWT_SECRET: as a default install, the secret is the one kept in DATA_DIR, which the new release reads too.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://memeslam.test' });
  const mailer = createMailer({ smtpUrl: null, from: config.mailFrom, db, log });
  const failures: unknown[] = [];
  const tokens = new SessionTokens(config.jwtSecret);
  const auth = new AuthService({
    db,
    tokens,
    mailer,
    config,
    onMailError: (error) => failures.push(error),
    onBackgroundError: (error) => failures.push(error),
    gameRecords: (userId) => gameRecordsFor(db, userId),
  });
  const tournaments = new TournamentService({ db, clock, log });
  const wallets = new WalletService({ db, secret: config.jwtSecret, clock, publicUrl: config.publicUrl });
  const seeds = [botWinsSeed(), liveSeed];
  let recorded: () => void = () => {};
  const firstRecord = new Promise<void>((resolve) => (recorded = resolve));
  const games = new GameService({
    db,
    prepared: (statement) => pglite.query(statement.text, statement.values),
    clock,
    log,
    seeds: () => {
      const seed = seeds.shift();
      if (!seed) throw new Error('no seed left for another game');
      return seed;
    },
    onRecorded: () => recorded(),
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    games.stop();
    await games.close();
    tournaments.close();
  };
  try {
    // Accounts: each registration leaves a verification link (e-mail token) and its mail in the dev outbox.
    const aliceAccount = newAccount('alice');
    const alice = await auth.register(aliceAccount);
    const bob = await auth.register(newAccount('bob'));
    await auth.demo();
    // Sessions: a refresh raises alice's token version; her earlier token stops working.
    const staleToken = (await auth.session(alice)).token;
    const { token: aliceToken } = await auth.refresh(alice);
    const bobToken = (await auth.session(bob)).token;
    // A password-reset link too.
    auth.forgotPassword(alice.email);
    await auth.settled();

    // A linked Solana wallet.
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const walletAddress = bs58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url'));
    const nonce = await wallets.issueNonce(alice, walletAddress);
    await wallets.verify(alice, {
      address: walletAddress,
      nonce: nonce.nonce,
      signature: signed(privateKey, nonce.message),
      message: nonce.message,
    });

    // A tournament of the next hour that bot games count for; alice and bob join.
    const draft = createTournamentSchema.parse({
      name: 'Before Postgres',
      startDate: new Date(clock.now()).toISOString(),
      endDate: new Date(clock.now() + HOUR_MS).toISOString(),
      totalAmount: PRIZE,
      winnersCount: 1,
      prizeDistribution: [{ position: 1, amount: PRIZE }],
      minGamesRequired: 1,
      allowBots: true,
    });
    const tournament = await tournaments.create(draft, alice);
    await tournaments.join(alice, tournament.id);
    await tournaments.join(bob, tournament.id);

    // A finished game: alice against an easy bot that plays every card (the seed), to its end and record.
    const aliceUser = { id: alice.id, username: alice.username };
    await games.connected(alice.id);
    const finished = await games.handle(aliceUser, { type: 'create', setup: createBotGameSchema.parse(BOT_GAME) });
    if (!finished.ok) throw new Error(`the bot game was not created: ${finished.error}`);
    const finishedGameId = finished.data.gameId;
    await runUntil(clock, games, finishedGameId, () => games.find(finishedGameId)?.status === 'active');
    // One card of hers, so that the replay holds a command; the bot still plays all of its own first.
    await playAny(games, aliceUser);
    await runUntil(clock, games, finishedGameId, () => games.find(finishedGameId)?.status === 'finished');
    await firstRecord;
    games.disconnected(alice.id);

    // The tournament ends: its prize is paid into alice's wallet ledger.
    clock.advance(HOUR_MS);
    await tournaments.settle();
    const [payout] = await db
      .select()
      .from(schema.walletLedger)
      .where(eq(schema.walletLedger.reference, tournament.id));
    if (payout?.userId !== alice.id) throw new Error('the tournament did not pay alice');

    // A live game: bob against a bot, started, one card played and acknowledged; it stays unfinished.
    const bobUser = { id: bob.id, username: bob.username };
    await games.connected(bob.id);
    const live = await games.handle(bobUser, { type: 'create', setup: createBotGameSchema.parse(BOT_GAME) });
    if (!live.ok) throw new Error(`the live game was not created: ${live.error}`);
    const liveGameId = live.data.gameId;
    await runUntil(clock, games, liveGameId, () => games.find(liveGameId)?.status === 'active');
    const playedBefore = await playAny(games, bobUser);

    // Stopped as the PGlite release stops: rooms' last writes and records durable, then the database closed.
    await stop();
    await auth.settled();
    mailer.close();
    expect(failures).toEqual([]);

    const [verifyMail] = await db
      .select({ link: schema.outbox.link })
      .from(schema.outbox)
      .where(eq(schema.outbox.to, bob.email));
    const bobVerifyToken = new URL(verifyMail?.link ?? '').searchParams.get('token') ?? '';
    const before = await dump((text) => pglite.query(text));
    return {
      alice: {
        id: alice.id,
        email: alice.email,
        password: aliceAccount.password,
        token: aliceToken,
        staleToken,
      },
      bob: { id: bob.id, token: bobToken },
      walletAddress,
      tournamentId: tournament.id,
      finishedGameId,
      liveGameId,
      playedBefore,
      bobVerifyToken,
      before,
    };
  } finally {
    await stop();
    await pglite.close();
  }
}

/** Plays one card of the user's hand that matches a pile's top; its id once acknowledged. */
async function playAny(games: GameService, user: { id: string; username: string }): Promise<string> {
  const view = await games.handle(user, { type: 'view' });
  if (!view.ok) throw new Error(`no hand: ${view.error}`);
  const tops = (view.data.game.gameState?.discardPiles ?? []).map((pile) => pile.at(-1) as Card | undefined);
  for (const card of view.data.hand.hand) {
    const pileIndex = tops.findIndex((top) => top !== undefined && matches(card, top));
    if (pileIndex < 0) continue;
    const played = await games.handle(user, {
      type: 'play',
      command: { type: 'playCard', playerId: user.id, cardId: card.id, pileIndex },
    });
    if (!played.ok) throw new Error(`the play was refused: ${played.error}`);
    return card.id;
  }
  throw new Error(`${user.username} has no card to play`);
}

function signed(privateKey: KeyObject, message: string): string {
  return bs58.encode(sign(null, Buffer.from(message, 'utf8'), privateKey));
}

/** Moves game time a second at a time, each step durable before the next, until `done`. */
async function runUntil(clock: ManualClock, games: GameService, gameId: string, done: () => boolean): Promise<void> {
  for (let second = 0; !done(); second += 1) {
    if (second > 20 * 60) throw new Error(`game ${gameId} did not get there in 20 minutes of game time`);
    clock.advance(1000);
    await games.find(gameId)?.settled();
  }
  await games.find(gameId)?.settled();
}

/** Rows per table. */
export const counts = (all: Dump) =>
  Object.fromEntries(Object.entries(all).map(([table, rows]) => [table, rows.length]));
