import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';

export interface AppOptions {
  /** Folder of the built web app; served with an SPA fallback when it exists. */
  readonly webRoot: string;
  readonly logLevel: string;
}

/** The HTTP server: /health, /api, and the built web app for every other path. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: options.logLevel } });

  app.get('/health', async () => ({ ok: true, service: 'memeslam', uptimeSeconds: Math.round(process.uptime()) }));

  app.register(
    async (api) => {
      api.setNotFoundHandler(async (request, reply) =>
        reply.code(404).send({ success: false, message: `Resource not found: ${request.url}` }),
      );
    },
    { prefix: '/api' },
  );

  const hasWeb = existsSync(join(options.webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: options.webRoot, wildcard: false });
  }
  app.setNotFoundHandler(async (request, reply) => {
    // Any non-API, non-asset path is a client route: the web app decides what to show.
    const isAsset = /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
    if (hasWeb && request.method === 'GET' && !isAsset) return reply.sendFile('index.html');
    return reply.code(404).send({ success: false, message: `Resource not found: ${request.url}` });
  });

  return app;
}
