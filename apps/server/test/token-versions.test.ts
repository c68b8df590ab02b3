/** The token versions a socket event is checked against: never older than 2 s, read in sweeps. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_VERSION_RECHECK_MS, TokenVersions } from '../src/auth/token-versions.ts';

/** A database of versions, the reads made of it, and a hand-moved clock. */
function setup(versions: Record<string, number>) {
  const reads: string[][] = [];
  let now = 1_000_000;
  let answer: (() => void) | null = null;
  let held = false;
  const read = async (ids: readonly string[]) => {
    reads.push([...ids]);
    const snapshot = new Map(ids.flatMap((id) => (id in versions ? [[id, versions[id] as number] as const] : [])));
    if (held) await new Promise<void>((resolve) => (answer = resolve));
    return snapshot;
  };
  const tokens = new TokenVersions(read, { now: () => now });
  return {
    tokens,
    reads,
    versions,
    advance: (ms: number) => (now += ms),
    hold: () => (held = true),
    release: () => {
      held = false;
      answer?.();
    },
  };
}

describe('TokenVersions', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a version read less than 2 s ago from memory, and reads an older one first', async () => {
    const t = setup({ a: 3 });
    expect(await t.tokens.current('a')).toBe(3);
    expect(t.reads).toEqual([['a']]);
    t.advance(TOKEN_VERSION_RECHECK_MS - 1);
    t.versions.a = 4;
    expect(await t.tokens.current('a')).toBe(3);
    expect(t.reads).toHaveLength(1);
    t.advance(1);
    expect(await t.tokens.current('a')).toBe(4);
    expect(t.reads).toHaveLength(2);
    expect(await t.tokens.current('gone')).toBeNull();
    t.tokens.close();
  });

  it('re-reads, in one statement, the versions of those who acted, so that their events need no read', async () => {
    const t = setup({ a: 1, b: 1, c: 1 });
    for (const id of ['a', 'b', 'c']) await t.tokens.current(id);
    t.advance(500);
    await t.tokens.sweep();
    expect(t.reads).toHaveLength(3); // nothing half a window old yet
    t.advance(600);
    t.versions.b = 2;
    await t.tokens.sweep();
    expect(t.reads.at(-1)).toEqual(['a', 'b', 'c']);
    // 1.9 s after the first reads, b's new version is known without a read of its own.
    t.advance(800);
    expect(await t.tokens.current('b')).toBe(2);
    expect(t.reads).toHaveLength(4);
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
    const before = t.reads.length;
    await t.tokens.sweep();
    t.advance(1000);
    await t.tokens.sweep();
    expect(t.reads.slice(before)).toEqual([['a']]);
    t.tokens.close();
  });

  it("keeps a version remembered while a sweep's read is out (a revocation here is newer)", async () => {
    const t = setup({ a: 1 });
    await t.tokens.current('a');
    t.advance(1000);
    t.hold();
    const sweeping = t.tokens.sweep();
    t.tokens.remember('a', 7);
    t.release();
    await sweeping;
    expect(await t.tokens.current('a')).toBe(7);
    t.tokens.close();
  });

  it('hands a failed sweep to onError; a later event reads its version itself', async () => {
    const errors: unknown[] = [];
    let fail = false;
    let now = 0;
    const tokens = new TokenVersions(
      async (ids) => {
        if (fail) throw new Error('database down');
        return new Map(ids.map((id) => [id, 5]));
      },
      { now: () => now, onError: (error) => errors.push(error) },
    );
    expect(await tokens.current('a')).toBe(5);
    fail = true;
    now += 1000;
    await tokens.sweep();
    expect(errors).toEqual([new Error('database down')]);
    now += 1000;
    await expect(tokens.current('a')).rejects.toThrow('database down');
    tokens.close();
  });

  it('sweeps every second once someone acted, and stops when closed', async () => {
    vi.useFakeTimers();
    const reads: string[][] = [];
    const tokens = new TokenVersions(async (ids) => {
      reads.push([...ids]);
      return new Map(ids.map((id) => [id, 1]));
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toEqual([]);
    await tokens.current('a');
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toEqual([['a'], ['a']]);
    tokens.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toHaveLength(2);
  });
});
