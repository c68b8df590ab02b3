/**
 * What one node of a cluster sends another over the bus (bus.ts), as zod schemas: every request, every
 * answer and every announcement is parsed on receipt, like a message from a client. They live in the
 * server, not in packages/protocol: no browser ever sends or reads them, and they carry what only the
 * server may set (a seat's address key, a "Match me" pace, a rematch's held players).
 *
 * A request is answered with its kind's answer (`nodeAnswerSchemas`) or refused with a code
 * (`NODE_REFUSAL_CODES`); the asker decides by the code, never by a text.
 */
import {
  type GameSetup,
  activeGamesDataSchema,
  botChoiceSchema,
  botDifficultySchema,
  botStatusDataSchema,
  cardsPerPlayerSchema,
  commandSchema,
  gameListModeSchema,
  gameRejoinedSchema,
  gameSchema,
  gameSpeedSchema,
  gameUpdatedSchema,
  refusalCodeSchema,
} from '@memeslam/protocol';
import * as z from 'zod';

/**
 * Why a node refused a request. NODE_STOPPING: it is handing its games over; NOT_THE_OWNER: it does
 * not run that game (a node restarted within its old run's lease, still named as the owner in Redis).
 * Both send the asker to look for the game's owner again. INVALID_MESSAGE: the request or its answer
 * failed its schema; FAILED: serving it threw (the detail says what, for the log only).
 */
export const NODE_REFUSAL_CODES = ['NODE_STOPPING', 'NOT_THE_OWNER', 'INVALID_MESSAGE', 'FAILED'] as const;
export const nodeRefusalCodeSchema = z.enum(NODE_REFUSAL_CODES);
export type NodeRefusalCode = z.infer<typeof nodeRefusalCodeSchema>;

/** The codes that send the asker on to look for the game's owner again. */
export const ASK_AGAIN: ReadonlySet<NodeRefusalCode> = new Set(['NODE_STOPPING', 'NOT_THE_OWNER']);

/** The envelope on a node's channel: a request (with the asker's id to answer to), or an answer to one. */
export const envelopeSchema = z.union([
  z.object({ id: z.string(), from: z.string(), body: z.unknown() }),
  z.object({ reply: z.string(), ok: z.literal(true), body: z.unknown() }),
  z.object({ reply: z.string(), ok: z.literal(false), code: nodeRefusalCodeSchema, detail: z.string().optional() }),
]);
export type Envelope = z.infer<typeof envelopeSchema>;

/** A game's settings once the edge turned a client's body into them (packages/protocol/src/lobby.ts). */
const gameSetupSchema = z.object({
  mode: z.literal('free'),
  maxPlayers: z.number().int(),
  cardsPerPlayer: cardsPerPlayerSchema,
  gameSpeed: gameSpeedSchema,
  allowSpectators: z.boolean(),
  autoStart: z.boolean(),
  bots: z
    .object({
      numberOfBots: z.number().int(),
      difficulty: botChoiceSchema,
      matchPaceMs: z.number().optional(),
      mixedDifficulties: z.boolean(),
      personalities: z.array(z.string()).readonly(),
    })
    .nullable(),
}) satisfies z.ZodType<GameSetup>;

/** Who asks: the account, and the keyed hash of the network a create or join came from (docs/fair-play.md). */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  addressKey: z.string().nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** What a user may ask of the games (GameService.handle): the same for sockets, HTTP and other nodes. */
export const gameRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('create'),
    setup: gameSetupSchema,
    /** Play now only (set by the server, never from a client): "Match me" bots' pace, the people's median. */
    matchPaceMs: z.number().optional(),
    /** A rematch only (set by the server): the previous game's players, for whom the lobby is held. */
    holdFor: z.array(z.string()).readonly().optional(),
  }),
  /** `watch`: a non-member may spectate a game in play when its host allows it (sockets). */
  z.object({ type: z.literal('join'), roomCode: z.string(), watch: z.boolean().optional() }),
  /** The user's game, or the one named by id or room code. */
  z.object({ type: z.literal('leave'), game: z.string().optional() }),
  z.object({ type: z.literal('ready'), isReady: z.boolean() }),
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('play'), command: commandSchema }),
  /** The hand and public state of the user's game in play. */
  z.object({ type: z.literal('view') }),
  /** Between nodes only: the user's lobby seat is given up for a new game (refused in play). */
  z.object({ type: z.literal('vacate') }),
]);
export type GameRequest = z.infer<typeof gameRequestSchema>;

