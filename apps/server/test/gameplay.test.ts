/**
 * Two people in one game over real sockets, on deals chosen by seed and a clock moved by hand:
 * the race for one pile, every power-up with its effect data, freeze, the three deadlock
 * resolutions, reconnecting, the 60-second forfeit, a rematch, and the rating a game between people moves.
 */
import {
  type Card,
  EARLY_LEAVE_MIN_CARDS,
  EARLY_LEAVE_MS,
  type GameState,
  RULE_TEXTS,
  formatCard,
  matches,
} from '@memeslam/engine';
import { POWER_UP_EFFECT_TEXTS } from '@memeslam/protocol';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call } from './helpers/boot.ts';
import { findSeed, playsAloneSeed } from './helpers/deals.ts';
import { type Client, connect, newPerson, playCards } from './helpers/sockets.ts';

const tops = (s: GameState) => s.piles.map((p) => p.at(-1) as Card);
const canPlay = (hand: readonly Card[], s: GameState) => hand.some((c) => tops(s).some((t) => matches(c, t)));

describe.each(DATABASE_MODES)('gameplay on %s', (mode) => {
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

  /** Host (seat 0) and guest (seat 1) in a dealt game of people only, on the given seed. */
  async function duel(seed: string) {
    const host = await person('host');
    const guest = await person('guest');
    const created = await host.client.emit('createGame', { maxPlayers: 2 });
    await guest.client.emit('joinGame', { roomCode: created.data.roomCode });
    await host.client.emit('setPlayerReady', { isReady: true });
    await guest.client.emit('setPlayerReady', { isReady: true });
    seeds.push(seed);
    await host.client.emit('startGame', {});
    clock.advance(5000);
    await host.client.waitFor('handDealt');
    await guest.client.waitFor('handDealt');
    return { host, guest, gameId: created.data.gameId as string };
  }

  it('a race for one pile: exactly one play lands, the other is refused, both views agree', async () => {
    const seed = findSeed(2, (s) => {
      const top = tops(s)[0] as Card;
      const a = s.players[0]!.hand.find((c) => matches(c, top));
      const b = s.players[1]!.hand.find((c) => matches(c, top));
      return !!a && !!b && !matches(a, b);
    });
    const { host, guest } = await duel(seed);
    const top = (await host.client.waitFor('gameStarted')).gameState.discardPiles[0].at(-1);
    const a = host.client.hand.find((c) => matches(c as never, top))!;
    const b = guest.client.hand.find((c) => matches(c as never, top))!;
    const [ra, rb] = await Promise.all([
      host.client.emit('playCard', { cardId: a.id, pileIndex: 0 }),
      guest.client.emit('playCard', { cardId: b.id, pileIndex: 0 }),
    ]);
    expect([ra.success, rb.success].filter(Boolean)).toHaveLength(1);
    const [winner, loser, lost] = ra.success ? [a, b, rb] : [b, a, ra];
    expect(lost.error).toBe(`Cannot play ${formatCard(loser as never)} on ${formatCard(winner as never)}`);
    const [va, vb] = await Promise.all([host.client.emit('requestHand', {}), guest.client.emit('requestHand', {})]);
    expect(va.data.gameState.discardPiles).toEqual(vb.data.gameState.discardPiles);
    expect(va.data.gameState.discardPiles[0].at(-1).id).toBe(winner.id);
    expect(va.data.seq).toBe(vb.data.seq);
  });

  it('every power-up once, with its effect data, seen by both players; a second use is refused', async () => {
    const { host, guest } = await duel('0'.repeat(31) + '7');
    const bomb = await host.client.emit('usePowerUp', { powerUpType: 'BOMB', targetData: { pileIndex: 1 } });
    expect(bomb).toMatchObject({
      success: true,
      data: { powerUpType: 'BOMB', data: { powerUpType: 'BOMB', pileIndex: 1 } },
    });
    expect(bomb.data.data.card).toMatchObject({ id: expect.any(String), number: expect.any(Number) });
    const seen = await guest.client.waitFor('powerUpUsed', (p) => p.powerUpType === 'BOMB');
    expect(seen).toMatchObject({ playerId: host.user.id, isBot: false, data: bomb.data.data });
    expect(seen.gameState.discardPiles[1].at(-1)).toEqual(bomb.data.data.card);
    expect(seen.effect).toBe(POWER_UP_EFFECT_TEXTS.BOMB);

    const deckBefore = guest.client.hand.length;
    const reversal = await host.client.emit('usePowerUp', { powerUpType: 'REVERSAL' });
    expect(reversal.data.data).toEqual({
      powerUpType: 'REVERSAL',
      cardsReversed: 3,
      affectedPlayers: [{ userId: guest.user.id, cardsAdded: 3 }],
    });
    const guestHand = await guest.client.waitFor('handUpdated', (p) => p.cardsLeft === 33);
    expect(guestHand.deckSize).toBe(30);
    expect(deckBefore).toBe(3);

    const whirl = await host.client.emit('usePowerUp', { powerUpType: 'WHIRLWIND' });
    expect(whirl.data.data).toEqual({ powerUpType: 'WHIRLWIND', cardsShuffled: expect.any(Number) });
    const card = host.client.hand[0]!;
    const sniper = await host.client.emit('usePowerUp', { powerUpType: 'SNIPER', cardId: card.id, pileIndex: 0 });
    expect(sniper.data.data).toEqual({ powerUpType: 'SNIPER', card, pileIndex: 0 });

    expect((await host.client.emit('usePowerUp', { powerUpType: 'FREEZE' })).error).toBe(RULE_TEXTS.TARGET_REQUIRED);
    const freeze = await host.client.emit('usePowerUp', { powerUpType: 'FREEZE', targetPlayerId: guest.user.id });
    expect(freeze.data.data).toEqual({ powerUpType: 'FREEZE', targetPlayer: guest.user.id, duration: 8000 });

    const mark = host.client.frames.length;
    const again = await host.client.emit('usePowerUp', { powerUpType: 'BOMB' });
    expect(again).toEqual({
      success: false,
      error: RULE_TEXTS.POWER_UP_NOT_AVAILABLE,
      code: 'POWER_UP_NOT_AVAILABLE',
    });
    expect(await host.client.waitFor('powerUpError', () => true, mark)).toEqual({
      message: RULE_TEXTS.POWER_UP_NOT_AVAILABLE,
      code: 'POWER_UP_NOT_AVAILABLE',
    });
    const status = await host.client.emit('getPowerUpStatus', {});
    expect(status.data.powerUps).toEqual({
      available: [],
      used: ['BOMB', 'REVERSAL', 'WHIRLWIND', 'SNIPER', 'FREEZE'],
    });
  });

  it('freeze blocks plays and power-ups for exactly 8 s', async () => {
    const { host, guest } = await duel('0'.repeat(31) + '8');
    await host.client.emit('usePowerUp', { powerUpType: 'FREEZE', targetPlayerId: guest.user.id });
    const frozen = await guest.client.waitFor('playerFrozen');
    expect(frozen).toMatchObject({
      playerId: guest.user.id,
      playerName: guest.user.username,
      frozenBy: host.user.username,
      frozenById: host.user.id,
      frozenByBot: false,
      duration: 8000,
    });
    const card = guest.client.hand[0]!;
    expect((await guest.client.emit('playCard', { cardId: card.id, pileIndex: 0 })).error).toBe(RULE_TEXTS.FROZEN_PLAY);
    expect((await guest.client.emit('usePowerUp', { powerUpType: 'WHIRLWIND' })).error).toBe(
      RULE_TEXTS.FROZEN_POWER_UP,
    );
    expect((await guest.client.emit('getPowerUpStatus', {})).data).toMatchObject({
      isFrozen: true,
      activeEffects: [{ type: 'freeze', targetPlayerId: guest.user.id, duration: 8000 }],
    });
    const mark = guest.client.frames.length;
    clock.advance(7999);
    await guest.client.emit('getPowerUpStatus', {});
    expect(guest.client.frames.slice(mark).some((f) => f.event === 'playerUnfrozen')).toBe(false);
    clock.advance(1);
    expect(await guest.client.waitFor('playerUnfrozen', () => true, mark)).toMatchObject({ playerId: guest.user.id });
    expect((await guest.client.emit('usePowerUp', { powerUpType: 'WHIRLWIND' })).success).toBe(true);
  });

  describe('deadlock', () => {
    const dealtDeadlocked = (s: GameState) => !canPlay(s.players[0]!.hand, s) && !canPlay(s.players[1]!.hand, s);

    it('resolves automatically after the speed delay (normal: 4 s), flipping a card on each pile', async () => {
      const { host, guest } = await duel(findSeed(2, dealtDeadlocked));
      const mark = guest.client.frames.length;
      clock.advance(3999);
      await guest.client.emit('getPowerUpStatus', {});
      expect(guest.client.frames.slice(mark).some((f) => f.event === 'deadlockResolved')).toBe(false);
      clock.advance(1);
      const resolved = await guest.client.waitFor('deadlockResolved', () => true, mark);
      expect(resolved).toMatchObject({ automatic: true, manual: false, forced: false, cardsFlipped: 2 });
      expect(resolved.newDiscardPiles).toEqual(resolved.gameState.discardPiles);
      expect(resolved.newDiscardPiles.map((p: unknown[]) => p.length)).toEqual([2, 2]);
      await host.client.waitFor('deadlockResolved');
    });

    it('checkDeadlock reports and resolves at once', async () => {
      const { host } = await duel(findSeed(2, dealtDeadlocked, { cardsPerPlayer: 30 }));
      const check = await host.client.emit('checkDeadlock', {});
      expect(check).toEqual({ success: true, data: { result: { deadlockDetected: true, resolved: true } } });
      expect(await host.client.waitFor('deadlockResolved')).toMatchObject({ manual: true, automatic: false });
      const none = await host.client.emit('checkDeadlock', {});
      expect(none.data.result.deadlockDetected).toBe(false);
    });

    it('forceDeadlockResolution: refused before 15 s stuck, allowed after, even while the other can play', async () => {
      const seed = findSeed(2, (s) => !canPlay(s.players[0]!.hand, s) && canPlay(s.players[1]!.hand, s));
      const { host } = await duel(seed);
      const early = await host.client.emit('forceDeadlockResolution', {});
      expect(early).toEqual({ success: false, error: RULE_TEXTS.FORCE_NOT_ALLOWED, code: 'FORCE_NOT_ALLOWED' });
      clock.advance(15_000);
      const forced = await host.client.emit('forceDeadlockResolution', {});
      expect(forced).toEqual({ success: true, data: { cardsFlipped: 2 } });
      expect(await host.client.waitFor('deadlockResolved')).toMatchObject({ forced: true });
    });
  });

  describe('connections', () => {
    it('a reconnecting player is put back in the game with gameRejoined; the others are told', async () => {
      const { host, guest, gameId } = await duel('0'.repeat(31) + '9');
      const handBefore = guest.client.hand;
      guest.client.close();
      expect(await host.client.waitFor('playerDisconnected')).toMatchObject({ userId: guest.user.id });
      clock.advance(30_000);
      const back = await connect(server.base, guest.token);
      clients.push(back);
      const rejoined = await back.waitFor('gameRejoined');
      expect(rejoined.game.gameId).toBe(gameId);
      expect(rejoined.hand).toEqual(handBefore);
      expect(rejoined).toMatchObject({ isFrozen: false, powerUps: { used: [] }, deckSize: 27, cardsLeft: 30 });
      expect(rejoined.gameState.players.find((p: { userId: string }) => p.userId === guest.user.id).isConnected).toBe(
        true,
      );
      expect(await host.client.waitFor('playerReconnected')).toMatchObject({ userId: guest.user.id });
      expect((await back.emit('requestHand', {})).data.hand).toEqual(handBefore);
    });

    it('60 s away forfeits: the one left wins, and the game is recorded', async () => {
      // The guest contests the game first (5 cards, then 60 s of play before the connection drops): not an
      // early walk-away. The disconnect, not the end of its grace, is when they went (docs/fair-play.md).
      const { host, guest, gameId } = await duel(playsAloneSeed(1, EARLY_LEAVE_MIN_CARDS));
      await playCards(guest.client, EARLY_LEAVE_MIN_CARDS, []);
      clock.advance(EARLY_LEAVE_MS);
      guest.client.close();
      await host.client.waitFor('playerDisconnected');
      clock.advance(60_000);
      const ended = await host.client.waitFor('gameEnded');
      expect(ended).toMatchObject({ gameId, reason: 'forfeit', winner: { userId: host.user.id } });
      expect(ended.results.map((r: { playerId: string; forfeited: boolean }) => [r.playerId, r.forfeited])).toEqual([
        [host.user.id, false],
        [guest.user.id, true],
      ]);
      await expect
        .poll(async () => (await call(server.base, 'GET', '/game/history', { token: host.token })).body.data.total)
        .toBe(1);
    });
    it('a rematch: a lobby like the game, offered to the other person, taken with one join; refused to a stranger', async () => {
      const { host, guest, gameId } = await duel('0'.repeat(31) + 'b');
      await guest.client.emit('leaveGame', {});
      await host.client.waitFor('gameEnded');
      await expect
        .poll(async () => (await call(server.base, 'GET', `/game/${gameId}/result`, { token: host.token })).status)
        .toBe(200);

      const offered = await host.client.emit('offerRematch', { gameId });
      expect(offered.success).toBe(true);
      const { roomCode } = offered.data as { roomCode: string };
      expect(await guest.client.waitFor('rematchOffered')).toEqual({
        gameId,
        roomCode,
        by: { userId: host.user.id, username: host.user.username },
      });
      const joined = await guest.client.emit('joinGame', { roomCode });
      expect(joined.success).toBe(true);
      expect(joined.data.game).toMatchObject({ status: 'waiting', maxPlayers: 2, isBotGame: false });
      expect(joined.data.game.players.map((p: { userId: string }) => p.userId).sort()).toEqual(
        [host.user.id, guest.user.id].sort(),
      );

      const stranger = await person('stranger');
      expect(await stranger.client.emit('offerRematch', { gameId })).toMatchObject({
        success: false,
        code: 'GAME_NOT_FOUND',
      });
    });

    it('a game between people moves both ratings (Glicko-2): the leaver loses, the result shows the change', async () => {
      // The guest contests the game (5 cards, 60 s) before leaving: a forfeit, not an abort (docs/fair-play.md).
      const { host, guest, gameId } = await duel(playsAloneSeed(1, EARLY_LEAVE_MIN_CARDS));
      await playCards(guest.client, EARLY_LEAVE_MIN_CARDS, []);
      clock.advance(EARLY_LEAVE_MS);
      await guest.client.emit('leaveGame', {});
      await host.client.waitFor('gameEnded');
      await expect
        .poll(async () => (await call(server.base, 'GET', `/game/${gameId}/result`, { token: host.token })).status)
        .toBe(200);
      const { result } = (await call(server.base, 'GET', `/game/${gameId}/result`, { token: guest.token })).body.data;
      const rating = (id: string) => result.results.find((r: { playerId: string }) => r.playerId === id).rating;
      // Two new players (1500 ± 350): one win each way moves them by the same amount, up and down.
      const won = rating(host.user.id);
      const lost = rating(guest.user.id);
      expect(won).toMatchObject({ before: 1500, provisional: true });
      expect(won.change).toBeGreaterThan(100);
      expect(won.after).toBe(1500 + won.change);
      expect(lost).toEqual({ before: 1500, after: 1500 - won.change, change: -won.change, provisional: true });
      const stored = await server.app.db
        .select({ id: users.id, rating: users.rating, ratedGames: users.ratedGames })
        .from(users)
        .where(inArray(users.id, [host.user.id, guest.user.id]));
      expect(stored.map((u) => [u.id, Math.round(u.rating), u.ratedGames]).sort()).toEqual(
        [
          [host.user.id, won.after, 1],
          [guest.user.id, lost.after, 1],
        ].sort(),
      );
      // The profile: the rating, still provisional after one game, and its curve so far.
      const me = (await call(server.base, 'GET', '/auth/me', { token: host.token })).body.data.user;
      expect(me.rating).toEqual({
        rating: won.after,
        deviation: expect.any(Number),
        provisional: true,
        ratedGames: 1,
        history: [won.after],
      });
      expect(me.rating.deviation).toBeLessThan(350);
    });

    it('a game with a bot moves no rating', async () => {
      const me = await person('solo');
      const created = await me.client.emit('create-bot-game', { numberOfBots: 1, botDifficulty: 'easy' });
      expect(created.success).toBe(true);
      await me.client.emit('startGame', {});
      clock.advance(5000);
      await me.client.waitFor('handDealt');
      await me.client.emit('leaveGame', {});
      const gameId = created.data.gameId as string;
      await expect
        .poll(async () => (await call(server.base, 'GET', `/game/${gameId}/result`, { token: me.token })).status)
        .toBe(200);
      const { result } = (await call(server.base, 'GET', `/game/${gameId}/result`, { token: me.token })).body.data;
      expect(result.results.every((r: { rating?: unknown }) => r.rating === undefined)).toBe(true);
      const [stored] = await server.app.db
        .select({ rating: users.rating, ratedGames: users.ratedGames })
        .from(users)
        .where(eq(users.id, me.user.id));
      expect(stored).toEqual({ rating: 1500, ratedGames: 0 });
    });
  });
});
