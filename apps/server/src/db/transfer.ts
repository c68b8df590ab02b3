/**
 * Rows out of one PostgreSQL database and into another of the same schema: the upgrade from PGlite,
 * and `npm run db:backup` / `db:restore`. Rows travel as PostgreSQL's own JSON of each row
 * (`row_to_json`) and land through `json_populate_recordset`, so every column type comes back exactly
 * as it left (numeric money to the last digit, jsonb, timestamps) without a list of columns here.
 */

/** A connection's query: node-postgres' client and PGlite answer in this shape. */
export type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const BATCH_ROWS = 500;

/** Tables of the public schema, each after every table it references, so rows land with their keys in place. */
export async function tablesInOrder(query: Query): Promise<string[]> {
  const { rows: tables } = await query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  const { rows: references } = await query(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
     JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public' AND c.contype = 'f'`,
  );
  const names = tables.map((t) => String(t.name));
  const parents = new Map<string, Set<string>>(names.map((name) => [name, new Set()]));
  for (const { child, parent } of references) {
    if (child !== parent) parents.get(unquote(String(child)))?.add(unquote(String(parent)));
  }
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parents.get(name) ?? []) visit(parent, path);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

/**
 * Every row of `table` as JSON text, in batches, through a cursor. Call it inside a transaction
 * (a REPEATABLE READ one gives every table the same snapshot).
 */
export async function* readRows(query: Query, table: string): AsyncGenerator<string[]> {
  const cursor = `transfer_${table}`;
  await query(
    `DECLARE ${quote(cursor)} NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quote(table)} t`,
  );
  try {
    for (;;) {
      const { rows } = await query(`FETCH ${BATCH_ROWS} FROM ${quote(cursor)}`);
      if (rows.length === 0) return;
      yield rows.map((r) => String(r.row));
    }
  } finally {
    await query(`CLOSE ${quote(cursor)}`);
  }
}

/** Inserts rows given as row_to_json text into a table of the same columns. */
export async function writeRows(query: Query, table: string, rows: readonly string[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = `[${rows.slice(i, i + BATCH_ROWS).join(',')}]`;
    await query(
      `INSERT INTO ${quote(table)} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::${quote(table)}, $1::json)`,
      [batch],
    );
  }
}

export interface SequenceValue {
  readonly name: string;
  readonly value: string;
}

/** The public schema's sequences where they stand (none today; kept so a serial column added later is carried). */
export async function readSequences(query: Query): Promise<SequenceValue[]> {
  const { rows } = await query(
    `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences
     WHERE schemaname = 'public' AND last_value IS NOT NULL`,
  );
  return rows.map((r) => ({ name: String(r.name), value: String(r.value) }));
}

export async function writeSequences(query: Query, sequences: readonly SequenceValue[]): Promise<void> {
  for (const { name, value } of sequences) await query('SELECT setval($1::regclass, $2::bigint)', [quote(name), value]);
}

/** Rows in every table of the public schema: an empty database is one made by the migrations alone. */
export async function countRows(query: Query): Promise<number> {
  let total = 0;
  for (const table of await tablesInOrder(query)) {
    const { rows } = await query(`SELECT count(*)::int AS n FROM ${quote(table)}`);
    total += Number(rows[0]?.n ?? 0);
  }
  return total;
}

/** Copies every row from one database into another of the same schema; returns the rows per table. */
export async function copyDatabase(source: Query, target: Query): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  for (const table of await tablesInOrder(source)) {
    copied[table] = 0;
    for await (const rows of readRows(source, table)) {
      await writeRows(target, table, rows);
      copied[table] += rows.length;
    }
  }
  await writeSequences(target, await readSequences(source));
  return copied;
}

export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name;
}
