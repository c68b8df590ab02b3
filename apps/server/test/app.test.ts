import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';

describe('HTTP shell', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'memeslam-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>MemeSlam</title>');
    writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log(1)');
    app = await buildApp({ webRoot, logLevel: 'silent' });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('answers /health with ok JSON', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it('serves the web app for client routes and its assets', async () => {
    for (const path of ['/', '/lobby/ABC234', '/game/room/XYZ789?x=1']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>MemeSlam</title>');
    }
    expect(await (await fetch(`${base}/assets/app.js`)).text()).toBe('console.log(1)');
  });

  it('answers unknown API paths and missing assets with a JSON 404', async () => {
    for (const path of ['/api/nothing-here', '/assets/missing.js']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: `Resource not found: ${path}` });
    }
  });
});
