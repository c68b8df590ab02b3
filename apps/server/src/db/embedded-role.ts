/**
 * The embedded cluster's app role (docs/security.md): the server connects as EMBEDDED_APP_ROLE, which
 * owns the app's database and everything in it and is no superuser.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { ConnectionSettings } from './embedded.ts';

/** The role the app connects as: owner of the app's database and what it holds, no superuser. */
export const EMBEDDED_APP_ROLE = 'memeslam_app';
/** What a generated app-role password looks like (base64url). */
const APP_PASSWORD = /^[A-Za-z0-9_-]{16,}$/;
/** The app role's password file, beside the superuser's (`passwordFile`). */
export const appPasswordFileFor = (passwordFile: string) => join(dirname(passwordFile), 'postgres-app-password');

/**
 * The app's role (docs/security.md): made on first start with a random password kept in
 * `passwordFile` (0600), its password set from that file at every start, and made the owner of the
 * app's database, its schemas and every table, sequence, view and function in them (a cluster made
 * by an older release: the superuser owned them). Idempotent; only what another role owns is changed.
 */
export async function ensureAppRole(connection: ConnectionSettings, passwordFile: string): Promise<string> {
  let password = (await readFile(passwordFile, 'utf8').catch(() => '')).trim();
  if (!password) {
    password = randomBytes(24).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  // It goes into a statement the superuser runs (DDL takes no parameters): only what we generate.
  if (!APP_PASSWORD.test(password)) {
    throw new Error(`${passwordFile} does not hold a password this server made (16 or more of A-Z a-z 0-9 _ -)`);
  }
  await chmod(passwordFile, 0o600);
  const role = EMBEDDED_APP_ROLE;
  const admin = new pg.Client({ ...connection, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const verb = exists.rowCount === 0 ? 'CREATE' : 'ALTER';
    // The password is a literal in the statement (no parameters in DDL); base64url needs no escaping.
    await admin.query(
      `${verb} ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '${password}'`,
    );
    await admin.query(`ALTER DATABASE ${connection.database} OWNER TO ${role}`);
  } finally {
    await admin.end();
  }
  const inApp = new pg.Client({ ...connection });
  await inApp.connect();
  try {
    await inApp.query(`DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT nspname FROM pg_namespace
    WHERE nspname IN ('public', 'drizzle') AND pg_get_userbyid(nspowner) <> '${role}' LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${role}', r.nspname);
  END LOOP;
  -- Tables first: a table's owned sequences (serial, identity) follow it and refuse to move alone.
  FOR r IN SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('public', 'drizzle') AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      AND pg_get_userbyid(c.relowner) <> '${role}' LOOP
    EXECUTE format('ALTER %s %I.%I OWNER TO ${role}',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
      r.nspname, r.relname);
  END LOOP;
  FOR r IN SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('public', 'drizzle') AND c.relkind = 'S' AND pg_get_userbyid(c.relowner) <> '${role}' LOOP
    EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO ${role}', r.nspname, r.relname);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS fn FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname IN ('public', 'drizzle') AND pg_get_userbyid(p.proowner) <> '${role}' LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${role}', r.fn);
  END LOOP;
  FOR r IN SELECT n.nspname, t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname IN ('public', 'drizzle') AND t.typtype = 'e' AND pg_get_userbyid(t.typowner) <> '${role}' LOOP
    EXECUTE format('ALTER TYPE %I.%I OWNER TO ${role}', r.nspname, r.typname);
  END LOOP;
END
$$`);
  } finally {
    await inApp.end();
  }
  return password;
}
