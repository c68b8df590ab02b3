/**
 * Scenario notation, so that a rule and its test read side by side.
 *
 * A card is written <color><number><logo>, e.g. "R3Pe" = Red 3 Pepe, "Pu5Wi" = Purple 5 Wif:
 *   color   R Red · B Blue · G Green · Y Yellow · O Orange · Pu Purple
 *   number  1–5 (the digit separates color from logo, so "B5Bo" = Blue 5 Bonk reads one way only)
 *   logo    Bo Bonk · Pe Pepe · So Solana · Pc Popcat · Pk Ponke · Wi Wif
 *
 * A list of cards is space separated and written in the engine's storage order:
 *   a pile   bottom first, its top last          'G2Wi B5Bo'   (top: Blue 5 Bonk)
 *   a deck   its top first                        'Y4So R1Bo'   (Yellow 4 Solana is drawn next)
 *   stock    the next card to flip last           'O1Pk Y2Pe'   (Yellow 2 Pepe is flipped first)
 *
 * Card ids are the notation itself ("R3Pe"), so a command can name a card as written; a face used again
 * gets "R3Pe.2", "R3Pe.3", … (counted piles first, then each player's hand and deck, then the stock).
 *
 * Players are "p1", "p2", … in seat order unless given an id. Bots stay idle (nextBotActionAt null)
 * unless `botAt` says when they act first, so human-only and idle-bot scenarios are static.
 */
import { type Card, type CardColor, type CardLogo, type CardNumber, formatCard } from '../src/cards.ts';
import type { BotDifficulty, GameSpeed, PowerUpType } from '../src/constants.ts';
import { createGame } from '../src/deal.ts';
import { Draft } from '../src/draft.ts';
import { refreshDerived } from '../src/rules.ts';
import { seedRng } from '../src/rng.ts';
import type { ApplyResult, GameConfig, GameState, PlayerState } from '../src/types.ts';

const COLORS: Record<string, CardColor> = { R: 'Red', B: 'Blue', G: 'Green', Y: 'Yellow', O: 'Orange', Pu: 'Purple' };
const LOGOS: Record<string, CardLogo> = { Bo: 'Bonk', Pe: 'Pepe', So: 'Solana', Pc: 'Popcat', Pk: 'Ponke', Wi: 'Wif' };
const CARD_PATTERN = /^(R|B|G|Y|O|Pu)([1-5])(Bo|Pe|So|Pc|Pk|Wi)$/;

export const SCENARIO_SEED = '0123456789abcdef0123456789abcdef';

/** One card; its id is the notation unless given. */
export function card(text: string, id: string = text): Card {
  const m = CARD_PATTERN.exec(text);
  if (!m) throw new Error(`Bad card notation "${text}"`);
  const [, color, number, logo] = m as unknown as [string, string, string, string];
  return { id, color: COLORS[color] as CardColor, number: Number(number) as CardNumber, logo: LOGOS[logo] as CardLogo };
}

/** A space-separated list of cards (ids as written; no de-duplication). */
export function cards(text: string): Card[] {
  return text
    .split(/\s+/)
    .filter((t) => t !== '')
    .map((t) => card(t));
}

/** The notation of a card or a list of cards, for readable assertions: faces(hand) === 'R1Bo G2Wi'. */
export function faces(list: Card | readonly Card[]): string {
  const notation = (c: Card): string => {
    const color = Object.keys(COLORS).find((k) => COLORS[k] === c.color) as string;
    const logo = Object.keys(LOGOS).find((k) => LOGOS[k] === c.logo) as string;
    return `${color}${c.number}${logo}`;
  };
  return Array.isArray(list) ? list.map(notation).join(' ') : notation(list as Card);
}

/** "Red 3 Pepe" for a notation (the engine's wording in messages). */
export function named(text: string): string {
  return formatCard(card(text));
}

export interface PlayerSpec {
  readonly id?: string;
  readonly hand: string;
  readonly deck?: string;
  readonly bot?: BotDifficulty;
  /** Bots only: when the bot acts first. Default: never (an idle bot). */
  readonly botAt?: number;
  readonly cardsPlayed?: number;
  readonly powerUpsUsed?: readonly PowerUpType[];
}

export interface ScenarioSpec {
  readonly piles: readonly string[];
  readonly players: readonly PlayerSpec[];
  readonly stock?: string;
  readonly speed?: GameSpeed;
  /** Game-clock time at which the game starts and the scenario stands (default 0). */
  readonly now?: number;
}

/**
 * A valid active GameState holding exactly the given cards: dealt by createGame with a fixed seed, then
 * piles, hands, decks and stock replaced; stuck times and a global deadlock are derived as at a deal.
 */
