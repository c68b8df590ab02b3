/**
 * What the parts of the game service share, built once by the service: this node's rooms, storage,
 * clock and log, where each game runs (the ownership: one server, or a node of a cluster), the way to sockets, whether the node is
 * stopping, and what a room needs from its owner.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Ownership } from './ownership.ts';
import type { Transport } from './requests.ts';
import type { RoomRegistry } from './room-registry.ts';
import type { GameStore } from './store.ts';
import type { RoomDeps } from './types.ts';

export interface GamesContext {
  readonly rooms: RoomRegistry;
  readonly store: GameStore;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  /** Where each game runs, and the way to other nodes (ownership.ts: in process, or Redis's). */
  readonly ownership: Ownership;
  /** How rooms reach sockets (set once the gateway is up). */
  transport(): Transport | null;
  /** Shutdown has begun: no more requests or timers; sockets closing now are not players leaving. */
  stopping(): boolean;
  /** What a room needs from the service: a new room's, or one rebuilt from its log. */
  readonly roomDeps: RoomDeps;
}
