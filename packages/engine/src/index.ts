export * from './cards.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './types.ts';
export { type RngState, Random, isValidSeed, seedRng } from './rng.ts';
export { createGame, configProblem, copiesNeeded } from './deal.ts';
export { apply } from './apply.ts';
export {
  type PlayRefusalCode,
  type PlaySituation,
  type PowerUpRefusalCode,
  type PowerUpSituation,
  type TargetRefusalCode,
  type SelectRefusalCode,
  cardsToSendBack,
  hasPlayableCard,
  playProblem,
  playablePiles,
  powerUpProblem,
  powerUpTargetProblem,
  selectProblem,
} from './checks.ts';
export { advance, nextDeadline } from './advance.ts';
export { contestedBeforeLeaving } from './rules.ts';
export { publicView, handView, viewFor, VISIBLE_PILE_CARDS } from './view.ts';
export { cardsLeft, pointsFor, rankPlayers, strongestBot, strongestDifficulty } from './ranking.ts';
export {
  BOT_PROFILES,
  type BotProfile,
  DEFAULT_MATCH_PACE_MS,
  MATCH_HISTORY_GAMES,
  MATCH_PACE_RANGE_MS,
  PACE_SIGMA,
  REACTION_SIGMA,
  logNormal,
  matchLabel,
  matchProfile,
  medianPlayInterval,
  recordedPace,
} from './bot-profiles.ts';
export { NO_POWER_UP_OPENING_MS, REFREEZE_AFTER_MS } from './bots.ts';
export { playHeadless, type HeadlessOutcome } from './simulate.ts';
export {
  INITIAL_RATING,
  MAX_DEVIATION,
  MIN_DEVIATION,
  PROVISIONAL_DEVIATION,
  RATING_TAU,
  type Outcome as RatingOutcome,
  type Rating,
  isProvisional,
  rate,
  rateGame,
  ratingLabel,
} from './rating.ts';
