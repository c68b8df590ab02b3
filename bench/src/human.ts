/**
 * A human player for the simulator. It drives the engine's `apply()` with the commands a
 * person sends from the web client, at times drawn from the bench's own seeded PRNG:
 *
 * - time per play: log-normal around the model's median (sigma 0.45, draws kept within ±2.5 sigma);
 * - a reaction delay after the board changes before a new top card is "seen": a human waiting with
 *   no playable card notices the new top `reactionMs` (log-normal, sigma 0.3) after it lands, and
 *   a frozen human looks again that long after the thaw;
 * - a chance to overlook a playable card at each look (the next look comes a play's time later);
 * - power-ups as the web client lets a person use them (PowerUpBar, useGameControls): Bomb, Reversal
 *   and Whirlwind fire at once (Bomb on a pile the server picks), Freeze picks an opponent, Sniper
 *   picks a hand card and a pile. Using one costs the person `powerUpMs` of clicking.
 *
 * The three models of the issue: quick (1.4 s per play), casual (2.2 s), beginner (3.5 s); any other
 * median (`--human 2.8`) takes parameters interpolated by `humanModel`.
 */
import {
  type Card,
  type Command,
  type GameConfig,
  type GameEvent,
  type GameResult,
  type GameState,
  type PlayerState,
  type PowerUpType,
  Random,
  advance,
  apply,
  boardCoverage,
  cardsLeft,
  createGame,
  logNormal,
  matches,
  nextDeadline,
  seedRng,
} from '@memeslam/engine';

export interface HumanModel {
  /** Median time per play, ms. */
  readonly medianMs: number;
  readonly sigma: number;
  /** A person's form varies from game to game: the game's medians are scaled by a log-normal factor. */
  readonly formSigma: number;
  /** Median time before a new top card is seen, ms. */
  readonly reactionMs: number;
  /** Chance of overlooking a playable card at a look. */
  readonly overlook: number;
  /** How the person uses power-ups: 'good' aims them, 'loose' reaches for them when stuck, 'rare' seldom. */
  readonly powerUps: 'good' | 'loose' | 'rare';
  /** Stuck this long, the person reaches for Sniper, Bomb or Whirlwind. */
  readonly stuckPatienceMs: number;
  /** Clicking a power-up (and its target) takes this long. */
  readonly powerUpMs: number;
}

export const HUMAN_PRESETS = { quick: 1.4, casual: 2.2, beginner: 3.5 } as const;
export type HumanPreset = keyof typeof HUMAN_PRESETS;

/** A person whose median time per play is `seconds`; the rest scales with it. */
export function humanModel(seconds: number): HumanModel {
  const medianMs = Math.round(seconds * 1000);
  return {
    medianMs,
    sigma: 0.45,
    formSigma: 0.12,
    reactionMs: Math.round(medianMs * 0.35),
    overlook: Math.min(0.25, Math.max(0.02, 0.06 * (seconds - 0.9))),
    powerUps: seconds <= 1.8 ? 'good' : seconds <= 2.8 ? 'loose' : 'rare',
    stuckPatienceMs: Math.round(medianMs * 1.5),
    powerUpMs: Math.round(medianMs * 0.5),
  };
}

/** A seat of a simulated game: a bot difficulty, or `human:<median seconds>`. */
export function parseHumanSeat(seat: string): HumanModel | null {
  if (!seat.startsWith('human:')) return null;
  const seconds = Number(seat.slice(6));
  if (!Number.isFinite(seconds) || seconds < 0.5 || seconds > 10) throw new Error(`Bad human seat: ${seat}`);
  return humanModel(seconds);
}

interface Human {
  readonly index: number;
  readonly id: string;
  readonly model: HumanModel;
  nextAt: number;
}

export interface HumanGameOutcome {
  readonly state: GameState;
  readonly result: GameResult;
  readonly deadlocks: number;
  /** Every power-up a bot used against a player: when (ms after the start), by and on whom. */
  readonly botPowerUpsOnPlayers: { at: number; by: string; on: string; type: PowerUpType }[];
  /** Times (ms after the start) at which each player was frozen. */
  readonly freezes: { at: number; on: string }[];
  /** Each simulated person's card plays (game-clock times), as the server's log would hold them. */
  readonly playTimes: ReadonlyMap<string, number[]>;
}

