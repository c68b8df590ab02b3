/**
 * The tournament entry control's state: which of Join, Joined, Full, verified wallet or
 * e-mail required, signed out, guest or ended a viewer sees, and the reason shown for an uncounted game.
 * Also the base58 encoding the wallet link signs with, checked against the bs58 package.
 */
import { randomBytes } from 'node:crypto';
import type { TournamentStanding } from '@memeslam/protocol';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { entryState, latestUncounted } from '../src/tournament/entry.ts';
import { base58Encode } from '../src/wallet/base58.ts';

type Settings = { maxParticipants: number | null; requireVerifiedSolana: boolean; allowBots: boolean };
function tournament(overrides: { isJoined?: boolean; participantCount?: number } & Partial<Settings> = {}) {
  return {
    ...(overrides.isJoined !== undefined ? { isJoined: overrides.isJoined } : {}),
    participantCount: overrides.participantCount ?? 0,
    settings: {
      maxParticipants: overrides.maxParticipants ?? null,
      minGamesRequired: 1,
      scoringMethod: 'totalPoints' as const,
      allowBots: overrides.allowBots ?? true,
      requireVerifiedSolana: overrides.requireVerifiedSolana ?? false,
    },
  };
}
const wallet = (solanaAddress?: string) => ({
  balance: 0,
  totalWon: 0,
  byCurrency: { SLAM: { balance: 0, totalWon: 0 }, SOL: { balance: 0, totalWon: 0 } },
  ...(solanaAddress ? { solanaAddress } : {}),
});
const player = { isGuest: false, wallet: wallet(), emailVerified: true };
const verified = { isGuest: false, wallet: wallet('So1anaAddre55So1anaAddre55So1ana'), emailVerified: true };
const guest = { isGuest: true, wallet: wallet(), emailVerified: false };
const unverified = { isGuest: false, wallet: wallet(), emailVerified: false };

describe('entryState', () => {
  it.each([
    ['signed out', tournament(), null, false, 'signedOut'],
    ['signed out, ended', tournament(), null, true, 'ended'],
    ['signed out, full', tournament({ maxParticipants: 2, participantCount: 2 }), null, false, 'full'],
    ['a guest', tournament(), guest, false, 'guest'],
    ['a guest, full', tournament({ maxParticipants: 2, participantCount: 2 }), guest, false, 'full'],
    ['a player, room left', tournament({ maxParticipants: 2, participantCount: 1 }), player, false, 'open'],
    ['a player, unlimited', tournament({ participantCount: 500 }), player, false, 'open'],
    ['full', tournament({ maxParticipants: 2, participantCount: 2, isJoined: false }), player, false, 'full'],
    [
      'full beats the wallet',
      tournament({ maxParticipants: 2, participantCount: 2, requireVerifiedSolana: true }),
      player,
      false,
      'full',
    ],
    ['no verified wallet', tournament({ requireVerifiedSolana: true }), player, false, 'walletRequired'],
    ['a verified wallet', tournament({ requireVerifiedSolana: true }), verified, false, 'open'],
    // docs/fair-play.md: people-only tournaments need a verified e-mail; those with bots do not.
    ['people only, e-mail not verified', tournament({ allowBots: false }), unverified, false, 'emailRequired'],
    ['people only, e-mail verified', tournament({ allowBots: false }), player, false, 'open'],
    ['bots allowed, e-mail not verified', tournament({ allowBots: true }), unverified, false, 'open'],
    ['people only, a guest', tournament({ allowBots: false }), guest, false, 'guest'],
    ['joined, e-mail not verified', tournament({ allowBots: false, isJoined: true }), unverified, false, 'joined'],
    ['joined', tournament({ isJoined: true }), player, false, 'joined'],
    [
      'joined, even when full',
      tournament({ isJoined: true, maxParticipants: 2, participantCount: 2 }),
      player,
      false,
      'joined',
    ],
    ['joined, after the end', tournament({ isJoined: true }), player, true, 'joined'],
    ['ended before joining', tournament({ isJoined: false }), player, true, 'ended'],
  ] as const)('%s → %s', (_, t, viewer, ended, expected) => {
    expect(entryState(t, viewer, ended)).toBe(expected);
  });
});

describe('latestUncounted', () => {
  it('is the newest uncounted game, or none', () => {
    const recentUncounted: TournamentStanding['recentUncounted'] = [
      { gameId: 'g2', endedAt: '2026-01-01T10:05:00.000Z', reason: 'tooShort' },
      { gameId: 'g1', endedAt: '2026-01-01T10:00:00.000Z', reason: 'aborted' },
    ];
    expect(latestUncounted({ recentUncounted })?.reason).toBe('tooShort');
    expect(latestUncounted({ recentUncounted: [] })).toBeNull();
  });
});

describe('base58Encode', () => {
  it('matches bs58 on keys, signatures, leading zeros and empty input', () => {
    const samples = [
      new Uint8Array(0),
      new Uint8Array([0]),
      new Uint8Array([0, 0, 1, 2, 255]),
      new Uint8Array(32).fill(255),
      ...Array.from({ length: 50 }, (_, k) => new Uint8Array(randomBytes(k % 2 === 0 ? 32 : 64))),
    ];
    for (const bytes of samples) expect(base58Encode(bytes)).toBe(bs58.encode(bytes));
  });
});
