/**
 * "Match me" over real HTTP and sockets: a match bot game is accepted and its bot takes
 * the host's recorded pace (the default with no history); a finished game's median time per play
 * joins the player's stats, and the next match bot is paced by it.
 */
import {
  type Card,
  DEFAULT_MATCH_PACE_MS,
  type GameState,
  apply,
  createGame,
  matchLabel,
  matches,
} from '@memeslam/engine';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { games, users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call } from './helpers/boot.ts';
import { findSeed } from './helpers/deals.ts';
import { type Client, newPerson } from './helpers/sockets.ts';

const PLAYS = 5;
const GAP_MS = 1500;
const tops = (s: GameState) => s.piles.map((p) => p.at(-1) as Card);

/** The first playable (card, pile) of seat 0, if any. */
function firstMove(s: GameState): { cardId: string; pileIndex: number } | null {
  for (const card of s.players[0]!.hand) {
    const pileIndex = tops(s).findIndex((t) => matches(card, t));
    if (pileIndex >= 0) return { cardId: card.id, pileIndex };
  }
  return null;
}

describe.each(DATABASE_MODES)('"Match me" on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const seeds: string[] = [];
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, {}, { clock, seeds: () => seeds.shift() ?? 'f'.repeat(32) });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const person = (prefix: string) => newPerson(server.base, prefix, clients);

  async function matchGame(token: string) {
    const res = await call(server.base, 'POST', '/game/create-bot-game', {
      token,
      body: { numberOfBots: 1, botDifficulty: 'match', autoStart: false },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ numberOfBots: 1, botDifficulty: 'match' });
    const [row] = await server.app.db.select().from(games).where(eq(games.id, res.body.data.gameId));
    const bot = res.body.data.game.players.find((p: { isBot: boolean }) => p.isBot);
    return { bot, pace: (row?.settings as { bots: { matchPaceMs: number } }).bots.matchPaceMs };
  }

  it('accepts a match bot game: with no history the bot takes the default pace', async () => {
    const me = await person('match');
    const { bot, pace } = await matchGame(me.token);
    expect(pace).toBe(DEFAULT_MATCH_PACE_MS);
    expect(bot.botDifficulty).toBe(matchLabel(DEFAULT_MATCH_PACE_MS));
    // A pace is never taken from a client.
    const forged = await call(server.base, 'POST', '/game/create', {
      token: (await person('forger')).token,
      body: { withBots: true, numberOfBots: 1, botSettings: { difficulty: 'match', matchPaceMs: 900 } },
    });
    expect(forged.status).toBe(422);
  });

  it('deals the match bot its pace: the game header carries it, so a replay repeats it', async () => {
    const me = await person('dealt');
    const created = await me.client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'match',
      autoStart: true,
    });
    expect(created.success).toBe(true);
    clock.advance(6000);
    await me.client.waitFor('gameStarted');
    const header = async () => {
      const [row] = await server.app.db.select().from(games).where(eq(games.id, created.data.gameId));
      return row?.header as { config: { seats: { bot: string | null; botPaceMs?: number }[] } } | null;
    };
    await vi.waitFor(async () => expect(await header()).not.toBeNull(), { timeout: 10_000, interval: 20 });
    const seats = (await header())!.config.seats;
    expect(seats.find((s) => s.bot !== null)).toMatchObject({
      bot: matchLabel(DEFAULT_MATCH_PACE_MS),
      botPaceMs: DEFAULT_MATCH_PACE_MS,
    });
    expect(seats.find((s) => s.bot === null)?.botPaceMs).toBeUndefined();
    await me.client.emit('leaveGame', {});
  });

  it('records the median time per play of a finished game, and paces the next match bot by it', async () => {
    // A deal on which seat 0 can play PLAYS cards in a row.
    const seed = findSeed(2, (dealt) => {
      let s = dealt;
      for (let n = 0; n < PLAYS; n += 1) {
        const move = firstMove(s);
        if (!move) return false;
        const played = apply(s, { type: 'playCard', playerId: 'p0', ...move }, n);
        if (!played.ok) return false;
        s = played.state;
      }
      return true;
    });
    const host = await person('pace');
    const guest = await person('rival');
    const created = await host.client.emit('createGame', { maxPlayers: 2 });
    await guest.client.emit('joinGame', { roomCode: created.data.roomCode });
    await host.client.emit('setPlayerReady', { isReady: true });
    await guest.client.emit('setPlayerReady', { isReady: true });
    seeds.push(seed);
    await host.client.emit('startGame', {});
    clock.advance(5000);
    await host.client.waitFor('handDealt');

    // The host plays PLAYS cards, GAP_MS apart on the game clock, following the server's own deal.
    let s = createGame({
      seed,
      seats: [
        { id: 'p0', username: 'p0', bot: null },
        { id: 'p1', username: 'p1', bot: null },
      ],
      cardsPerPlayer: 30,
      speed: 'normal',
      startAt: 0,
    });
    for (let n = 0; n < PLAYS; n += 1) {
      const move = firstMove(s) as { cardId: string; pileIndex: number };
      clock.advance(GAP_MS);
      const ack = await host.client.emit('playCard', move);
      expect(ack.success).toBe(true);
      s = (apply(s, { type: 'playCard', playerId: 'p0', ...move }, n) as { state: GameState }).state;
    }
    // The host leaves (7.5 s in: an early walk-away, so the game is aborted, docs/fair-play.md); the
    // record gives the leaver its loss, and with it the pace; the guest, who stayed, gets no record.
    await host.client.emit('leaveGame', {});
    expect(await guest.client.waitFor('gameEnded')).toMatchObject({ reason: 'aborted' });
    const paces = async () => {
      const [row] = await server.app.db.select().from(users).where(eq(users.id, host.user.id));
      return row?.playPaces;
    };
    // The record is written after gameEnded is sent: wait for it.
    await vi.waitFor(async () => expect(await paces()).toEqual([GAP_MS]), { timeout: 10_000, interval: 20 });
    const [guestRow] = await server.app.db.select().from(users).where(eq(users.id, guest.user.id));
    expect(guestRow?.playPaces).toEqual([]);

    await host.client.emit('leaveGame', {});
    const { bot, pace } = await matchGame(host.token);
    expect(pace).toBe(GAP_MS);
    expect(bot.botDifficulty).toBe(matchLabel(GAP_MS));
  });
});