/**
 * Plays one game with humans driven by their models and bots by the engine, with no real waiting:
 * the loop jumps from one deadline (the engine's or a human's next look) to the next.
 */
export function playWithHumans(
  config: GameConfig,
  models: ReadonlyMap<string, HumanModel>,
  seed: string,
): HumanGameOutcome {
  // The bench's own stream, apart from the engine's (a hashed variant of the game's seed).
  const random = new Random(seedRng(`${seed}:human`));
  let state = createGame(config);
  const start = config.startAt;
  const humans: Human[] = state.players
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => models.has(p.id))
    .map(({ p, index }) => {
      const usual = models.get(p.id) as HumanModel;
      const form = logNormal(random, 1, usual.formSigma);
      const model = { ...usual, medianMs: usual.medianMs * form, reactionMs: usual.reactionMs * form };
      // The first look: the board must be seen, then a card picked.
      return {
        index,
        id: p.id,
        model,
        nextAt: start + draw(random, model.reactionMs, 0.3) + draw(random, model.medianMs, model.sigma),
      };
    });
  const botPowerUpsOnPlayers: HumanGameOutcome['botPowerUpsOnPlayers'] = [];
  const freezes: HumanGameOutcome['freezes'] = [];
  const playTimes = new Map<string, number[]>(humans.map((h) => [h.id, []]));

  const observe = (before: GameState, after: GameState, events: readonly GameEvent[], at: number): void => {
    for (const e of events) {
      if (e.type === 'powerUpUsed' && after.players.find((p) => p.id === e.playerId)?.bot) {
        const effect = e.effect;
        const on =
          effect.powerUpType === 'FREEZE' ? effect.targetPlayer : effect.powerUpType === 'REVERSAL' ? 'all' : null;
        if (on !== null) botPowerUpsOnPlayers.push({ at: at - start, by: e.playerId, on, type: effect.powerUpType });
      }
      if (e.type === 'playerFrozen') freezes.push({ at: at - start, on: e.playerId });
    }
    for (const h of humans) {
      const was = before.players[h.index] as PlayerState;
      const now = after.players[h.index] as PlayerState;
      // A waiting human sees a new top card that makes a hand card playable after their reaction time.
      if (was.stuckSince !== null && now.stuckSince === null && now.frozenUntil === null) {
        h.nextAt = Math.min(h.nextAt, at + draw(random, h.model.reactionMs, 0.3));
      }
      if (now.frozenUntil !== null && now.frozenUntil > at && now.frozenUntil !== was.frozenUntil) {
        h.nextAt = Math.max(h.nextAt, now.frozenUntil + draw(random, h.model.reactionMs, 0.3));
      }
    }
  };

  for (;;) {
    if (state.status !== 'active') break;
    const engineDue = nextDeadline(state) ?? Infinity;
    const human = humans.reduce<Human | null>((a, h) => (a === null || h.nextAt < a.nextAt ? h : a), null);
    const humanDue = human?.nextAt ?? Infinity;
    if (engineDue <= humanDue) {
      const before = state;
      const stepped = advance(state, engineDue);
      state = stepped.state;
      observe(before, state, stepped.events, engineDue);
      continue;
    }
    const h = human as Human;
    const at = humanDue;
    const before = state;
    const advanced = advance(state, at);
    state = advanced.state;
    observe(before, state, advanced.events, at);
    if (state.status !== 'active') break;
    const { command, busyMs } = humanLook(state, h, random, at - start);
    h.nextAt = at + busyMs;
    if (command) {
      const applied = apply(state, command, at);
      if (applied.ok) {
        if (command.type === 'playCard') playTimes.get(h.id)?.push(at);
        const prior = state;
        state = applied.state;
        observe(prior, state, applied.events, at);
      }
    }
  }
  return {
    state,
    result: state.result as GameResult,
    deadlocks: state.deadlock.count,
    botPowerUpsOnPlayers,
    freezes,
    playTimes,
  };
}

function draw(random: Random, median: number, sigma: number): number {
  return Math.round(logNormal(random, median, sigma));
}

