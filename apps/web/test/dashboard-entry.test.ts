/**
 * The dashboard game list's entry rules (who is a member, what each entry offers): exactly one action per entry, the Your Game / You're In badge, and the status badge.
 * Expected values are the product's words, written out here rather than read from the code.
 */
import type { Game } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { entryAction, isMember, memberBadge, pathToGame, statusBadge } from '../src/dashboard/entry.ts';

const ME = { id: 'u-me', username: 'alice' };
const HOST = { userId: 'u-host', username: 'bob' };

type Status = Game['status'];
type Membership = 'host' | 'player' | 'none';

function seat(userId: string, username: string, isBot: boolean, position: number): Game['players'][number] {
  return {
    userId,
    username,
    isBot,
    botDifficulty: isBot ? 'normal' : null,
    isReady: false,
    position,
    cardsLeft: 30,
    powerUps: { available: [], used: [] },
    powerUpsUsed: [],
    isHost: position === 0,
  };
}

function game(opts: {
  status: Status;
  membership?: Membership;
  isOpen?: boolean;
  playersCount?: number;
  maxPlayers?: number;
  isBotGame?: boolean;
  hostById?: boolean;
}): Game {
  const membership = opts.membership ?? 'none';
  const host = membership === 'host' ? { userId: ME.id, username: ME.username } : HOST;
  const players = [seat(host.userId, host.username, false, 0), seat('bot-1', 'Robo', true, 1)];
  if (membership === 'player') players.push(seat(ME.id, ME.username, false, 2));
  return {
    gameId: 'g-1',
    roomCode: 'ABC123',
    host: opts.hostById === false ? { username: host.username } : host,
    status: opts.status,
    players,
    playersCount: opts.playersCount ?? players.length,
    maxPlayers: opts.maxPlayers ?? 4,
    isOpen: opts.isOpen ?? opts.status === 'waiting',
    isBotGame: opts.isBotGame ?? false,
    botSettings: null,
    botInfo: null,
    gameSettings: { cardsPerPlayer: 30, gameSpeed: 'normal', allowSpectators: true },
    createdAt: '2024-01-01T00:00:00.000Z',
    gameState: null,
  };
}

describe('entry action: exactly one per entry of the game list', () => {
  const cases: {
    name: string;
    g: Parameters<typeof game>[0];
    label: 'Resume Game' | 'Enter Lobby' | 'Join Game' | 'Join Bot Game' | 'Game Full';
  }[] = [
    // Resume Game: game is active and user is a member.
    { name: 'active, host', g: { status: 'active', membership: 'host' }, label: 'Resume Game' },
    { name: 'active, player', g: { status: 'active', membership: 'player' }, label: 'Resume Game' },
    {
      name: 'active bot game, player',
      g: { status: 'active', membership: 'player', isBotGame: true },
      label: 'Resume Game',
    },
    // Enter Lobby: game is waiting and user is a member.
    { name: 'waiting, host', g: { status: 'waiting', membership: 'host' }, label: 'Enter Lobby' },
    { name: 'waiting, player', g: { status: 'waiting', membership: 'player' }, label: 'Enter Lobby' },
    {
      name: 'waiting and full, player',
      g: { status: 'waiting', membership: 'player', playersCount: 4, maxPlayers: 4, isOpen: false },
      label: 'Enter Lobby',
    },
    // Join Game / Join Bot Game: game is open and the user is not a member.
    { name: 'open, not a member', g: { status: 'waiting', isOpen: true }, label: 'Join Game' },
    {
      name: 'open bot game, not a member',
      g: { status: 'waiting', isOpen: true, isBotGame: true },
      label: 'Join Bot Game',
    },
    // Game Full: otherwise.
    { name: 'closed, not a member', g: { status: 'waiting', isOpen: false }, label: 'Game Full' },
    {
      name: 'full (seats taken), not a member',
      g: { status: 'waiting', isOpen: true, playersCount: 4, maxPlayers: 4 },
      label: 'Game Full',
    },
    {
      name: 'full bot game, not a member',
      g: { status: 'waiting', isOpen: true, isBotGame: true, playersCount: 2, maxPlayers: 2 },
      label: 'Game Full',
    },
    { name: 'active, not a member', g: { status: 'active' }, label: 'Game Full' },
    { name: 'active and flagged open, not a member', g: { status: 'active', isOpen: true }, label: 'Game Full' },
    { name: 'starting, not a member', g: { status: 'starting' }, label: 'Game Full' },
    { name: 'finished, not a member', g: { status: 'finished' }, label: 'Game Full' },
    { name: 'finished, member', g: { status: 'finished', membership: 'player' }, label: 'Game Full' },
  ];

  it.each(cases)('$name → $label', ({ g, label }) => {
    expect(entryAction(game(g), ME).label).toBe(label);
  });

  it('a member of a starting game goes to the lobby (which follows it to the table), not "Game Full"', () => {
    // Not in the entry rules (they say waiting/active); ours: the waiting room carries on into the countdown.
    expect(entryAction(game({ status: 'starting', membership: 'player' }), ME).label).toBe('Enter Lobby');
    expect(entryAction(game({ status: 'starting', membership: 'host' }), ME).label).toBe('Enter Lobby');
  });

  it('kinds match labels', () => {
    expect(entryAction(game({ status: 'active', membership: 'host' }), ME).kind).toBe('resume');
    expect(entryAction(game({ status: 'waiting', membership: 'host' }), ME).kind).toBe('lobby');
    expect(entryAction(game({ status: 'waiting' }), ME).kind).toBe('join');
    expect(entryAction(game({ status: 'active' }), ME).kind).toBe('full');
  });
});

