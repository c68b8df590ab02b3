/**
 * What the parts of the game service share, built once by the service: this node's rooms, storage,
 * clock and log, the cluster (null on a single server), the way to sockets, whether the node is
 * stopping, and what a room needs from its owner.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { ClusterGames } from './cluster-games.ts';
import type { Transport } from './requests.ts';
import type { RoomRegistry } from './room-registry.ts';
import type { GameStore } from './store.ts';
import type { RoomDeps } from './types.ts';

export interface GamesContext {
  readonly rooms: RoomRegistry;
  readonly store: GameStore;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  /** Cluster mode (issue 14): where each game runs, and the way to other nodes; null on a single server. */
  readonly cluster: ClusterGames | null;
  /** How rooms reach sockets (set once the gateway is up). */
  transport(): Transport | null;
  /** Shutdown has begun: no more requests or timers; sockets closing now are not players leaving. */
  stopping(): boolean;
  /** What a room needs from the service: a new room's, or one rebuilt from its log. */
  readonly roomDeps: RoomDeps;
}
