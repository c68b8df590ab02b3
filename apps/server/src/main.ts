import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { servedLine, servedUrl } from './log.ts';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const app = await buildApp(config, { webRoot: fileURLToPath(new URL('../../web/dist', import.meta.url)) });

/** A stop never takes longer than this, whatever the database, Redis or other nodes are doing. */
const SHUTDOWN_DEADLINE_MS = 10_000;

// Stop accepting, let in-flight requests finish, close the database; a second signal exits at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    for (const again of ['SIGINT', 'SIGTERM'] as const) process.once(again, () => process.exit(1));
    setTimeout(() => {
      app.log.error(`shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting now`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS - 500).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(servedLine(servedUrl(config.host, port), config.publicUrl));
