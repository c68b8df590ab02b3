/**
 * How a tournament's prize pool is split among its winners (the admin's tournament form): percentages
 * by winners count, floored amounts, and the sum rule the form and the server both enforce.
 */
import {
  MAX_PRIZE_AMOUNT,
  PRIZE_AMOUNT_DECIMALS,
  PRIZE_SPLIT_PERCENTAGES,
  PRIZE_SUM_TOLERANCE,
  WINNERS_COUNT,
} from './constants.ts';

export interface PrizePosition {
  readonly position: number;
  readonly amount: number;
}

/** Winners count clamped to 1–10, as the form's minus and plus buttons do; nonsense gives the default. */
export function clampWinnersCount(count: number): number {
  if (!Number.isFinite(count)) return WINNERS_COUNT.default;
  return Math.min(WINNERS_COUNT.max, Math.max(WINNERS_COUNT.min, Math.round(count)));
}

function isTabulated(count: number): count is keyof typeof PRIZE_SPLIT_PERCENTAGES {
  return count in PRIZE_SPLIT_PERCENTAGES;
}

/**
 * Percent of the pool per place. Up to 6 winners a fixed table. Above 6 the
 * 3-winner split is the default, with later places getting half of the last share:
 * places 4 and on each get half
 * of the 3-winner split's last share (10). That list adds up to more than 100 and could never pass
 * the sum rule, so it is scaled down to 100, keeping its proportions.
 */
export function prizeSplitPercentages(winnersCount: number): number[] {
  const count = clampWinnersCount(winnersCount);
  if (isTabulated(count)) return [...PRIZE_SPLIT_PERCENTAGES[count]];
  const base = PRIZE_SPLIT_PERCENTAGES[3];
  const laterShare = (base[base.length - 1] ?? 0) / 2;
  const shares = [...base, ...Array.from({ length: count - base.length }, () => laterShare)];
  const sum = shares.reduce((a, b) => a + b, 0);
  return shares.map((share) => (share * 100) / sum);
}

/**
 * The per-place amounts for a pool, each floored. Flooring each place can lose up
 * to one unit per winner, more than the tolerance of 1; what is lost goes to first place so the
 * list always passes the sum rule.
 */
export function prizeDistributionFor(totalAmount: number, winnersCount: number): PrizePosition[] {
  // The epsilon keeps 1000 × 30 / 100 from flooring to 299 through binary rounding.
  const amounts = prizeSplitPercentages(winnersCount).map((p) => Math.floor((totalAmount * p) / 100 + 1e-9));
  const lost = Math.floor(totalAmount + 1e-9) - amounts.reduce((a, b) => a + b, 0);
  if (amounts.length > 0) amounts[0] = (amounts[0] ?? 0) + Math.max(0, lost);
  return amounts.map((amount, index) => ({ position: index + 1, amount }));
}

const UNIT = 10 ** PRIZE_AMOUNT_DECIMALS;

/** An amount in millionths, an exact integer for every amount the schemas accept. */
export function prizeUnits(amount: number): number {
  return Math.round(amount * UNIT);
}

/** Whether an amount has at most PRIZE_AMOUNT_DECIMALS decimals (0.1 does; 0.1 + 0.2 does not). */
export function hasPrizePrecision(amount: number): boolean {
  return Number.isFinite(amount) && Number(amount.toFixed(PRIZE_AMOUNT_DECIMALS)) === amount;
}

/** Within 0 – MAX_PRIZE_AMOUNT. */
export function prizeAmountInRange(amount: number): boolean {
  return amount >= 0 && amount <= MAX_PRIZE_AMOUNT;
}

/**
 * The sum rule: the amounts add up to the total within a tolerance of 1, counted in exact units
 * (0.1 + 0.2 is 0.3 here, not 0.30000000000000004).
 */
export function prizeDistributionMatches(totalAmount: number, distribution: readonly PrizePosition[]): boolean {
  const sum = distribution.reduce((a, p) => a + prizeUnits(p.amount), 0);
  return Math.abs(sum - prizeUnits(totalAmount)) <= PRIZE_SUM_TOLERANCE * UNIT;
}