/** What may be asked about one live room: the game as a viewer sees it, or its bots' activity. */
export const roomQuestionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('describe'), viewerId: z.string() }),
  z.object({ kind: z.literal('bots') }),
]);
export type RoomQuestion = z.infer<typeof roomQuestionSchema>;

/** The lobby list's filters (GET /game/active), as every node applies them to its own rooms. */
export const liveQuerySchema = z.object({
  gameMode: gameListModeSchema.optional(),
  botDifficulty: botDifficultySchema.optional(),
  includeBotGames: z.boolean(),
  limit: z.number().int(),
  /** The viewer is an admin or superadmin: games with spectators off are listed too (docs/privacy.md). */
  seesPrivate: z.boolean().optional(),
});
export type LiveQuery = z.infer<typeof liveQuerySchema>;

/**
 * What one node asks of the owner of a game. `present`: the user has a socket open on the asking
 * node. `gameId`: the game the asker found this node owning; a node that does not run it refuses
 * (NOT_THE_OWNER) rather than answer for it.
 */
export const nodeRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('handle'),
    gameId: z.string(),
    user: userSchema,
    request: gameRequestSchema,
    present: z.boolean(),
  }),
  z.object({ kind: z.literal('connect'), gameId: z.string(), userId: z.string() }),
  z.object({ kind: z.literal('disconnect'), userId: z.string() }),
  z.object({ kind: z.literal('room'), gameId: z.string(), question: roomQuestionSchema }),
  z.object({ kind: z.literal('live'), viewerId: z.string(), query: liveQuerySchema }),
  /** Admission control (games/headroom.ts): whether the node starts new games, and how many more rooms it takes. */
  z.object({ kind: z.literal('headroom') }),
  /** A new game a node past its headroom hands to this one (it owns the game from its first write). */
  z.object({
    kind: z.literal('create'),
    user: userSchema,
    request: gameRequestSchema,
    present: z.boolean(),
  }),
]);
export type NodeRequest = z.infer<typeof nodeRequestSchema>;
export type NodeRequestKind = NodeRequest['kind'];
export type NodeRequestOf<K extends NodeRequestKind> = Extract<NodeRequest, { kind: K }> & { readonly kind: K };

/** A request's outcome, as GameService.handle answers it: its data, or a refusal players read. */
const outcomeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string(), code: refusalCodeSchema }),
]);

/** A returning player's game and what their socket is sent: the game in play with their hand, or the lobby. */
const seatedSchema = z.object({
  gameId: z.string(),
  rejoin: z.discriminatedUnion('event', [
    z.object({ event: z.literal('gameRejoined'), payload: gameRejoinedSchema }),
    z.object({ event: z.literal('gameUpdated'), payload: gameUpdatedSchema }),
  ]),
});

/** Each request's answer. */
export const nodeAnswerSchemas = {
  handle: outcomeSchema,
  /** null: the user sits in no game here. */
  connect: seatedSchema.nullable(),
  disconnect: z.null(),
  /** null: no live game here has that id. */
  room: z.union([gameSchema, botStatusDataSchema]).nullable(),
  /** This node's part of the lobby list. */
  live: activeGamesDataSchema,
  headroom: z.object({ node: z.string(), admitting: z.boolean(), spareRooms: z.number() }),
  create: outcomeSchema,
} satisfies { [K in NodeRequestKind]: z.ZodType };
export type NodeAnswers = { [K in NodeRequestKind]: z.infer<(typeof nodeAnswerSchemas)[K]> };
export type NodeAnswer = NodeAnswers[NodeRequestKind];

/** Announcements to every node. `released`: the games a stopping node let go, for the others to take over. */
export const nodeBroadcastSchemas = {
  released: z.array(z.string()),
} satisfies Record<string, z.ZodType>;
export type NodeBroadcasts = { [K in keyof typeof nodeBroadcastSchemas]: z.infer<(typeof nodeBroadcastSchemas)[K]> };
