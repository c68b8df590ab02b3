/**
 * The server's configuration: environment variables, validated once at boot. A bad value
 * stops the server with one line that names the variable, before anything listens or opens a file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import * as z from 'zod';

const onOff = z.enum(['on', 'off']);
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const url = (protocols: readonly string[]) =>
  z.url().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`,
  });

/** Every variable the server reads, its check and default: the README's configuration table lists exactly these. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  /** Cluster mode: Redis for fan-out, game ownership and cluster-wide counts; needs DATABASE_URL. */
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  /** This node's name in the cluster (logs, /health, leases); default: a random one per start. */
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores')
    .optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('MemeSlam <no-reply@localhost>'),
  /** Default: http://localhost:PORT, so links in mail reach this server on whatever port it listens. */
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMITS: onOff.default('on'),
  /** Comma-separated origins the API (CORS) and socket.io accept besides the page's own; default: PUBLIC_URL's. */
  ALLOWED_ORIGINS: z.string().optional(),
  /**
   * Fastify's trustProxy: comma-separated addresses/CIDRs of the proxies (only these may name the
   * client in X-Forwarded-For), false, or — with HOST on loopback only — true, a hop count or a range
   * wider than an IPv4 /8 or IPv6 /32.
   */
  TRUST_PROXY: z.string().optional(),
  /** A bearer token that opens /metrics from any address (without it: loopback only). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** tuned: the server's own socket adapter and writes; stock: socket.io's (realtime/transport.ts). */
  SOCKET_TRANSPORT: z.enum(['tuned', 'stock']).default('tuned'),
  /**
   * Admission control's limits, measured by `npm run bench:server -- --calibrate` (games/headroom.ts);
   * default DATA_DIR/admission.json when it exists. Without one, new games are refused only at the room ceiling.
   */
  ADMISSION_FILE: z.string().min(1).optional(),
});

/** TRUST_PROXY as Fastify's trustProxy option takes it. */
export type TrustProxy = boolean | number | string[];

function parseTrustProxy(value: string | undefined): TrustProxy | Error {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const addresses = text
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const named = (a: string) => a === 'loopback' || a === 'linklocal' || a === 'uniquelocal';
  const valid = (a: string) => (a.includes('/') ? isCidr(a) : ipaddr.isValid(a));
  if (addresses.length === 0 || !addresses.every((a) => named(a) || valid(a))) {
    return new Error('must be true, false, a hop count, or comma-separated proxy addresses');
  }
  return addresses;
}

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A proxy range wider than an IPv4 /8 or an IPv6 /32 (`0.0.0.0/0`, `::/0`) is no proxy's address: it
 * trusts much of the internet to name the client, as `true` does.
 */
function isBlanketRange(text: string): boolean {
  if (!text.includes('/')) return false;
  const [range, bits] = ipaddr.parseCIDR(text);
  if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()) return bits < 96 + 8;
  return bits < (range.kind() === 'ipv4' ? 8 : 32);
}

/** Whether TRUST_PROXY lets whoever connects name the client: true, a hop count, or a blanket range. */
function trustsAnyone(trust: TrustProxy): boolean {
  if (trust === true) return true;
  if (typeof trust === 'number') return trust > 0;
  return Array.isArray(trust) && trust.some(isBlanketRange);
}

/** HOST values only this machine can reach: then a blanket TRUST_PROXY trusts nobody else. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  try {
    const parsed = ipaddr.process(bare);
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

/** Names whose values are secrets: a refusal never prints them. */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|KEY/;

/**
 * How a refused value is shown in the start-up line: a secret not at all, a URL with its user and
 * password part hidden (DATABASE_URL, REDIS_URL, SMTP_URL may carry a password), anything else as given.
 */
export function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '';
  if (SECRET_NAME.test(name)) return ' (the value is not shown)';
  if (name.endsWith('_URL') && value.includes('@')) {
    return ` (got "${value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, (_m, scheme: string | undefined) => `${scheme ?? ''}***@`)}")`;
  }
  return ` (got "${value}")`;
}

function parseOrigins(value: string | undefined, publicUrl: string): string[] | Error {
  if (value === undefined || value.trim() === '') return [new URL(publicUrl).origin];
  const origins: string[] = [];
  for (const item of value
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')) {
    if (!URL.canParse(item) || !['http:', 'https:'].includes(new URL(item).protocol)) {
      return new Error(`must be comma-separated http(s) origins ("${item}" is not one)`);
    }
    origins.push(new URL(item).origin);
  }
  return origins;
}

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /** Cluster mode when set (with a PostgreSQL DATABASE_URL). */
  readonly redisUrl: string | null;
  readonly nodeId: string;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** Without a trailing slash. */
  readonly publicUrl: string;
  readonly jwtSecret: string;
  readonly requireEmailVerification: boolean;
  readonly logLevel: string;
  readonly rateLimits: boolean;
  /** Origins (scheme://host[:port]) accepted for CORS and socket.io, besides a page of this server's own. */
  readonly allowedOrigins: readonly string[];
  readonly trustProxy: TrustProxy;
  readonly metricsToken: string | null;
  /** The socket transport: tuned (default) or socket.io's stock adapter and writes (realtime/transport.ts). */
  readonly socketTransport: 'tuned' | 'stock';
  /** Where admission control's calibrated limits are read (the file may not exist). */
  readonly admissionFile: string;
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
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shownValue(name, env[name])}`,
    );
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
  if (e.REDIS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: REDIS_URL (cluster mode) needs DATABASE_URL: every node shares one PostgreSQL',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const allowedOrigins = parseOrigins(e.ALLOWED_ORIGINS, publicUrl);
  if (allowedOrigins instanceof Error) {
    throw new ConfigError(`Invalid configuration: ALLOWED_ORIGINS ${allowedOrigins.message}`);
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy instanceof Error) {
    throw new ConfigError(`Invalid configuration: TRUST_PROXY ${trustProxy.message} (got "${env.TRUST_PROXY}")`);
  }
  // A blanket trust lets a client that reaches the server directly name any address it likes in
  // X-Forwarded-For, and so dodge every per-address limit (docs/limits.md).
  if (trustsAnyone(trustProxy) && !isLoopbackHost(e.HOST)) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY=${e.TRUST_PROXY} trusts X-Forwarded-For from anyone who reaches HOST=${e.HOST}: ` +
        `set TRUST_PROXY to your proxy's addresses (e.g. TRUST_PROXY=127.0.0.1 or 10.0.0.5), or HOST=127.0.0.1`,
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    nodeId: e.NODE_ID ?? `node-${randomBytes(4).toString('hex')}`,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    jwtSecret,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION ?? e.SMTP_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === 'on',
    allowedOrigins,
    trustProxy,
    metricsToken: e.METRICS_TOKEN ?? null,
    socketTransport: e.SOCKET_TRANSPORT,
    admissionFile: resolve(e.ADMISSION_FILE ?? join(dataDir, 'admission.json')),
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
