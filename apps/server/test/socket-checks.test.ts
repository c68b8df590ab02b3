/** The test players read everything the server sends through the protocol's schemas: a mismatch fails. */
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { Client, checkAck } from './helpers/sockets.ts';

/** A Client over a stand-in socket whose incoming frames the test delivers itself. */
function fakeClient(): { client: Client; deliver: (event: string, payload: unknown) => void } {
  let listener: (event: string, payload: unknown) => void = () => undefined;
  const socket = { onAny: (f: typeof listener) => (listener = f), disconnect: () => undefined };
  return { client: new Client(socket as unknown as Socket), deliver: (event, payload) => listener(event, payload) };
}

describe('the test players’ wire checks', () => {
  it('take a frame that matches its schema', async () => {
    const { client, deliver } = fakeClient();
    deliver('playerUnfrozen', { playerId: 'u-1', playerName: 'alice', seq: 3 });
    await expect(client.waitFor('playerUnfrozen')).resolves.toMatchObject({ seq: 3 });
    expect(() => client.close()).not.toThrow();
  });

  it('fail on a frame that does not, whether waited for or not', async () => {
    const { client, deliver } = fakeClient();
    const waiting = client.waitFor('playerUnfrozen');
    deliver('playerUnfrozen', { playerId: 'u-1', playerName: 'alice' });
    await expect(waiting).rejects.toThrow(/playerUnfrozen/);
    const other = fakeClient();
    other.deliver('gameJoined', { success: false, error: 'Game not found' });
    expect(() => other.client.close()).toThrow(/gameJoined/);
    const unknown = fakeClient();
    unknown.deliver('noSuchServerEvent', {});
    expect(() => unknown.client.close()).toThrow(/noSuchServerEvent/);
  });

  it('fail on an ack that does not match its event’s', () => {
    expect(checkAck('joinGame', { success: false, error: 'Game not found', code: 'GAME_NOT_FOUND' })).toMatchObject({
      code: 'GAME_NOT_FOUND',
    });
    expect(() => checkAck('joinGame', { success: false, error: 'Game not found' })).toThrow(/joinGame/);
    expect(() => checkAck('setPlayerReady', { success: true, data: { isReady: 'yes' } })).toThrow(/setPlayerReady/);
    expect(() => checkAck('noSuchEvent', { success: false, error: 'Unknown event' })).toThrow(/noSuchEvent/);
  });
});
