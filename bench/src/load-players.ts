/**
 * The load of bench:server: players as socket.io clients at human pace (or as fast as acks come back),
 * two to a table with two normal bots, a new game dealt as soon as one ends. `load` holds what the
 * measuring side sets and reads: the server's address, the pace, whether a mode is playing, and the
 * figures of the window.
 */
import { type Card, matches } from '@memeslam/engine';
import { ADMISSION_RETRY_MS } from '@memeslam/protocol';
import { type Socket, io } from 'socket.io-client';

export const load = {
  base: '',
  pace: 'human' as 'human' | 'max',
  playing: true,
  /** Round trips of acknowledged plays, in the measured window. */
  ackMs: [] as number[],
  /** bench:server --gc: each acknowledged play's start (performance.now()) and round trip, when kept. */
  ackTimes: null as [number, number][] | null,
  /** Plays the server did not acknowledge within 10 s, in the measured window. */
  unanswered: 0,
  /** Replacement games the server did not seat within 30 s, so far. */
  failedDeals: 0,
  /** Socket.io packets (events and acks) the players received, and their bytes, in the measured window. */
  received: { packets: 0, bytes: 0 },
  /**
   * Game starts refused by admission control (NO_HEADROOM) in the measured window: each refusal's
   * round trip, and refusals with another code. A refused table asks again after ADMISSION_RETRY_MS.
   */
  refusals: [] as number[],
  otherRefusals: 0,
};

const DEAL_TIMEOUT_MS = 30_000;
const POWER_UPS = ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => 2000 * (0.5 + Math.random());

export class Player {
  readonly socket: Socket;
  hand: Card[] = [];
  tops: (Card | undefined)[] = [];
  powerUps: string[] = [...POWER_UPS];
  active = false;
  /** Where this player's round trips go (bench:cluster keeps forwarded and direct plays apart). */
  acks: number[] = load.ackMs;
  #timer: NodeJS.Timeout | null = null;
  onEnded: () => void = () => {};

  constructor(socket: Socket) {
    this.socket = socket;
    const readTops = (p: { gameState?: { discardPiles: Card[][] } }) => {
      if (p.gameState) this.tops = p.gameState.discardPiles.map((pile) => pile.at(-1));
    };
    socket.on('handDealt', (p: { hand: Card[] }) => (this.hand = p.hand));
    socket.on('handUpdated', (p: { hand: Card[] }) => (this.hand = p.hand));
    for (const event of ['cardPlayed', 'powerUpUsed', 'deadlockResolved']) socket.on(event, readTops);
    socket.on('gameStarted', (p: { gameState: { discardPiles: Card[][] } }) => {
      readTops(p);
      this.active = true;
      this.powerUps = [...POWER_UPS];
      this.#schedule();
    });
    socket.on('gameEnded', () => {
      this.#stop();
      this.onEnded();
    });
    // A mode's players end with its server: none of them plays on (and times out) in the next mode.
    socket.on('disconnect', () => this.#stop());
  }

  #stop(): void {
    this.active = false;
    if (this.#timer) clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (!load.playing || !this.active) return;
    this.#timer = setTimeout(() => void this.#act(), load.pace === 'max' ? 0 : jitter());
  }

  async #act(): Promise<void> {
    if (!this.active || !load.playing) return;
    const start = performance.now();
    let move: { cardId: string; pileIndex: number } | null = null;
    for (const card of this.hand) {
      const pileIndex = this.tops.findIndex((top) => top && matches(card, top));
      if (pileIndex >= 0) {
        move = { cardId: card.id, pileIndex };
        break;
      }
    }
    if (move) {
      const answered = await this.socket
        .timeout(10_000)
        .emitWithAck('playCard', move)
        .then(() => true)
        .catch(() => false);
      // A play cut off by the end of a mode is not the server's; one unanswered for 10 s while load.playing is.
      if (answered) {
        const ms = performance.now() - start;
        this.acks.push(ms);
        load.ackTimes?.push([start, ms]);
      } else if (load.playing && this.socket.connected) load.unanswered += 1;
    } else if (this.powerUps.length > 0 && Math.random() < 0.3) {
      const type = this.powerUps.shift() as string;
      const target =
        type === 'SNIPER' && this.hand[0]
          ? { cardId: this.hand[0].id, pileIndex: 0 }
          : type === 'FREEZE'
            ? { targetPlayerId: 'bot-1' }
            : {};
      await this.socket
        .timeout(10_000)
        .emitWithAck('usePowerUp', { powerUpType: type, ...target })
        .catch(() => null);
    } else if (load.pace === 'max') {
      await sleep(100);
    }
    this.#schedule();
  }
}

