/**
 * Admission control (games/headroom.ts, docs/capacity.md): the decision from a window's signals and
 * the calibrated limits, then over real HTTP and sockets against a booted server whose calibration
 * allows two rooms: a third start is refused at once with NO_HEADROOM (HTTP 503 with Retry-After),
 * the games already there go on, Play now keeps its seekers in line, and a freed room is taken again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { type AdmissionLimits, HYSTERESIS, Headroom, readAdmissionFile } from '../src/games/headroom.ts';
import { type Booted, DATABASE_MODES, boot, call, temporaryDataDir } from './helpers/boot.ts';
import { type Client, newPerson, playOne, settle } from './helpers/sockets.ts';

const LIMITS: AdmissionLimits = { rooms: 100, loopDelayP99Ms: 20, ackP99Ms: 40, cpuShare: 0.8 };
const CALM = { loopDelayP99Ms: 2, ackP99Ms: 5, cpuShare: 0.3 };

describe('Headroom: the decision', () => {
  it('uncalibrated, it admits every game (the room ceiling is the game service’s)', () => {
    const headroom = new Headroom(null);
    headroom.observe({ loopDelayP99Ms: 500, ackP99Ms: 900, cpuShare: 1 });
    expect(headroom.admits(1_000_000)).toBe(true);
  });

  it('refuses past the calibrated rooms, and counts each refusal', () => {
    const headroom = new Headroom(LIMITS);
    headroom.observe(CALM);
    expect(headroom.admits(99)).toBe(true);
    expect(headroom.admits(100)).toBe(false);
    expect(headroom.state(100)).toMatchObject({ admitting: false, roomLimit: 100, refused: 1 });
  });

  it.each([['loopDelayP99Ms'], ['ackP99Ms'], ['cpuShare']] as const)(
    `a window with %s past its limit refuses until every signal is under ${HYSTERESIS} of its limit`,
    (signal) => {
      const headroom = new Headroom(LIMITS);
      headroom.observe({ ...CALM, [signal]: LIMITS[signal] * 1.1 });
      expect(headroom.admits(1)).toBe(false);
      // Back under the limit but not under the hysteresis: still refusing (no flapping at the edge).
      headroom.observe({ ...CALM, [signal]: LIMITS[signal] * ((1 + HYSTERESIS) / 2) });
      expect(headroom.admits(1)).toBe(false);
      headroom.observe({ ...CALM, [signal]: LIMITS[signal] * HYSTERESIS * 0.9 });
      expect(headroom.admits(1)).toBe(true);
    },
  );

  it('reads a calibration file; none is null; a malformed one is an error that names the file', () => {
    const dir = temporaryDataDir('memeslam-admission-');
    const file = join(dir, 'admission.json');
    expect(readAdmissionFile(file)).toBeNull();
    writeFileSync(file, JSON.stringify({ ...LIMITS, calibratedWith: 'npm run bench:server -- --calibrate' }));
    expect(readAdmissionFile(file)).toMatchObject(LIMITS);
    writeFileSync(file, JSON.stringify({ ...LIMITS, rooms: -1 }));
    expect(() => readAdmissionFile(file)).toThrow(file);
  });
});

describe.each(DATABASE_MODES)('admission control on a booted server (%s)', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    // A calibration that allows two rooms; the window signals' limits are out of reach here.
    const dir = temporaryDataDir('memeslam-admission-');
    const file = join(dir, 'admission.json');
    writeFileSync(file, JSON.stringify({ rooms: 2, loopDelayP99Ms: 1e6, ackP99Ms: 1e6, cpuShare: 1e6 }));
    server = await boot(mode, { ADMISSION_FILE: file }, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const person = (prefix: string) => newPerson(server.base, prefix, clients);
  const admission = async () => {
    const figures = (await (await fetch(`${server.base}/metrics?format=json`)).json()) as {
      admission: { admitting: boolean; refused: number };
    };
    return figures.admission;
  };

  it('refuses a third game at once, lets the games there go on, keeps Play now in line, and admits again', async () => {
    const host = await person('ah');
    const bots = await person('ab');
    // Room one: a bot game in play. Room two: a lobby.
    const botGame = await bots.client.emit('createGame', { withBots: true, numberOfBots: 1, maxPlayers: 2 });
    expect(botGame.success).toBe(true);
    expect((await bots.client.emit('setPlayerReady', { isReady: true })).success).toBe(true);
    expect((await bots.client.emit('startGame', {})).success).toBe(true);
    clock.advance(5000);
    await bots.client.waitFor('gameStarted');
    expect((await host.client.emit('createGame', {})).success).toBe(true);
    expect(await admission()).toMatchObject({ admitting: false, refused: 0 });

    // A third start: refused within 100 ms over the socket, and over HTTP with Retry-After.
    const third = await person('at');
    const started = performance.now();
    const refused = await third.client.emit('createGame', {});
    expect(performance.now() - started).toBeLessThan(100);
    expect(refused).toMatchObject({ success: false, code: 'NO_HEADROOM', error: SERVER_TEXTS.inLine });
    const http = await call(server.base, 'POST', '/game/create-bot-game', {
      token: third.token,
      body: { numberOfBots: 1, botDifficulty: 'easy' },
    });
    expect(http.status).toBe(503);
    expect(http.headers.get('retry-after')).toBe('2');
    expect(http.body).toEqual({ success: false, message: SERVER_TEXTS.inLine });
    expect((await admission()).refused).toBe(2);

    // The game in play does not notice: a play is answered as before (the bot plays meanwhile).
    let played: string | null = null;
    for (let turn = 0; turn < 60 && played === null; turn += 1) {
      played = await playOne(bots.client);
      if (played === null) clock.advance(1000);
    }
    expect(played).not.toBeNull();

    // Play now while no room is free: both seekers stay in line, nobody is seated.
    const a = await person('aq');
    const b = await person('ar');
    expect((await a.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    expect((await b.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    await Promise.all([settle(a.client), settle(b.client)]);
    expect(a.client.all('matchFound')).toHaveLength(0);
    expect((await admission()).refused).toBeGreaterThan(2);

    // The lobby closes: a room is free again, and the line moves (Play now seats its pair).
    expect((await host.client.emit('leaveGame', {})).success).toBe(true);
    clock.advance(1000);
    const [found] = await Promise.all([a.client.waitFor('matchFound'), b.client.waitFor('matchFound')]);
    expect(found).toMatchObject({ people: 2 });
    expect(await admission()).toMatchObject({ admitting: false });
    expect((await third.client.emit('createGame', {})).code).toBe('NO_HEADROOM');
  });
});
