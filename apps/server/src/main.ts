import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';

function readPort(raw: string | undefined): number {
  const port = Number(raw ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid configuration: PORT must be an integer from 0 to 65535 (got "${raw}")`);
    process.exit(1);
  }
  return port;
}

const port = readPort(process.env.PORT);
const host = process.env.HOST ?? '0.0.0.0';
const app = await buildApp({
  webRoot: fileURLToPath(new URL('../../web/dist', import.meta.url)),
  logLevel: process.env.LOG_LEVEL ?? 'info',
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ port, host });
