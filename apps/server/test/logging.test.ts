/**
 * A quiet start: at LOG_LEVEL=info the server prints where it is served and, in dev-outbox mode, each
 * mail's link on a readable line of its own, and nothing per request; at debug each request has its
 * lines. In production the lines are pino's JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readableLine, servedLine, servedUrl } from '../src/log.ts';
import { call, newAccount } from './helpers/boot.ts';
import { listening, mainScript, run } from './helpers/process.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'memeslam-log-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Waits until the output has a line matching `pattern`. */
function lineMatching(out: () => string, stream: NodeJS.ReadableStream | null, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const line = out()
        .split('\n')
        .find((l) => pattern.test(l));
      if (line !== undefined) {
        stream?.off('data', check);
        resolve(line);
      }
    };
    stream?.on('data', check);
    check();
  });
}

async function stop(server: ReturnType<typeof run>): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('the server process log', () => {
  it('at info: the address it is served on and each dev-outbox mail link, one readable line each, no request lines', async () => {
    const server = run(mainScript, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'http://memeslam.test',
    });
    try {
      const base = await listening(server.child, server.out);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      // An API answer (not the SPA fallback: that needs apps/web/dist built, and web-app.test.ts covers it).
      expect((await fetch(`${base}/api/tournaments/current`)).status).toBe(200);
      expect((await call(base, 'GET', '/nothing-here')).status).toBe(404);
      const account = newAccount('quiet');
      expect((await call(base, 'POST', '/auth/register', { body: account })).status).toBe(201);
      const mail = await lineMatching(server.out, server.child.stdout, /Mail to /);
      await stop(server);

      expect(mail).toMatch(
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d Mail to ${account.email}: Verify your MemeSlam e-mail address → http://memeslam\\.test/verify-email\\?token=[\\w-]+$`,
        ),
      );
      const lines = server.out().trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        /^\d\d:\d\d:\d\d MemeSlam is served on http:\/\/127\.0\.0\.1:\d+ \(links in mails use PUBLIC_URL http:\/\/memeslam\.test\)$/,
      );
      expect(lines[1]).toBe(mail);
      expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d shutting down {2}signal=SIGTERM$/);
      expect(server.out()).not.toMatch(/request|\/health|Server listening|\{"/);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('at debug: each request comes in and completes on lines of its own; in production, as JSON', async () => {
    const server = run(mainScript, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      JWT_SECRET: 'a production secret of at least 32 characters',
    });
    try {
      const base = await listening(server.child, server.out);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      await lineMatching(server.out, server.child.stdout, /request completed/);
      await stop(server);
      const records = server
        .out()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; msg: string; req?: { url: string }; reqId?: string });
      const incoming = records.find((r) => r.msg === 'incoming request' && r.req?.url === '/health');
      expect(incoming).toMatchObject({ level: 20 });
      expect(records.find((r) => r.msg === 'request completed' && r.reqId === incoming?.reqId)).toMatchObject({
        level: 20,
        res: { statusCode: 200 },
      });
      expect(records.find((r) => r.msg.startsWith('MemeSlam is served on http://127.0.0.1:'))).toMatchObject({
        level: 30,
      });
      expect(records.find((r) => r.msg.startsWith('Server listening at'))).toMatchObject({ level: 20 });
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('readable lines', () => {
  const time = new Date(2026, 0, 2, 3, 4, 5).getTime();

  it('prints the time and message, a level other than info, then the fields as key=value', () => {
    expect(
      readableLine({ level: 30, time, pid: 1, hostname: 'h', msg: 'MemeSlam is served on http://localhost:3000' }),
    ).toBe('03:04:05 MemeSlam is served on http://localhost:3000\n');
    expect(
      readableLine({
        level: 20,
        time,
        msg: 'incoming request',
        reqId: 'req-1',
        req: { method: 'GET', url: '/health' },
      }),
    ).toBe('03:04:05 DEBUG incoming request  reqId=req-1 req.method=GET req.url=/health\n');
    expect(readableLine({ level: 40, time, msg: 'room code taken', roomCode: 'ABC234', note: 'two words' })).toBe(
      '03:04:05 WARN room code taken  roomCode=ABC234 note="two words"\n',
    );
  });

  it("writes an error's stack indented under its line", () => {
    const line = readableLine({
      level: 50,
      time,
      msg: 'mail not sent',
      to: 'a@b.c',
      err: {
        type: 'Error',
        message: 'refused',
        stack: 'Error: refused\n    at send (mailer.ts:1:1)',
        code: 'ECONNREFUSED',
      },
    });
    expect(line).toBe(
      '03:04:05 ERROR mail not sent  to=a@b.c err.code=ECONNREFUSED\n    Error: refused\n        at send (mailer.ts:1:1)\n',
    );
  });
});

describe('served line', () => {
  it('names localhost for every interface, and PUBLIC_URL only when it differs', () => {
    expect(servedUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(servedUrl('::', 3000)).toBe('http://localhost:3000');
    expect(servedUrl('127.0.0.1', 4100)).toBe('http://127.0.0.1:4100');
    expect(servedUrl('::1', 4100)).toBe('http://[::1]:4100');
    expect(servedLine('http://localhost:3000', 'http://localhost:3000')).toBe(
      'MemeSlam is served on http://localhost:3000',
    );
    expect(servedLine('http://localhost:3000', 'https://play.example.com')).toBe(
      'MemeSlam is served on http://localhost:3000 (links in mails use PUBLIC_URL https://play.example.com)',
    );
  });
});
