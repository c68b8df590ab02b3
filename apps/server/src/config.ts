/**
 * The server's configuration: environment variables (DESIGN §1), validated once at boot. A bad value
 * stops the server with one line that names the variable, before anything listens or opens a file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';

const onOff = z.enum(['on', 'off']);
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const url = (protocols: readonly string[]) =>
  z.url().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`,
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('MemeSlam <no-reply@localhost>'),
  PUBLIC_URL: url(['http:', 'https:']).default('http://localhost:3000'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMITS: onOff.default('on'),
});

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** Without a trailing slash. */
  readonly publicUrl: string;
  readonly jwtSecret: string;
  readonly requireEmailVerification: boolean;
  readonly logLevel: string;
  readonly rateLimits: boolean;
}

export class ConfigError extends Error {}

/** Reads the environment; throws a ConfigError whose message is the one line to print. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // An empty variable means "unset", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'} (got "${env[name]}")`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  let jwtSecret = e.JWT_SECRET;
  if (!jwtSecret) {
    if (e.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration: JWT_SECRET is required when NODE_ENV=production');
    }
    jwtSecret = embeddedSecret(dataDir);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
    jwtSecret,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION ?? e.SMTP_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === 'on',
  };
}

/** Embedded mode keeps a generated secret in DATA_DIR, so sessions survive a restart. */
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
