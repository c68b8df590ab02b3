/**
 * Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012) for games between people: each
 * game is one rating period, and a game of several players counts as one outcome against each other
 * player, by final place (a better place wins, an equal one draws), all against their ratings before
 * the game. Ratings are provisional while the deviation is high, as lichess shows them ("1500?").
 */

export interface Rating {
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
}

/** A new player's rating. */
export const INITIAL_RATING: Rating = { rating: 1500, deviation: 350, volatility: 0.06 };
/** The system constant τ (how fast volatility moves; lichess uses 0.75). */
export const RATING_TAU = 0.75;
/** A rating is provisional (shown with "?") while its deviation is at least this (lichess: 110). */
export const PROVISIONAL_DEVIATION = 110;
/** The deviation stays within these bounds: never certain, never vaguer than a new player's. */
export const MIN_DEVIATION = 45;
export const MAX_DEVIATION = 350;

const SCALE = 173.7178;
const CONVERGENCE = 0.000001;

/** One game's result for a player: the opponent's rating before it and the score (1 win, 0.5 draw, 0 loss). */
export interface Outcome {
  readonly opponent: Rating;
  readonly score: number;
}

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));

/** The new volatility: the root of f by the Illinois algorithm (step 5 of the paper). */
function newVolatility(sigma: number, phi: number, v: number, delta: number, tau: number): number {
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > CONVERGENCE) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

/** The player's rating after one rating period with these outcomes (none: only the deviation grows). */
export function rate(
  player: Rating,
  outcomes: readonly Outcome[],
  options: { tau?: number; bounded?: boolean } = {},
): Rating {
  const tau = options.tau ?? RATING_TAU;
  const bound = (deviation: number) =>
    options.bounded === false ? deviation : Math.min(MAX_DEVIATION, Math.max(MIN_DEVIATION, deviation));
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  if (outcomes.length === 0) {
    const grown = Math.sqrt(phi * phi + player.volatility * player.volatility);
    return { ...player, deviation: bound(grown * SCALE) };
  }
  let inverseV = 0;
  let sum = 0;
  for (const { opponent, score } of outcomes) {
    const muJ = (opponent.rating - 1500) / SCALE;
    const gJ = g(opponent.deviation / SCALE);
    const expected = 1 / (1 + Math.exp(-gJ * (mu - muJ)));
    inverseV += gJ * gJ * expected * (1 - expected);
    sum += gJ * (score - expected);
  }
  const v = 1 / inverseV;
  const sigma = newVolatility(player.volatility, phi, v, v * sum, tau);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  const newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  return {
    rating: (mu + newPhi * newPhi * sum) * SCALE + 1500,
    deviation: bound(newPhi * SCALE),
    volatility: sigma,
  };
}

/**
 * Everyone's rating after a game between people, from their ratings before it and their final
 * places (1-based; equal places draw). Pairwise: each player meets every other once.
 */
export function rateGame(
  players: readonly { readonly id: string; readonly place: number; readonly before: Rating }[],
): Map<string, Rating> {
  const after = new Map<string, Rating>();
  for (const p of players) {
    const outcomes = players
      .filter((o) => o.id !== p.id)
      .map((o) => ({ opponent: o.before, score: p.place < o.place ? 1 : p.place === o.place ? 0.5 : 0 }));
    after.set(p.id, rate(p.before, outcomes));
  }
  return after;
}

export function isProvisional(rating: Pick<Rating, 'deviation'>): boolean {
  return rating.deviation >= PROVISIONAL_DEVIATION;
}

/** The rating as players see it: rounded, with "?" while provisional. */
export function ratingLabel(rating: Rating): string {
  return `${Math.round(rating.rating)}${isProvisional(rating) ? '?' : ''}`;
}
