/**
 * The embedded PostgreSQL's start and stop as `npm start` runs them: a new DATA_DIR serves within 10 s
 * (a time on this machine, so this file runs in the "quiet" project), PostgreSQL stops after the server
 * on SIGINT, and a postmaster left by a server killed with SIGKILL is stopped by the next start.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { call, temporaryDataDir } from './helpers/boot.ts';
import { alive, listening, mainScript, postmasterPid, run } from './helpers/process.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the embedded PostgreSQL', () => {
  it('stops after the server on SIGINT, and a server killed with SIGKILL leaves nothing in the way of the next start', async () => {
    const dataDir = temporaryDataDir();
    dirs.push(dataDir);
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    // A new DATA_DIR (initdb included) serves /health within 10 s of the start: measured after the
    // rest of the suite, with nothing beside it (the "quiet" project in vitest.config.ts).
    const started = performance.now();
    const first = run(mainScript, [], env);
    const firstBase = await listening(first.child, first.out);
    expect(await fetch(`${firstBase}/health`).then((r) => r.json())).toMatchObject({ ok: true, database: 'embedded' });
    expect(performance.now() - started).toBeLessThan(10_000);
    const postmaster = postmasterPid(dataDir);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(alive(postmaster)).toBe(false);

    const second = run(mainScript, [], env);
    const base = await listening(second.child, second.out);
    const orphan = postmasterPid(dataDir);
    second.child.kill('SIGKILL');
    await second.exited;
    // PostgreSQL outlives its parent: the next start finds it and stops it first.
    expect(alive(orphan)).toBe(true);
    const third = run(mainScript, [], env);
    const base3 = await listening(third.child, third.out);
    expect(third.err() + third.out()).toContain(`(pid ${orphan}) by a server that stopped abruptly is stopped first`);
    expect(alive(orphan)).toBe(false);
    expect((await call(base3, 'GET', '/auth/me')).status).toBe(401);
    expect(base3).not.toBe(base);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 60_000);
});
