/** The token versions a socket event is checked against: never older than 2 s, kept current by the token epoch. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_VERSION_RECHECK_MS, TokenVersions } from '../src/auth/token-versions.ts';

/**
 * A database of versions and its token epoch (`change` raises it with a version, as the triggers do),
 * the statements read of it, and a hand-moved clock. `holdNext` keeps the next read's answer (taken
 * when it was sent) until `release`.
 */
function setup(versions: Record<string, number>) {
  const reads: string[][] = [];
  let epochReads = 0;
  let epoch = 0;
  let now = 1_000_000;
  let holding = false;
  let answer: (() => void) | null = null;
  const read = async (ids: readonly string[]) => {
    reads.push([...ids]);
    const snapshot = new Map(ids.flatMap((id) => (id in versions ? [[id, versions[id] as number] as const] : [])));
    if (holding) {
      holding = false;
      await new Promise<void>((resolve) => (answer = resolve));
    }
    return snapshot;
  };
  const readEpoch = async () => {
    epochReads += 1;
    return epoch;
  };
  const tokens = new TokenVersions(read, readEpoch, { now: () => now });
  return {
    tokens,
    reads,
    epochReads: () => epochReads,
    change: (id: string, version: number) => {
      versions[id] = version;
      epoch += 1;
    },
    advance: (ms: number) => (now += ms),
    holdNext: () => (holding = true),
    release: () => answer?.(),
  };
}

describe('TokenVersions', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a version read less than 2 s ago from memory, and reads an older one first', async () => {
    const t = setup({ a: 3 });
    expect(await t.tokens.current('a')).toBe(3);
    expect(t.reads).toEqual([['a']]);
    t.advance(TOKEN_VERSION_RECHECK_MS - 1);
    t.change('a', 4);
    expect(await t.tokens.current('a')).toBe(3);
    expect(t.reads).toHaveLength(1);
    t.advance(1);
    expect(await t.tokens.current('a')).toBe(4);
    expect(t.reads).toHaveLength(2);
    expect(await t.tokens.current('gone')).toBeNull();
    t.tokens.close();
  });

  it('while the epoch stays put, a sweep reads only the epoch, and every version held stays trusted', async () => {
    const t = setup({ a: 1, b: 1, c: 1 });
    for (const id of ['a', 'b', 'c']) await t.tokens.current(id);
    await t.tokens.sweep(); // the first sweep re-reads: no epoch is known yet
    expect(t.reads.at(-1)).toEqual(['a', 'b', 'c']);
    const reads = t.reads.length;
    for (let second = 1; second <= 10; second += 1) {
      t.advance(1000);
      await t.tokens.sweep();
      for (const id of ['a', 'b', 'c']) expect(await t.tokens.current(id)).toBe(1);
    }
    expect(t.reads).toHaveLength(reads);
    expect(t.epochReads()).toBe(11);
    t.tokens.close();
  });

  it('when the epoch moves, one statement re-reads those who acted, and their events see the new version', async () => {
    const t = setup({ a: 1, b: 1, c: 1 });
    for (const id of ['a', 'b', 'c']) await t.tokens.current(id);
    await t.tokens.sweep();
    t.advance(1000);
    t.change('b', 2);
    await t.tokens.sweep();
    expect(t.reads.at(-1)).toEqual(['a', 'b', 'c']);
    const reads = t.reads.length;
    t.advance(1500);
    expect(await t.tokens.current('b')).toBe(2);
    expect(await t.tokens.current('a')).toBe(1);
    expect(t.reads).toHaveLength(reads);
    t.tokens.close();
  });

  it('does not confirm a version read before the epoch moved and remembered after the re-read: it ages out', async () => {
    const t = setup({ a: 1, d: 1 });
    await t.tokens.current('a');
    await t.tokens.sweep();
    t.advance(100);
    t.holdNext();
    const reading = t.tokens.current('d'); // sent before d's change, answered after the sweep below
    t.change('d', 2);
    t.advance(900);
    await t.tokens.sweep();
    expect(t.reads.at(-1)).toEqual(['a']);
    t.release();
    expect(await reading).toBe(1);
    t.advance(1000);
    await t.tokens.sweep(); // the epoch stayed put since the re-read
    t.advance(TOKEN_VERSION_RECHECK_MS - 1000);
    expect(await t.tokens.current('d')).toBe(2);
    expect(t.reads.at(-1)).toEqual(['d']);
    t.tokens.close();
  });

  it('forgets those who have not acted for a minute', async () => {
    const t = setup({ a: 1, b: 1 });
    await t.tokens.current('a');
    await t.tokens.current('b');
    for (let s = 0; s < 61; s += 1) {
      t.advance(1000);
      if (s % 2 === 0) await t.tokens.current('a');
      await t.tokens.sweep();
    }
    t.change('a', 2);
    t.advance(1000);
    await t.tokens.sweep();
    expect(t.reads.at(-1)).toEqual(['a']);
    t.tokens.close();
  });

  it("keeps a version remembered while a sweep's read is out (a revocation here is newer)", async () => {
    const t = setup({ a: 1 });
    await t.tokens.current('a');
    t.advance(1000);
    t.holdNext();
    const sweeping = t.tokens.sweep();
    await vi.waitFor(() => expect(t.reads).toHaveLength(2));
    t.tokens.remember('a', 7);
    t.release();
    await sweeping;
    expect(await t.tokens.current('a')).toBe(7);
    t.tokens.close();
  });

  it('hands a failed sweep to onError; versions then age out, and a later event reads its own', async () => {
    const errors: unknown[] = [];
    let fail: 'epoch' | 'all' | null = null;
    let now = 0;
    const reads: string[][] = [];
    const tokens = new TokenVersions(
      async (ids) => {
        reads.push([...ids]);
        if (fail === 'all') throw new Error('database down');
        return new Map(ids.map((id) => [id, 5]));
      },
      async () => {
        if (fail !== null) throw new Error('database down');
        return 0;
      },
      { now: () => now, onError: (error) => errors.push(error) },
    );
    expect(await tokens.current('a')).toBe(5);
    await tokens.sweep();
    fail = 'epoch';
    now += 1000;
    await tokens.sweep();
    expect(errors).toEqual([new Error('database down')]);
    now += TOKEN_VERSION_RECHECK_MS;
    const before = reads.length;
    expect(await tokens.current('a')).toBe(5);
    expect(reads.slice(before)).toEqual([['a']]);
    fail = 'all';
    now += TOKEN_VERSION_RECHECK_MS;
    await expect(tokens.current('a')).rejects.toThrow('database down');
    tokens.close();
  });

  it('sweeps every second once someone acted, and stops when closed', async () => {
    vi.useFakeTimers();
    const reads: string[][] = [];
    let epochReads = 0;
    const tokens = new TokenVersions(
      async (ids) => {
        reads.push([...ids]);
        return new Map(ids.map((id) => [id, 1]));
      },
      async () => {
        epochReads += 1;
        return 0;
      },
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(epochReads).toBe(0);
    await tokens.current('a');
    await vi.advanceTimersByTimeAsync(3000);
    expect(epochReads).toBe(3);
    expect(reads).toEqual([['a'], ['a']]);
    tokens.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(epochReads).toBe(3);
  });
});
