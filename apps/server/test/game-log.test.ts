/**
 * The group commit on its own, against a storage that fails on purpose: the database being away is
 * waited out without limit; a batch refused for what one game wrote stops that game only.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type Clock, alarmOf } from '../src/clock.ts';
import { GameLog, type LogStorage, isTransient } from '../src/games/log.ts';
import type { RoomWrite } from '../src/games/types.ts';

/** A clock whose timers fire at once, keeping how long each was set for. */
function instantClock(waits: number[] = []): Clock {
  const at: Clock['at'] = (time, fn) => {
    waits.push(time);
    setImmediate(fn);
    return { cancel: () => {} };
  };
  return { now: () => 0, at, alarm: (ring) => alarmOf(at, ring) };
}

const entry = (n: number): RoomWrite => ({ entries: [{ n, at: n, seq: n, command: null }] });
const sqlError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

describe('the game log', () => {
  it('tells the database being away from a refusal of what was written', () => {
    expect(isTransient(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransient(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransient(sqlError('57P01'))).toBe(true); // admin shutdown
    expect(isTransient(sqlError('55000'))).toBe(true); // database not accepting connections
    expect(isTransient(sqlError('08006'))).toBe(true);
    expect(isTransient(new Error('wrapped', { cause: sqlError('23505') }))).toBe(false);
    expect(isTransient(sqlError('22P02'))).toBe(false);
  });

  it('retries a batch while the database is away, as long as it takes, and then resolves every write', async () => {
    let failures = 120;
    const written: string[] = [];
    const storage: LogStorage = {
      write: async (batch) => {
        if (failures > 0) {
          failures -= 1;
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        }
        written.push(...batch.map((b) => b.gameId));
        return [];
      },
    };
    const waits: number[] = [];
    const log = new GameLog({
      storage,
      log: pino({ level: 'silent' }),
      onRefused: () => expect.unreachable(),
      clock: instantClock(waits),
    });
    await Promise.all([log.append('a', entry(1)), log.append('b', entry(1)), log.append('a', entry(2))]);
    expect(written).toEqual(['a', 'b', 'a']);
    expect(waits).toHaveLength(120);
    expect(log.retries).toBe(120);
    expect(log.waiting).toBe(0);
    expect(Math.max(...waits)).toBe(5000);
  });

  it("splits a refused batch by game: the offending game is stopped, the others' writes land", async () => {
    const written: string[] = [];
    const storage: LogStorage = {
      write: async (batch) => {
        if (batch.some((b) => b.gameId === 'bad')) throw sqlError('23503');
        written.push(...batch.map((b) => `${b.gameId}${b.write.entries[0]?.n}`));
        return [];
      },
    };
    const refused: string[] = [];
    const log = new GameLog({
      storage,
      log: pino({ level: 'silent' }),
      onRefused: (gameId) => refused.push(gameId),
      clock: instantClock(),
    });
    await Promise.all([log.append('a', entry(1)), log.append('bad', entry(1)), log.append('c', entry(1))]);
    await log.append('a', entry(2));
    expect(refused).toEqual(['bad']);
    expect(written).toEqual(['a1', 'c1', 'a2']);
  });

  it("calls a batch's first attempt fresh, and its retries and its split by game not", async () => {
    const attempts: string[] = [];
    let lost = 2;
    const storage: LogStorage = {
      write: async (batch, options) => {
        attempts.push(`${batch.map((b) => b.gameId).join('+')} ${options?.fresh ? 'fresh' : 'again'}`);
        if (lost > 0) {
          lost -= 1;
          throw new Error('Connection terminated unexpectedly');
        }
        if (batch.some((b) => b.gameId === 'bad')) throw sqlError('23514');
        return [];
      },
    };
    const log = new GameLog({ storage, log: pino({ level: 'silent' }), onRefused: () => {}, clock: instantClock() });
    await Promise.all([log.append('a', entry(1)), log.append('bad', entry(1))]);
    await log.append('a', entry(2));
    expect(attempts).toEqual(['a+bad fresh', 'a+bad again', 'a+bad again', 'a again', 'bad again', 'a fresh']);
  });

  it('tells of a fenced game (cluster mode: another node owns it) before its writes resolve', async () => {
    const events: string[] = [];
    const storage: LogStorage = {
      write: async (batch) => batch.flatMap((b) => (b.gameId === 'lost' ? [b.gameId] : [])),
    };
    const log = new GameLog({
      storage,
      log: pino({ level: 'silent' }),
      onRefused: () => expect.unreachable(),
      onFenced: (gameId) => events.push(`fenced ${gameId}`),
    });
    await Promise.all([
      log.append('lost', entry(1)).then(() => events.push('lost resolved')),
      log.append('kept', entry(1)).then(() => events.push('kept resolved')),
    ]);
    expect(events).toEqual(['fenced lost', 'lost resolved', 'kept resolved']);
  });

  it('keeps several batches in flight, never two holding the same game, so each game is durable in order', async () => {
    const open: { gameIds: string[]; done: () => void }[] = [];
    const storage: LogStorage = {
      write: (batch) =>
        new Promise<readonly string[]>((done) =>
          open.push({ gameIds: batch.map((b) => `${b.gameId}${b.write.entries[0]?.n}`), done: () => done([]) }),
        ),
    };
    const log = new GameLog({
      storage,
      log: pino({ level: 'silent' }),
      onRefused: () => expect.unreachable(),
      maxInFlight: 2,
      gatherMs: 0,
    });
    const durable: string[] = [];
    const append = (gameId: string, n: number) =>
      void log.append(gameId, entry(n)).then(() => durable.push(`${gameId}${n}`));
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    append('a', 1);
    append('b', 1);
    await turn();
    expect(open.map((w) => w.gameIds)).toEqual([['a1', 'b1']]);
    // While a and b are in flight, a's next write waits; c's goes out beside them.
    append('a', 2);
    append('c', 1);
    await turn();
    expect(open.map((w) => w.gameIds)).toEqual([['a1', 'b1'], ['c1']]);
    append('c', 2);
    await turn();
    expect(open).toHaveLength(2); // no room for a third batch
    open[1]?.done();
    await turn();
    // c1 is durable; a2 still waits for a1, so only c2 goes.
    expect(durable).toEqual(['c1']);
    expect(open.map((w) => w.gameIds).slice(2)).toEqual([['c2']]);
    open[0]?.done();
    await turn();
    expect(open.map((w) => w.gameIds).slice(3)).toEqual([['a2']]);
    open[2]?.done();
    open[3]?.done();
    await log.drain();
    expect(durable).toEqual(['c1', 'a1', 'b1', 'c2', 'a2']);
    expect(log.backlog).toBe(0);
  });

  it('starts a batch no sooner than the gathering time after the last one: what comes meanwhile goes together', async () => {
    const batches: { gameIds: string[]; at: number }[] = [];
    const storage: LogStorage = {
      write: (batch) => {
        batches.push({ gameIds: batch.map((b) => b.gameId), at: performance.now() });
        return Promise.resolve([]);
      },
    };
    const log = new GameLog({
      storage,
      log: pino({ level: 'silent' }),
      onRefused: () => expect.unreachable(),
      gatherMs: 40,
    });
    await log.append('a', entry(1));
    // The first batch went at once; these come while the gathering time runs, and wait for its end.
    await Promise.all(['b', 'c', 'd'].map((gameId) => log.append(gameId, entry(1))));
    expect(batches.map((b) => b.gameIds)).toEqual([['a'], ['b', 'c', 'd']]);
    expect((batches[1]?.at ?? 0) - (batches[0]?.at ?? 0)).toBeGreaterThanOrEqual(39);
    // Once the server has been quiet for longer, a write goes at once again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const quiet = performance.now();
    await log.append('e', entry(1));
    expect(performance.now() - quiet).toBeLessThan(39);
  });
});
