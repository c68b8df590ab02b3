/** Telling database errors apart (node-postgres' errors carry PostgreSQL's SQLSTATE in `code`). */

/** PostgreSQL's unique_violation (drizzle may wrap it in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  return pgError(error)?.code === '23505';
}

export function pgError(error: unknown): { code?: unknown; constraint?: unknown } | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: unknown; constraint?: unknown; cause?: unknown };
  return e.code !== undefined ? e : pgError(e.cause);
}