/** What the person does at a look, and how long until their next look. */
export function humanLook(
  state: GameState,
  h: { readonly index: number; readonly id: string; readonly model: HumanModel },
  random: Random,
  elapsedMs: number,
): { command: Command | null; busyMs: number } {
  const me = state.players[h.index] as PlayerState;
  const model = h.model;
  const pace = draw(random, model.medianMs, model.sigma);
  if (me.frozenUntil !== null && me.frozenUntil > state.clock) {
    return { command: null, busyMs: me.frozenUntil - state.clock + draw(random, model.reactionMs, 0.3) };
  }
  const tops = state.piles.map((pile) => pile[pile.length - 1] as Card);
  const moves: { card: Card; pileIndex: number }[] = [];
  for (const card of me.hand) tops.forEach((top, pileIndex) => matches(card, top) && moves.push({ card, pileIndex }));
  const powerUp = humanPowerUp(state, me, model, random, moves.length > 0, elapsedMs);
  if (powerUp) return { command: powerUp, busyMs: model.powerUpMs + pace };
  if (moves.length === 0 || random.float() < model.overlook) return { command: null, busyMs: pace };
  const move = moves[random.int(moves.length)] as (typeof moves)[number];
  return {
    command: { type: 'playCard', playerId: me.id, cardId: move.card.id, pileIndex: move.pileIndex },
    busyMs: pace,
  };
}

function humanPowerUp(
  state: GameState,
  me: PlayerState,
  model: HumanModel,
  random: Random,
  canPlay: boolean,
  elapsedMs: number,
): Command | null {
  const left = (['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'] as const).filter(
    (t) => !me.powerUpsUsed.includes(t),
  );
  if (left.length === 0) return null;
  if (model.powerUps === 'rare' && random.float() >= 0.3) return null;
  const opponents = state.players.filter((p) => p.id !== me.id && p.left === null);
  const leader = opponents.reduce<PlayerState | null>(
    (a, p) => (a === null || cardsLeft(p) < cardsLeft(a) ? p : a),
    null,
  );
  if (!leader) return null;
  const mine = cardsLeft(me);
  const theirs = cardsLeft(leader);
  const base = { type: 'usePowerUp' as const, playerId: me.id };
  // A person sees the opponents' card counts: reverse or freeze the one about to win.
  if (left.includes('REVERSAL') && theirs <= (model.powerUps === 'good' ? 6 : 4) && theirs < mine) {
    return { ...base, powerUpType: 'REVERSAL' };
  }
  const frozen = leader.frozenUntil !== null && leader.frozenUntil > state.clock;
  const freezeAt = model.powerUps === 'good' ? 12 : model.powerUps === 'loose' ? 20 : 8;
  if (left.includes('FREEZE') && !frozen && theirs <= freezeAt && theirs <= mine && elapsedMs > 5000) {
    return { ...base, powerUpType: 'FREEZE', targetPlayerId: leader.id };
  }
  if (canPlay || me.stuckSince === null || state.clock - me.stuckSince < model.stuckPatienceMs) return null;
  if (left.includes('SNIPER') && me.hand.length > 0) {
    const tops = state.piles.map((pile) => pile[pile.length - 1] as Card);
    if (model.powerUps === 'good') {
      // Aimed: the card and pile that leave the rest of the hand most playable.
      let best: { cardId: string; pileIndex: number; score: number } | null = null;
      for (const card of me.hand) {
        for (let pileIndex = 0; pileIndex < tops.length; pileIndex += 1) {
          const after = tops.slice();
          after[pileIndex] = card;
          const rest = me.hand.filter((c) => c.id !== card.id);
          const score = rest.filter((c) => after.some((t) => matches(c, t))).length * 1000 - boardCoverage(after);
          if (!best || score > best.score) best = { cardId: card.id, pileIndex, score };
        }
      }
      const chosen = best as { cardId: string; pileIndex: number };
      return { ...base, powerUpType: 'SNIPER', cardId: chosen.cardId, pileIndex: chosen.pileIndex };
    }
    const card = me.hand[random.int(me.hand.length)] as Card;
    return { ...base, powerUpType: 'SNIPER', cardId: card.id, pileIndex: random.int(tops.length) };
  }
  if (left.includes('BOMB') && me.deck.length > 0) return { ...base, powerUpType: 'BOMB' };
  if (left.includes('WHIRLWIND')) return { ...base, powerUpType: 'WHIRLWIND' };
  return null;
}
