import type { Card } from './cards.ts';
import { Random } from './rng.ts';
import type { DeadlockState, FreezeEffect, GameEvent, GameResult, GameState, PlayerState } from './types.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A player's own copy whose fields may change; its cards are still shared (see Draft.cards). */
export type PlayerFields = Mutable<PlayerState>;

/** Hand and deck are the draft's own arrays; the used power-ups are replaced, never changed in place. */
export type MutablePlayer = Omit<PlayerFields, 'hand' | 'deck'> & {
  hand: Card[];
  deck: Card[];
};

/**
 * A copy-on-write working copy of a GameState. Rules mutate the draft; only the parts they touch are
 * copied, so the state passed in is never changed and unchanged parts are shared with the result.
 *
 * What the result holds lives until the game's next step, long enough on a busy server to be
 * promoted to the old generation, and every byte promoted brings the next full collection nearer
 * So `commit` hands back the base's own parts wherever the draft's equal them (the
 * players and piles lists, the deadlock record, the random state), and a card goes on a pile as a
 * copy one card longer rather than a copy that `push` then grows with room to spare.
 */
export class Draft {
  readonly base: GameState;
  readonly random: Random;
  readonly events: GameEvent[] = [];
  status: GameState['status'];
  clock: number;
  effects: FreezeEffect[] | null = null;
  deadlock: Mutable<DeadlockState>;
  result: GameResult | null;

  readonly #players: (PlayerState | PlayerFields | MutablePlayer)[];
  /** Bit i set: player i / player i's cards / pile i is already this draft's own copy. */
  #playersCopied = 0;
  #cardsCopied = 0;
  readonly #piles: (readonly Card[])[];
  #pilesCopied = 0;
  #stock: readonly Card[];
  #stockCopied = false;

  constructor(base: GameState, now: number) {
    this.base = base;
    this.random = new Random(base.rng);
    this.status = base.status;
    this.clock = Math.max(now, base.clock);
    this.deadlock = { ...base.deadlock };
    this.result = base.result;
    this.#players = base.players.slice();
    this.#piles = base.piles.slice();
    this.#stock = base.stock;
  }

  get playerCount(): number {
    return this.#players.length;
  }

  get pileCount(): number {
    return this.#piles.length;
  }

  /** Read-only access. */
  peek(i: number): PlayerState {
    return this.#players[i] as PlayerState;
  }

  allPlayers(): readonly PlayerState[] {
    return this.#players;
  }

  /**
   * Writable access to a player's fields; copies the player on first write. Their hand, deck and
   * power-ups stay shared with the state the draft started from (most steps only move a timestamp).
   */
  player(i: number): PlayerFields {
    if ((this.#playersCopied & (1 << i)) === 0) {
      this.#players[i] = { ...(this.#players[i] as PlayerState) };
      this.#playersCopied |= 1 << i;
    }
    return this.#players[i] as PlayerFields;
  }

  /** Writable access to a player and their cards: also copies their hand and deck on first write. */
  cards(i: number): MutablePlayer {
    const p = this.player(i);
    if ((this.#cardsCopied & (1 << i)) === 0) {
      p.hand = p.hand.slice();
      p.deck = p.deck.slice();
      this.#cardsCopied |= 1 << i;
    }
    return p as MutablePlayer;
  }

  indexOf(playerId: string): number {
    return this.#players.findIndex((p) => p.id === playerId);
  }

  pileView(i: number): readonly Card[] {
    return this.#piles[i] as readonly Card[];
  }

  top(i: number): Card | undefined {
    const pile = this.#piles[i] as readonly Card[];
    return pile[pile.length - 1];
  }

  /** Each pile's top by pile index (undefined for an empty pile). */
  pileTops(): (Card | undefined)[] {
    return this.#piles.map((pile) => pile[pile.length - 1]);
  }

  tops(): Card[] {
    const tops: Card[] = [];
    for (const pile of this.#piles) {
      const top = pile[pile.length - 1];
      if (top) tops.push(top);
    }
    return tops;
  }

  /** Puts `card` on pile i: the first write to it makes a copy exactly one card longer. */
  pushOnPile(i: number, card: Card): void {
    if ((this.#pilesCopied & (1 << i)) !== 0) {
      (this.#piles[i] as Card[]).push(card);
      return;
    }
    const pile = this.#piles[i] as readonly Card[];
    const copy = new Array<Card>(pile.length + 1);
    for (let k = 0; k < pile.length; k += 1) copy[k] = pile[k] as Card;
    copy[pile.length] = card;
    this.#piles[i] = copy;
    this.#pilesCopied |= 1 << i;
  }

  pile(i: number): Card[] {
    if ((this.#pilesCopied & (1 << i)) === 0) {
      this.#piles[i] = (this.#piles[i] as readonly Card[]).slice();
      this.#pilesCopied |= 1 << i;
    }
    return this.#piles[i] as Card[];
  }

  get stockView(): readonly Card[] {
    return this.#stock;
  }

  stock(): Card[] {
    if (!this.#stockCopied) {
      this.#stock = this.#stock.slice();
      this.#stockCopied = true;
    }
    return this.#stock as Card[];
  }

  effectList(): FreezeEffect[] {
    this.effects ??= this.base.effects.slice();
    return this.effects;
  }

  emit(event: GameEvent): void {
    this.events.push(event);
  }

  commit(): GameState {
    const { base, deadlock } = this;
    const sameDeadlock =
      deadlock.resolveAt === base.deadlock.resolveAt &&
      deadlock.consecutiveUnresolvable === base.deadlock.consecutiveUnresolvable &&
      deadlock.count === base.deadlock.count;
    return {
      config: base.config,
      status: this.status,
      clock: this.clock,
      startedAt: base.startedAt,
      endsAt: base.endsAt,
      rng: this.random.isAt(base.rng) ? base.rng : this.random.state,
      players: this.#playersCopied === 0 ? base.players : (this.#players as PlayerState[]),
      piles: this.#pilesCopied === 0 ? base.piles : this.#piles,
      stock: this.#stock,
      effects: this.effects ?? base.effects,
      deadlock: sameDeadlock ? base.deadlock : deadlock,
      hadHumans: base.hadHumans,
      result: this.result,
    };
  }
}