export function scenario(spec: ScenarioSpec): GameState {
  const now = spec.now ?? 0;
  const speed = spec.speed ?? 'normal';
  const seen = new Map<string, number>();
  const parse = (text: string | undefined): Card[] =>
    (text ?? '')
      .split(/\s+/)
      .filter((t) => t !== '')
      .map((t) => {
        const n = (seen.get(t) ?? 0) + 1;
        seen.set(t, n);
        return card(t, n === 1 ? t : `${t}.${n}`);
      });

  const base = createGame({
    seed: SCENARIO_SEED,
    seats: spec.players.map((p, i) => ({ id: p.id ?? `p${i + 1}`, username: `P${i + 1}`, bot: p.bot ?? null })),
    cardsPerPlayer: 20,
    speed,
    startAt: now,
  });
  const piles = spec.piles.map((pile) => parse(pile));
  const players: PlayerState[] = base.players.map((p, i) => {
    const s = spec.players[i] as PlayerSpec;
    return {
      ...p,
      hand: parse(s.hand),
      deck: parse(s.deck),
      cardsPlayed: s.cardsPlayed ?? 0,
      powerUpsUsed: [...(s.powerUpsUsed ?? [])],
      stuckSince: null,
      nextBotActionAt: s.bot && s.botAt !== undefined ? s.botAt : null,
    };
  });
  const stock = parse(spec.stock);
  return rederived({ ...base, players, piles, stock });
}

/** The state with stuck times and the global deadlock derived afresh from its cards, as at a deal. */
export function rederived(state: GameState): GameState {
  const d = new Draft(
    {
      ...state,
      players: state.players.map((p) => ({ ...p, stuckSince: null })),
      deadlock: { resolveAt: null, consecutiveUnresolvable: 0, count: 0 },
    },
    state.clock,
  );
  refreshDerived(d);
  return d.commit();
}

export function playerOf(state: GameState, id: string): PlayerState {
  const p = state.players.find((candidate) => candidate.id === id);
  if (!p) throw new Error(`No player "${id}"`);
  return p;
}

/** The pile tops in notation, e.g. 'R3Pe B5Bo'. */
export function tops(state: GameState): string {
  return state.piles.map((pile) => (pile.length > 0 ? faces(pile[pile.length - 1] as Card) : '--')).join(' ');
}

/** Narrows an accepted result, failing with the refusal's text otherwise. */
export function accepted(result: ApplyResult): Extract<ApplyResult, { ok: true }> {
  if (!result.ok) throw new Error(`Refused: ${result.error.code} ${result.error.message}`);
  return result;
}

/** Narrows a refused result, failing when the command was accepted. */
export function refused(result: ApplyResult): Extract<ApplyResult, { ok: false }> {
  if (result.ok) throw new Error('Expected a refusal, but the command was accepted');
  return result;
}

/** Every card id of a state: hands, decks, piles, stock. */
export function allCardIds(state: GameState): string[] {
  const ids: string[] = [];
  for (const p of state.players) for (const c of [...p.hand, ...p.deck]) ids.push(c.id);
  for (const pile of state.piles) for (const c of pile) ids.push(c.id);
  for (const c of state.stock) ids.push(c.id);
  return ids;
}

/** The bot tests' seed. */
export const SEED = '5eed5eed5eed5eed5eed5eed5eed5eed';
/** Log-normal bot times are kept within ±2.5 sigma. */
export const SPREAD = 2.5;

/** A game of bots of these levels (and a person first, with `human`), 30 cards each, from time 0. */
export function botGame(
  difficulties: readonly BotDifficulty[],
  speed: GameSpeed,
  seed = SEED,
  human = false,
): GameConfig {
  const bots = difficulties.map((bot, i) => ({ id: `b${i}`, username: `Bot ${i}`, bot }));
  return {
    seed,
    seats: human ? [{ id: 'h', username: 'Human', bot: null }, ...bots] : bots,
    cardsPerPlayer: 30,
    speed,
    startAt: 0,
  };
}

/** The state with its random stream seeded anew from `n`: the same moment, another roll of the dice. */
export const reseeded = (s: GameState, n: number): GameState => ({
  ...s,
  rng: seedRng(n.toString(16).padStart(32, 'b')),
});

/** A usePowerUp command (the power-up's name unchecked, so tests can send a wrong one). */
export const usePowerUp = (
  playerId: string,
  powerUpType: string,
  target: { targetPlayerId?: string; cardId?: string; pileIndex?: number } = {},
) => ({ type: 'usePowerUp', playerId, powerUpType, ...target }) as const;