describe('membership (the host or anyone in the players list)', () => {
  it('the host is a member, by id where the server gives one', () => {
    expect(isMember(game({ status: 'waiting', membership: 'host' }), ME)).toBe(true);
  });

  it('the host is named by username on the dashboard when no id is given', () => {
    const g = game({ status: 'waiting', membership: 'host', hostById: false });
    expect(isMember(g, ME)).toBe(true);
    expect(memberBadge(g, ME)).toBe('Your Game');
    // Another account is not the host.
    expect(isMember(g, { id: 'u-other', username: 'carol' })).toBe(false);
  });

  it('a seated player is a member; a stranger is not', () => {
    expect(isMember(game({ status: 'waiting', membership: 'player' }), ME)).toBe(true);
    expect(isMember(game({ status: 'waiting' }), ME)).toBe(false);
  });

  it('a bot seat that happens to carry the user id does not make the user a member', () => {
    const g = game({ status: 'waiting' });
    const withBot = { ...g, players: [...g.players, seat(ME.id, 'Robo2', true, 3)] };
    expect(isMember(withBot, ME)).toBe(false);
  });
});

describe("Your Game / You're In badge", () => {
  it.each([
    ['host', 'Your Game'],
    ['player', "You're In"],
    ['none', null],
  ] as const)('%s → %s', (membership, badge) => {
    for (const status of ['waiting', 'starting', 'active'] as const) {
      expect(memberBadge(game({ status, membership }), ME)).toBe(badge);
    }
  });
});

describe('status badge: In Game, Open or Full', () => {
  it.each([
    [{ status: 'active' }, 'In Game'],
    [{ status: 'active', membership: 'host' }, 'In Game'],
    [{ status: 'starting' }, 'In Game'],
    [{ status: 'waiting', isOpen: true, playersCount: 2, maxPlayers: 4 }, 'Open'],
    [{ status: 'waiting', isOpen: true, playersCount: 4, maxPlayers: 4 }, 'Full'],
    [{ status: 'waiting', isOpen: false, playersCount: 2, maxPlayers: 4 }, 'Full'],
    [{ status: 'finished', isOpen: false }, 'Full'],
  ] as const)('%o → %s', (g, badge) => {
    expect(statusBadge(game(g))).toBe(badge);
  });

  it('the badge does not depend on who is looking', () => {
    for (const membership of ['host', 'player', 'none'] as const) {
      expect(statusBadge(game({ status: 'waiting', membership }))).toBe('Open');
    }
  });

  it('every "Join" entry is Open and every "Resume Game" entry is In Game', () => {
    for (const status of ['waiting', 'starting', 'active', 'finished'] as const) {
      for (const membership of ['host', 'player', 'none'] as const) {
        for (const isOpen of [true, false]) {
          for (const playersCount of [2, 4]) {
            const g = game({ status, membership, isOpen, playersCount, maxPlayers: 4 });
            const action = entryAction(g, ME);
            if (action.kind === 'join') expect(statusBadge(g)).toBe('Open');
            if (action.kind === 'resume') expect(statusBadge(g)).toBe('In Game');
          }
        }
      }
    }
  });
});

describe('where a member goes back in (its route, by the entry rules)', () => {
  it('waiting → /lobby/{roomCode}; active → /game/{gameId}; finished → nowhere', () => {
    expect(pathToGame(game({ status: 'waiting' }))).toBe('/lobby/ABC123');
    expect(pathToGame(game({ status: 'active' }))).toBe('/game/g-1');
    expect(pathToGame(game({ status: 'finished' }))).toBeNull();
  });
});
