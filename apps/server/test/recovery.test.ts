/**
 * Recovery: the server process is killed with SIGKILL right after it acknowledged a play (on the
 * embedded PostgreSQL, its postmaster too, or left running for the next start to find), and started
 * again on the same database; the player reconnects, finds the acknowledged play kept (the card out
 * of the hand, the command in the game's log and later its replay), plays on to the end, and the
 * result is recorded once.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_SETTINGS_MODES, call, newAccount, scratchPostgres, temporaryDataDir } from './helpers/boot.ts';
import { listening, mainScript, postmasterPid, run } from './helpers/process.ts';
import { connect, playOne } from './helpers/sockets.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The own-database cases run on one DATA_DIR, one after the other (each starts its servers on it and
 * stops them): a server's first start on a new DATA_DIR makes its PostgreSQL cluster (initdb, about 1.5
 * core-seconds); a later start finds it there.
 */
let ownDir: string | undefined;
function ownDataDir(): string {
  if (!ownDir) {
    ownDir = temporaryDataDir('memeslam-kill-');
    dirs.push(ownDir);
  }
  return ownDir;
}

const cases = [
  { mode: 'own', killed: 'the server; its PostgreSQL is left running' },
  { mode: 'own', killed: 'the server, then its PostgreSQL' },
  ...(SERVER_SETTINGS_MODES.includes('external') ? [{ mode: 'external', killed: 'the server' }] : []),
] as const;

describe.each(cases)('SIGKILL mid-game ($mode database): $killed', ({ mode, killed }) => {
  it('a play acknowledged just before the kill is kept; the game resumes from its log and is recorded once', async () => {
    const dataDir = mode === 'own' ? ownDataDir() : temporaryDataDir('memeslam-kill-');
    if (mode !== 'own') dirs.push(dataDir);
    const scratch = mode === 'external' ? await scratchPostgres('external') : null;
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
      const played: string[] = [];
      while (played.length < 3) {
        const card = await playOne(before);
        if (card) played.push(card);
        else await sleep(200);
      }
      // No pause: the kill follows the third acknowledgement at once.
      first.child.kill('SIGKILL');
      if (killed === 'the server, then its PostgreSQL') {
        process.kill(postmasterPid(dataDir), 'SIGKILL');
      }
      expect(await first.exited).toBeNull();
      before.close();

      const second = run(mainScript, [], env);
      try {
        const base2 = await listening(second.child, second.out);
        expect(second.out()).toContain('game rooms rebuilt from their logs');
        const after = await connect(base2, token);
        const rejoined = await after.waitFor('gameRejoined');
        expect(rejoined.game.gameId).toBe(gameId);
        expect(rejoined.cardsLeft).toBe(17);
        const handIds = (rejoined.hand as { id: string }[]).map((c) => c.id);
        for (const card of played) expect(handIds).not.toContain(card);

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
        const history = (await call(base2, 'GET', '/game/history', { token })).body.data;
        expect(history.games.filter((g: { gameId: string }) => g.gameId === gameId)).toHaveLength(1);
        // The replay, made from the same log, holds the three acknowledged plays in their order.
        const replay = (await call(base2, 'GET', `/game/${gameId}/replay`, { token })).body.data;
        const mine = (replay.commands as { command: { type: string; playerId: string; cardId?: string } }[])
          .map((c) => c.command)
          .filter((c) => c.type === 'playCard' && c.playerId !== undefined && !c.playerId.startsWith('bot-'))
          .map((c) => c.cardId);
        expect(mine.slice(0, 3)).toEqual(played);
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
