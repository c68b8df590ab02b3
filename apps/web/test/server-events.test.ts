/** The web's fan-out of server events (game/server-events.ts): one listener per event of the protocol's map. */
import { SERVER_EVENT_NAMES } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { serverEventListeners } from '../src/game/server-events.ts';
import type { ServerAction } from '../src/game/state.ts';

describe('serverEventListeners', () => {
  it('has a listener for every server event and no other', () => {
    const listeners = serverEventListeners(() => {});
    expect(Object.keys(listeners).sort()).toEqual([...SERVER_EVENT_NAMES].sort());
  });

  it('relays each event under its own name with its payload untouched', () => {
    const relayed: ServerAction[] = [];
    const listeners = serverEventListeners((action) => relayed.push(action));
    const payload = { userId: 'u1', username: 'alice', isBot: false, seq: 4 };
    listeners.playerLeft(payload);
    expect(relayed).toEqual([{ type: 'server', event: 'playerLeft', payload }]);
    expect(relayed[0]?.payload).toBe(payload);
  });
});
