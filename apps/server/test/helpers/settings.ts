/**
 * Well-formed `settings` values for rows a test inserts straight into the database: the columns are
 * typed (db/schema.ts), so a fixture holds what the server itself would store.
 */
import {
  DEFAULT_CURRENCY,
  DEFAULT_SCORING_METHOD,
  type GameSetup,
  MIN_GAMES_REQUIRED,
  WINNERS_COUNT,
  createGameSettingsSchema,
} from '@memeslam/protocol';
import type { StoredTournamentSettings } from '../../src/db/schema.ts';

/** A games row's settings: a free lobby with the protocol's defaults (what POST /game/create stores for `{}`). */
export function gameSettings(): GameSetup {
  return createGameSettingsSchema.parse({});
}

/** A tournaments row's settings: the admin form's defaults, with `settings` fields overridden. */
export function tournamentSettings(
  settings: Partial<StoredTournamentSettings['settings']> = {},
): StoredTournamentSettings {
  return {
    prizePool: { currency: DEFAULT_CURRENCY, winnersCount: WINNERS_COUNT.default },
    settings: {
      maxParticipants: null,
      minGamesRequired: MIN_GAMES_REQUIRED.default,
      scoringMethod: DEFAULT_SCORING_METHOD,
      allowBots: false,
      requireVerifiedSolana: false,
      ...settings,
    },
    isFeatured: false,
  };
}
