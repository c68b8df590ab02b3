/**
 * @memeslam/protocol: the wire between the server and the web client. Schemas (zod) and their
 * types for every HTTP body and socket event, the user-facing texts, and the product constants.
 * Rule constants and card types come from @memeslam/engine and are not re-exported here.
 */
export * from './admin.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './game-record.ts';
export * from './game-texts.ts';
export * from './game-view.ts';
export * from './game.ts';
export * from './http-envelope.ts';
export * from './http-game.ts';
export * from './http-routes.ts';
export * from './leaderboard.ts';
export * from './lobby.ts';
export * from './matchmaking.ts';
export * from './power-ups.ts';
export * from './primitives.ts';
export * from './prizes.ts';
export * from './refusals.ts';
export * from './socket-client.ts';
export * from './socket-events.ts';
export * from './socket-server.ts';
export * from './texts.ts';
export * from './tournament.ts';
export * from './user.ts';
export * from './validation.ts';
export * from './wallet.ts';