/** A new demo session. A loaded server may answer 503 "Server busy": asked again after a while. */
export async function demoToken(base = load.base): Promise<string> {
  const deadline = Date.now() + DEAL_TIMEOUT_MS;
  for (let wait = 100; ; wait = Math.min(2000, wait * 2)) {
    const answer = await fetch(`${base}/api/auth/demo`, { method: 'POST' });
    if (answer.ok) return ((await answer.json()) as { data: { token: string } }).data.token;
    if (answer.status !== 503 || Date.now() > deadline) {
      throw new Error(`demo session: ${answer.status} ${await answer.text()}`);
    }
    await sleep(wait);
  }
}

/**
 * A signed-in player connected to `via.base` (default load.base), its connection leaving from
 * `via.from` (another loopback address: nginx's client-IP hash then picks its node).
 */
export async function newPlayer(token?: string, via: { base?: string; from?: string } = {}): Promise<Player> {
  const base = via.base ?? load.base;
  const socket = io(base, {
    auth: { token: token ?? (await demoToken(base)) },
    transports: ['websocket'],
    reconnection: false,
    // engine.io-client hands this on to ws (untyped in its options).
    ...(via.from ? ({ localAddress: via.from } as object) : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
    if (packet.type !== 'message' || typeof packet.data !== 'string') return;
    load.received.packets += 1;
    load.received.bytes += packet.data.length;
  });
  return new Player(socket);
}

/** Two people and two normal bots; a new game as soon as one ends. */
export class Table {
  readonly host: Player;
  readonly guest: Player;
  games = 0;

  constructor(host: Player, guest: Player) {
    this.host = host;
    this.guest = guest;
    host.onEnded = () =>
      setTimeout(() => {
        // Shutting down disconnects the sockets under a deal in progress: that is not a failure. A
        // saturated server's timeout is counted; the table then sits out.
        this.deal().catch(() => {
          if (load.playing) load.failedDeals += 1;
        });
      }, 500);
  }

  async deal(): Promise<void> {
    if (!load.playing) return;
    // A server that cannot answer within 30 s is saturated: the step is reported as not sustained.
    // Refused for want of headroom (docs/capacity.md), the table waits in line as the web app does.
    let created;
    for (;;) {
      const asked = performance.now();
      created = await this.host.socket.timeout(DEAL_TIMEOUT_MS).emitWithAck('createGame', {
        maxPlayers: 4,
        withBots: true,
        numberOfBots: 2,
        botDifficulty: 'normal',
        gameSpeed: 'normal',
      });
      if (created.success || created.code !== 'NO_HEADROOM' || !load.playing) break;
      load.refusals.push(performance.now() - asked);
      await sleep(ADMISSION_RETRY_MS);
    }
    if (!created.success) {
      if (load.playing) load.otherRefusals += 1;
      throw new Error(`createGame: ${created.error}`);
    }
    await this.guest.socket.timeout(DEAL_TIMEOUT_MS).emitWithAck('joinGame', { roomCode: created.data.roomCode });
    await this.host.socket.timeout(DEAL_TIMEOUT_MS).emitWithAck('setPlayerReady', { isReady: true });
    await this.guest.socket.timeout(DEAL_TIMEOUT_MS).emitWithAck('setPlayerReady', { isReady: true });
    await this.host.socket.timeout(DEAL_TIMEOUT_MS).emitWithAck('startGame', {});
    this.games += 1;
  }
}
