/**
 * Zod compiles object schemas with `new Function` unless told not to, and probes for it when a schema
 * is built: under the server's Content-Security-Policy (no 'unsafe-eval') even the probe is reported
 * as a violation. main.tsx imports this first, so it runs before any module builds a schema.
 */
import { config } from 'zod';

config({ jitless: true });
