/**
 * The built web app (apps/web/dist): its files, each sent as the build's brotli or gzip copy when the
 * client accepts one (`@fastify/static`'s `preCompressed`), and index.html for every client route.
 *
 * Cache-Control: the build's hashed files under /assets/ never change under their name, so a year
 * and `immutable`; index.html (which names them) `no-cache`, so a new build is seen at once; other
 * root files (the favicon) an hour.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { resourceNotFoundText } from '@memeslam/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const CACHE_HASHED = 'public, max-age=31536000, immutable';
export const CACHE_INDEX = 'no-cache';
export const CACHE_OTHER = 'public, max-age=3600';

const COMPRESSED_COPY = /\.(?:br|gz)$/;

/** The Cache-Control of a file of the build (its path relative to the build's folder). */
export function cacheControlFor(file: string): string {
  const path = file.replace(COMPRESSED_COPY, '').split(sep).join('/');
  if (path.startsWith('assets/')) return CACHE_HASHED;
  if (path.endsWith('.html')) return CACHE_INDEX;
  return CACHE_OTHER;
}

/** The server's own paths (the API, its health and metrics); every other GET is the web app's. */
const SERVER_PATHS = /^\/(?:api|health|metrics)(?:[/?]|$)/;

/**
 * Whether a request asks for the web app (a page or a file of the build), which the "Server busy"
 * guard lets through: the files cost next to nothing to send, and a page that loads can say "Server
 * busy" for what it asks the API, where a refused script would leave it blank.
 */
export function isWebAppRequest(method: string, url: string): boolean {
  return (method === 'GET' || method === 'HEAD') && !SERVER_PATHS.test(url);
}

/**
 * Serves `webRoot` when it holds a build, and answers every other unknown path: index.html for a
 * GET of a client route, a JSON 404 for the rest (API paths, missing files, other methods).
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const hasWeb = existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // One route per file of the build, found at start; the compressed copies are not routes of their own.
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      preCompressed: true,
      setHeaders: (reply: FastifyReply, path: string) => {
        reply.header('cache-control', cacheControlFor(relative(webRoot, path)));
      },
    });
    // Browsers that do not read index.html's <link rel="icon"> ask for /favicon.ico: the same SVG.
    if (existsSync(join(webRoot, 'favicon.svg'))) {
      app.get('/favicon.ico', (_request, reply) => reply.sendFile('favicon.svg'));
    }
  }
  app.setNotFoundHandler(async (request, reply) => {
    // Any non-API, non-asset GET is a client route: the web app decides what to show.
    const path = request.url.split('?')[0] ?? '';
    const isAsset = /\.[a-z0-9]+$/i.test(path);
    if (hasWeb && request.method === 'GET' && !isAsset && !path.startsWith('/api/')) {
      return reply.sendFile('index.html');
    }
    return reply.code(404).send({ success: false, message: resourceNotFoundText(path) });
  });
}
