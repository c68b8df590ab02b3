/**
 * Recovery: the server process is killed with SIGKILL in the middle of a game and started again on
 * the same database; the player reconnects, finds the game where the last snapshot left it, plays
 * on to the end, and the result is recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matches } from '@memeslam/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, call, newAccount, scratchPostgres } from './helpers/boot.ts';
import { listening, mainScript, run } from './helpers/process.ts';
import { type Client, connect } from './helpers/sockets.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Plays one matching card if the hand has one; true when it did. */
async function playOne(client: Client): Promise<boolean> {
  const state = await client.emit('requestHand', {});
  if (!state.success) return false;
  const tops = (state.data.gameState.discardPiles as { id: string }[][]).map((p) => p.at(-1));
  for (const card of state.data.hand) {
    const pileIndex = tops.findIndex((top) => top && matches(card, top as never));
    if (pileIndex >= 0) return (await client.emit('playCard', { cardId: card.id, pileIndex })).success;
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_MODES)('SIGKILL mid-game on %s', (mode) => {
  it('the game resumes from its snapshot after a restart and finishes on record', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memeslam-kill-'));
    dirs.push(dataDir);
    const scratch = mode === 'postgres' ? await scratchPostgres() : null;
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    const first = run(mainScript, [], env);
    try {
      const base = await listening(first.child, first.out);
      const account = newAccount('survivor');
      const token = (await call(base, 'POST', '/auth/register', { body: account })).body.data.token as string;
      const before = await connect(base, token);
      const created = await before.emit('create-bot-game', {
        numberOfBots: 1,
        botDifficulty: 'easy',
        gameSpeed: 'blitz',
        autoStart: true,
        cardsPerPlayer: 20,
      });
      const { gameId } = created.data;
      await before.waitFor('gameStarted', () => true);
      let played = 0;
      while (played < 3) {
        if (await playOne(before)) played += 1;
        else await sleep(200);
      }
      const handBefore = (await before.emit('requestHand', {})).data;
      await sleep(1200); // the room snapshots at least once a second while it changes
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      before.close();

      const second = run(mainScript, [], env);
      try {
        const base2 = await listening(second.child, second.out);
        expect(second.out()).toContain('game rooms restored from snapshots');
        const after = await connect(base2, token);
        const rejoined = await after.waitFor('gameRejoined');
        expect(rejoined.game.gameId).toBe(gameId);
        expect(rejoined.hand).toEqual(handBefore.hand);
        expect(rejoined.cardsLeft).toBe(handBefore.cardsLeft);
        expect(rejoined.cardsLeft).toBe(17);

        const deadline = Date.now() + 90_000;
        while (after.all('gameEnded').length === 0 && Date.now() < deadline) {
          if (!(await playOne(after))) await sleep(150);
        }
        const ended = await after.waitFor('gameEnded');
        expect(ended.gameId).toBe(gameId);
        await expect
          .poll(async () => (await call(base2, 'GET', '/game/history', { token })).body.data.games[0]?.gameId, {
            timeout: 10_000,
          })
          .toBe(gameId);
        after.close();
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await scratch?.drop();
    }
  }, 180_000);
});
