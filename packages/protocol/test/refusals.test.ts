import { RULE_TEXTS } from '@memeslam/engine';
import { describe, expect, it } from 'vitest';
import {
  JOIN_RETRY,
  LOBBY_TEXTS,
  REFUSAL_CODES,
  REFUSAL_TEXTS,
  SERVER_TEXTS,
  handshakeRefusalSchema,
  isRefusalCode,
  refusalCodeSchema,
} from '../src/index.ts';

describe('refusal codes', () => {
  it('keep the engine’s rule codes with their texts', () => {
    for (const [code, text] of Object.entries(RULE_TEXTS)) {
      expect(isRefusalCode(code), code).toBe(true);
      expect(REFUSAL_TEXTS[code as keyof typeof RULE_TEXTS]).toBe(text);
    }
  });

  it('name the server’s refusals beside their texts, unchanged', () => {
    expect(REFUSAL_TEXTS.GAME_NOT_FOUND).toBe(LOBBY_TEXTS.gameNotFound);
    expect(REFUSAL_TEXTS.NOT_IN_GAME).toBe(LOBBY_TEXTS.notInGame);
    expect(REFUSAL_TEXTS.TOO_MANY_GAMES).toBe(SERVER_TEXTS.tooManyGamesCreated);
    expect(REFUSAL_TEXTS.SERVER_BUSY).toBe(SERVER_TEXTS.serverBusy);
    expect(REFUSAL_TEXTS.RECONNECTING).toBe(SERVER_TEXTS.clusterUnavailable);
    expect(REFUSAL_TEXTS.AUTHENTICATION_FAILED).toContain('Authentication');
    for (const code of REFUSAL_CODES) expect(REFUSAL_TEXTS[code].length, code).toBeGreaterThan(0);
  });

  it('are one closed set on the wire', () => {
    expect(refusalCodeSchema.safeParse('GAME_NOT_FOUND').success).toBe(true);
    expect(refusalCodeSchema.safeParse('Game not found').success).toBe(false);
    expect(isRefusalCode('toString')).toBe(false);
    expect(handshakeRefusalSchema.safeParse({ code: 'INTERNAL_ERROR', retry: true }).success).toBe(true);
    expect(handshakeRefusalSchema.safeParse({ retry: true }).success).toBe(false);
  });

  it('let the client retry a join by code', () => {
    expect(JOIN_RETRY.retryOn).toBe('GAME_NOT_FOUND');
  });
});
