/**
 * Statements the ORM builds once per database handle instead of on every call. Building a query
 * (walking its columns and conditions into SQL text) cost more than running it on the paths every
 * new game takes: a guest's account, its sign-in, its wallet, the game's row (bench:server's CPU profiles).
 * Each statement is also named, so PostgreSQL parses and plans it once per connection. Its values
 * are bound at each call through drizzle's `sql.placeholder(name)` parameters.
 */
import type { Db } from './client.ts';

const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * The query `build(db)` makes, prepared as `name`: built once for this database (or transaction),
 * the same statement afterwards. A name must always stand for the same query: PostgreSQL keeps one
 * text per name and connection.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => { prepare(name: string): T }): T {
  let statements = built.get(db);
  if (!statements) built.set(db, (statements = new Map()));
  if (!statements.has(name)) statements.set(name, build(db).prepare(name));
  return statements.get(name) as T;
}
