/**
 * No client ever receives a card it may not see. Full games — two people playing and using every
 * power-up, two bots, a spectator — and then every frame every client received is scanned: a card
 * in a frame must be in that client's own current hand or face up in that frame's piles.
 */
import { matches } from '@memeslam/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { type Booted, DATABASE_MODES, boot } from './helpers/boot.ts';
import { type Client, newPerson, settle } from './helpers/sockets.ts';

interface CardLike {
  id: string;
  number: number;
  color: string;
  logo: string;
}

function isCard(value: unknown): value is CardLike {
  const v = value as CardLike | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.number === 'number' &&
    typeof v.color === 'string'
  );
}

/** Every card object and every key name anywhere in a payload. */
function walk(value: unknown, cards: CardLike[], keys: string[], path = ''): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, cards, keys, path));
  else if (typeof value === 'object' && value !== null) {
    if (isCard(value)) cards.push(value);
    for (const [key, v] of Object.entries(value)) {
      keys.push(path ? `${path}.${key}` : key);
      walk(v, cards, keys, path ? `${path}.${key}` : key);
    }
  }
}

const HAND_EVENTS = new Set(['handDealt', 'handUpdated', 'gameRejoined']);

/** The leaks in what one client received: [] when it saw nothing it should not. */
export function leaksIn(client: Client, isSpectator: boolean): string[] {
  const leaks: string[] = [];
  let hand = new Set<string>();
  for (const { event, payload } of client.frames) {
    if (HAND_EVENTS.has(event)) {
      if (isSpectator) leaks.push(`spectator got ${event}`);
      hand = new Set((payload.hand as CardLike[]).map((c) => c.id));
    }
    const state = payload?.gameState ?? payload?.game?.gameState;
    const faceUp = new Set<string>(((state?.discardPiles ?? []) as CardLike[][]).flat().map((c) => c.id));
    const cards: CardLike[] = [];
    const keys: string[] = [];
    walk(payload, cards, keys);
    for (const card of cards) {
      if (!hand.has(card.id) && !faceUp.has(card.id)) leaks.push(`${event} showed hidden card ${card.id}`);
    }
    for (const key of keys) {
      const name = key.split('.').at(-1) as string;
      if (name === 'deck' || name === 'stock' || name === 'piles' || (name === 'seed' && event !== 'gameEnded')) {
        leaks.push(`${event} has a field ${key}`);
      }
      if (name === 'hand' && !(HAND_EVENTS.has(event) && key === 'hand')) leaks.push(`${event} has a field ${key}`);
    }
  }
  return leaks;
}

describe.each(DATABASE_MODES)('hidden cards on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const seeds = ['1'.repeat(32), '2'.repeat(32), '3'.repeat(32)];
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, {}, { clock, seeds: () => seeds.shift() ?? 'e'.repeat(32) });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const person = (prefix: string) => newPerson(server.base, prefix, clients);

  /** Plays a matching card if it has one (unless told to prefer a power-up), otherwise the next unused power-up. */
  async function act(client: Client, opponents: string[], preferPowerUp: boolean) {
    const state = await client.emit('requestHand', {});
    if (!state.success) return;
    const tops = (state.data.gameState.discardPiles as CardLike[][]).map((p) => p.at(-1));
    for (const card of preferPowerUp && state.data.powerUps.available.length > 0
      ? []
      : (state.data.hand as CardLike[])) {
      const pileIndex = tops.findIndex((top) => top && matches(card as never, top as never));
      if (pileIndex >= 0) {
        await client.emit('playCard', { cardId: card.id, pileIndex });
        return;
      }
    }
    const next = (state.data.powerUps.available as string[])[0];
    const card = (state.data.hand as CardLike[])[0];
    if (next === 'FREEZE') await client.emit('usePowerUp', { powerUpType: next, targetPlayerId: opponents[0] });
    else if (next === 'SNIPER' && card)
      await client.emit('usePowerUp', { powerUpType: next, cardId: card.id, pileIndex: 0 });
    else if (next) await client.emit('usePowerUp', { powerUpType: next });
  }

  it.each([1, 2, 3])(
    'game %i: zero frames with a card the receiver must not see',
    async () => {
      const host = await person('leakhost');
      const guest = await person('leakguest');
      const watcher = await person('watcher');
      const created = await host.client.emit('createGame', {
        maxPlayers: 4,
        withBots: true,
        numberOfBots: 2,
        botSettings: { difficulty: 'hard', mixedDifficulties: true },
      });
      await guest.client.emit('joinGame', { roomCode: created.data.roomCode });
      await host.client.emit('setPlayerReady', { isReady: true });
      await guest.client.emit('setPlayerReady', { isReady: true });
      await host.client.emit('startGame', {});
      clock.advance(5000);
      await host.client.waitFor('gameStarted');
      expect((await watcher.client.emit('joinGame', { roomCode: created.data.roomCode })).success).toBe(true);

      for (let step = 0; step < 2000 && host.client.all('gameEnded').length === 0; step += 1) {
        const preferPowerUp = step % 12 < 3;
        if (step % 3 === 0) await act(host.client, [guest.user.id, 'bot-1'], preferPowerUp);
        if (step % 3 === 1) await act(guest.client, [host.user.id, 'bot-2'], preferPowerUp);
        clock.advance(500);
        await settle(host.client);
      }
      await host.client.waitFor('gameEnded');
      await Promise.all([settle(guest.client), settle(watcher.client)]);

      expect(host.client.all('cardPlayed').length).toBeGreaterThan(20);
      expect(host.client.all('powerUpUsed').length).toBeGreaterThanOrEqual(6);
      expect(watcher.client.all('cardPlayed').length).toBeGreaterThan(0);
      expect(leaksIn(host.client, false)).toEqual([]);
      expect(leaksIn(guest.client, false)).toEqual([]);
      expect(leaksIn(watcher.client, true)).toEqual([]);
      await host.client.emit('leaveGame', {});
      await guest.client.emit('leaveGame', {});
    },
    120_000,
  );
});
