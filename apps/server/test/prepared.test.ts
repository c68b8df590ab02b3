import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { prepared } from '../src/db/prepared.ts';

describe('prepared statements', () => {
  it('builds a statement once per database handle and name', () => {
    const db = {} as Db;
    const other = {} as Db;
    let builds = 0;
    const build = () => ({ prepare: (name: string) => ({ name, built: (builds += 1) }) });
    const first = prepared(db, 'user_by_id', build);
    expect(first).toEqual({ name: 'user_by_id', built: 1 });
    expect(prepared(db, 'user_by_id', build)).toBe(first);
    expect(builds).toBe(1);
    // Another handle (a transaction) and another name each get their own.
    expect(prepared(other, 'user_by_id', build)).not.toBe(first);
    expect(prepared(db, 'wallet_totals', build)).not.toBe(first);
    expect(builds).toBe(3);
  });
});
