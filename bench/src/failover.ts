/**
 * bench:cluster's failover probe: a game owned by one node (its host created it there) with a player
 * connected to the other node; the owner is SIGKILLed and the player times, from the kill, the first
 * bot move it sees (the game's next event, from whichever node took the game over) and its own first
 * acknowledged play. The killed node is started again before the next probe.
 */
import { matches } from '@memeslam/engine';
import type { BenchNode } from './cluster-nodes.ts';
import { type Player, load, newPlayer } from './load-players.ts';

export interface Failover {
  killed: string;
  /** ms from the SIGKILL to the first bot move the other node's player saw; null if none in 30 s. */
  firstEventMs: number | null;
  /** ms from the SIGKILL to the player's first acknowledged play; null if none in 30 s. */
  firstAckMs: number | null;
}

const GIVE_UP_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function firstBotMove(player: Player, since: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), GIVE_UP_MS);
    const onCard = (p: { playerId: string }) => {
      if (p.playerId.startsWith('bot')) done(performance.now() - since);
    };
    const done = (ms: number | null) => {
      clearTimeout(timer);
      player.socket.off('cardPlayed', onCard);
      resolve(ms);
    };
    player.socket.on('cardPlayed', onCard);
  });
}

/** Plays the first playable card (as the hand and piles it last saw) until a play is acknowledged. */
async function firstAckedPlay(player: Player, since: number): Promise<number | null> {
  while (performance.now() - since < GIVE_UP_MS) {
    let move: { cardId: string; pileIndex: number } | null = null;
    for (const card of player.hand) {
      const pileIndex = player.tops.findIndex((top) => top && matches(card, top));
      if (pileIndex >= 0) {
        move = { cardId: card.id, pileIndex };
        break;
      }
    }
    if (move) {
      const answer = (await player.socket
        .timeout(5000)
        .emitWithAck('playCard', move)
        .catch(() => null)) as { success: boolean } | null;
      if (answer?.success) return performance.now() - since;
    }
    await sleep(50);
  }
  return null;
}

/** One kill of `owner` with the watching player on `other`; `owner` is running again afterwards. */
export async function probeFailover(owner: BenchNode, other: BenchNode): Promise<Failover> {
  // With load.playing off, these players keep their hand and piles up to date but never play by themselves.
  if (load.playing) throw new Error('failover probes run once the load has stopped');
  const host = await newPlayer(undefined, { base: owner.url });
  const guest = await newPlayer(undefined, { base: other.url });
  const ask = async (player: Player, event: string, payload: object) => {
    const answer = (await player.socket.timeout(10_000).emitWithAck(event, payload)) as {
      success: boolean;
      error?: string;
      data?: { roomCode: string };
    };
    if (!answer.success) throw new Error(`${event}: ${answer.error}`);
    return answer;
  };
  try {
    const created = await ask(host, 'createGame', {
      maxPlayers: 4,
      withBots: true,
      numberOfBots: 2,
      botDifficulty: 'normal',
      gameSpeed: 'normal',
    });
    await ask(guest, 'joinGame', { roomCode: created.data?.roomCode });
    await ask(host, 'setPlayerReady', { isReady: true });
    await ask(guest, 'setPlayerReady', { isReady: true });
    await ask(host, 'startGame', {});
    // The game is under way (the bots move) before its owner dies.
    if ((await firstBotMove(guest, performance.now())) === null) throw new Error('no bot move in 30 s before the kill');
    const since = performance.now();
    const event = firstBotMove(guest, since);
    await owner.kill();
    const [firstAckMs, firstEventMs] = await Promise.all([firstAckedPlay(guest, since), event]);
    await guest.socket
      .timeout(2000)
      .emitWithAck('leaveGame', {})
      .catch(() => null);
    return { killed: owner.id, firstEventMs, firstAckMs };
  } finally {
    host.socket.disconnect();
    guest.socket.disconnect();
    await owner.start();
  }
}
