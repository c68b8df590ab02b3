/** An invite link followed while waiting in one's own lobby asks first; nothing else does (docs/privacy.md). */
import { describe, expect, it } from 'vitest';
import { lobbyLeftByJoining } from '../src/lobby/invite.ts';

describe('lobbyLeftByJoining', () => {
  it('names the own lobby, waiting or counting down, that joining another room would leave', () => {
    expect(lobbyLeftByJoining([{ roomCode: 'OWN123', status: 'waiting' }], 'ABC123')).toBe('OWN123');
    expect(lobbyLeftByJoining([{ roomCode: 'OWN123', status: 'starting' }], 'abc123')).toBe('OWN123');
  });

  it('asks nothing without a lobby, for the invited room itself, or for a game in play or over', () => {
    expect(lobbyLeftByJoining([], 'ABC123')).toBeNull();
    expect(lobbyLeftByJoining([{ roomCode: 'ABC123', status: 'waiting' }], 'abc123')).toBeNull();
    // A game in play is not left by a join (the server refuses it); a finished one holds no seat.
    expect(lobbyLeftByJoining([{ roomCode: 'OWN123', status: 'active' }], 'ABC123')).toBeNull();
    expect(lobbyLeftByJoining([{ roomCode: 'OWN123', status: 'finished' }], 'ABC123')).toBeNull();
  });
});
