/**
 * The built web app as the server sends it: the build's brotli and gzip copies chosen by
 * Accept-Encoding (the bytes of those files, not compressed again), the plain file otherwise,
 * Cache-Control by kind of file (hashed asset, index.html, other), and the favicon.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_HASHED, CACHE_INDEX, CACHE_OTHER, cacheControlFor } from '../src/http/web-app.ts';
import { type Booted, boot } from './helpers/boot.ts';

const INDEX = `<!doctype html><html><head><title>MemeSlam</title><link rel="icon" href="/favicon.svg" /></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>`;
const SCRIPT = `export const cards = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `card ${i}` })))};`;
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${'<rect width="8" height="8"/>'.repeat(20)}</svg>`;

/** A file of the build with the copies the web build writes beside it (apps/web/vite.config.ts). */
function writeBuilt(path: string, content: string): void {
  writeFileSync(path, content);
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
}

/** A GET with exactly these headers (fetch would add Accept-Encoding and decode), body as sent. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web app as sent', () => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot('embedded');
    const web = join(server.dataDir, 'web');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeBuilt(join(web, 'index.html'), INDEX);
    writeBuilt(join(web, 'assets', 'index-C0ffee12.js'), SCRIPT);
    writeBuilt(join(web, 'favicon.svg'), FAVICON);
    // The server lists the build's files when it starts.
    await server.restart();
  });
  afterAll(() => server.close());

  it('sends the brotli copy to a client that accepts br, the gzip copy to one that accepts gzip', async () => {
    const br = await get(server.base, '/assets/index-C0ffee12.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gz = await get(server.base, '/assets/index-C0ffee12.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plainRequests: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }];
    for (const headers of plainRequests) {
      const plain = await get(server.base, '/assets/index-C0ffee12.js', headers);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it('sends index.html compressed at / and for a deep link (the SPA fallback)', async () => {
    for (const path of ['/', '/dashboard', '/game/room/XYZ789?x=1']) {
      const br = await get(server.base, path, { 'accept-encoding': 'br' });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('text/html');
      expect(brotliDecompressSync(br.body).toString()).toBe(INDEX);
      const gz = await get(server.base, path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(INDEX);
      const plain = await get(server.base, path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year, immutable; index.html and deep links no-cache; the favicon an hour', async () => {
    const expectations: [string, string][] = [
      ['/assets/index-C0ffee12.js', 'public, max-age=31536000, immutable'],
      ['/', 'no-cache'],
      ['/index.html', 'no-cache'],
      ['/dashboard', 'no-cache'],
      ['/favicon.svg', 'public, max-age=3600'],
    ];
    for (const [path, cacheControl] of expectations) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const res = await get(server.base, path, { 'accept-encoding': encoding });
        expect(res.status, `${path} ${encoding}`).toBe(200);
        expect(res.headers['cache-control'], `${path} ${encoding}`).toBe(cacheControl);
      }
    }
  });

  it('serves the SVG favicon, at /favicon.ico too', async () => {
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await get(server.base, path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.body.toString()).toBe(FAVICON);
      const br = await get(server.base, path, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toBe(FAVICON);
    }
  });

  it('does not serve the compressed copies under their own names', async () => {
    for (const path of ['/assets/index-C0ffee12.js.br', '/assets/index-C0ffee12.js.gz', '/index.html.br']) {
      const res = await get(server.base, path);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString())).toEqual({ success: false, message: `Resource not found: ${path}` });
    }
  });
});

describe('cacheControlFor', () => {
  it('tells hashed assets, html and other files apart, compressed copies like their file', () => {
    expect(cacheControlFor('assets/index-C0ffee12.js')).toBe(CACHE_HASHED);
    expect(cacheControlFor('assets/index-C0ffee12.css.br')).toBe(CACHE_HASHED);
    expect(cacheControlFor('index.html')).toBe(CACHE_INDEX);
    expect(cacheControlFor('index.html.gz')).toBe(CACHE_INDEX);
    expect(cacheControlFor('favicon.svg')).toBe(CACHE_OTHER);
  });
});
