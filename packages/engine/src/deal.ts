import { type Card, UNIQUE_CARD_COUNT, cardSet } from './cards.ts';
import {
  BOT_DIFFICULTIES,
  CARDS_PER_PLAYER_OPTIONS,
  GAME_SPEEDS,
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  MIN_UNDEALT_CARDS,
  TIME_CAP_MS,
  pileCountFor,
} from './constants.ts';
import { Random, isValidSeed, seedRng } from './rng.ts';
import { MATCH_PACE_RANGE_MS, firstBotActionAt, seatProfile, validMatchPace } from './bot-profiles.ts';
import { Draft } from './draft.ts';
import { refreshDerived } from './rules.ts';
import type { GameConfig, GameState, PlayerState } from './types.ts';

/** Copies of the 180 faces needed so that every player gets their cards and MIN_UNDEALT_CARDS remain. */
export function copiesNeeded(players: number, cardsPerPlayer: number): number {
  return Math.ceil((players * cardsPerPlayer + MIN_UNDEALT_CARDS) / UNIQUE_CARD_COUNT);
}

/** Why a configuration cannot be dealt, or null when it can. */
export function configProblem(config: GameConfig): string | null {
  if (!isValidSeed(config.seed)) return 'seed must be 32 hex characters';
  if (config.seats.length < MIN_PLAYERS || config.seats.length > MAX_PLAYERS) {
    return `a game seats ${MIN_PLAYERS} to ${MAX_PLAYERS} players`;
  }
  if (new Set(config.seats.map((s) => s.id)).size !== config.seats.length) return 'player ids must be unique';
  if (config.seats.some((s) => s.bot !== null && !BOT_DIFFICULTIES.includes(s.bot))) return 'unknown bot difficulty';
  if (config.seats.some((s) => s.botPaceMs !== undefined && !(s.bot !== null && validMatchPace(s.botPaceMs)))) {
    return `botPaceMs must be a bot's, ${MATCH_PACE_RANGE_MS[0]} to ${MATCH_PACE_RANGE_MS[1]} ms`;
  }
  if (!(CARDS_PER_PLAYER_OPTIONS as readonly number[]).includes(config.cardsPerPlayer)) {
    return `cardsPerPlayer must be one of ${CARDS_PER_PLAYER_OPTIONS.join(', ')}`;
  }
  if (!GAME_SPEEDS.includes(config.speed)) return 'unknown game speed';
  if (!Number.isFinite(config.startAt)) return 'startAt must be a finite time';
  return null;
}

/**
 * Deals a new game from its seed: shuffled copies of the 180 cards, 3 face-up hand cards and a deck
 * per player, one face-up card per pile, the rest as the shared stock. Throws on a bad configuration
 * (the server validates lobby settings before it gets here).
 */
export function createGame(config: GameConfig): GameState {
  const problem = configProblem(config);
  if (problem) throw new RangeError(`Invalid game configuration: ${problem}`);

  const random = new Random(seedRng(config.seed));
  const copies = copiesNeeded(config.seats.length, config.cardsPerPlayer);
  const cards: Card[] = [];
  for (let copy = 0; copy < copies; copy += 1) cards.push(...cardSet(copy));
  random.shuffle(cards);

  let next = 0;
  const take = (n: number): Card[] => {
    const taken = cards.slice(next, next + n);
    next += n;
    return taken;
  };

  const players: PlayerState[] = config.seats.map((seat, index) => {
    const dealt = take(config.cardsPerPlayer);
    return {
      id: seat.id,
      username: seat.username,
      bot: seat.bot,
      seat: index,
      hand: dealt.slice(0, HAND_SIZE),
      deck: dealt.slice(HAND_SIZE),
      powerUpsUsed: [],
      frozenUntil: null,
      frozenBy: null,
      lastFrozenAt: null,
      cardsPlayed: 0,
      left: null,
      disconnectedAt: null,
      stuckSince: null,
      botPaceMs: seat.bot && seat.botPaceMs !== undefined ? seat.botPaceMs : null,
      nextBotActionAt: seat.bot
        ? firstBotActionAt(random, seatProfile(seat.bot, seat.botPaceMs), config.speed, config.startAt)
        : null,
    };
  });
  const piles = Array.from({ length: pileCountFor(players.length) }, () => take(1));
  const stock = cards.slice(next);

  const dealt: GameState = {
    config,
    status: 'active',
    clock: config.startAt,
    startedAt: config.startAt,
    endsAt: config.startAt + TIME_CAP_MS,
    rng: random.state,
    players,
    piles,
    stock,
    effects: [],
    deadlock: { resolveAt: null, consecutiveUnresolvable: 0, count: 0 },
    hadHumans: config.seats.some((s) => s.bot === null),
    result: null,
  };
  // A deal can already be a global deadlock; arm its resolution and the players' stuck times.
  const d = new Draft(dealt, config.startAt);
  refreshDerived(d);
  return d.commit();
}
