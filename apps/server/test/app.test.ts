/** The HTTP shell: health, the web app with its SPA fallback, JSON 404s, on each database mode. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Booted, DATABASE_MODES, boot } from './helpers/boot.ts';

describe.each(DATABASE_MODES)('HTTP shell on %s', (mode) => {
  let server: Booted;
  beforeAll(async () => {
    server = await boot(mode);
  });
  afterAll(() => server.close());

  it('answers /health with ok JSON naming the database', async () => {
    const res = await fetch(`${server.base}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    // The suites reach their database by DATABASE_URL (the server's own embedded one: embedded-postgres.test.ts).
    expect(await res.json()).toMatchObject({ ok: true, database: mode === 'own' ? 'embedded' : 'external' });
  });

  it('serves the web app for client routes and its assets', async () => {
    for (const path of ['/', '/dashboard', '/lobby/ABC234', '/game/room/XYZ789?x=1', '/no/such/page']) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>MemeSlam</title>');
    }
    expect(await (await fetch(`${server.base}/assets/app.js`)).text()).toBe('console.log(1)');
  });

  it('answers unknown API paths and missing assets with a JSON 404', async () => {
    for (const path of ['/api/nothing-here', '/assets/missing.js', '/api/auth/me/extra']) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: `Resource not found: ${path}` });
    }
  });
});
