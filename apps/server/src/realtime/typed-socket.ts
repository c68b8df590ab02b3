/**
 * socket.io typed by the protocol's event maps: an emit whose name or payload is not in them, or a
 * read of `socket.data` that is not the gateway's, does not build.
 */
import type { ClientToServerEvents, ServerArgs, ServerEventName, ServerToClientEvents } from '@memeslam/protocol';
import type { Server, Socket } from 'socket.io';
import type { User } from '../games/requests.ts';

/** What the gateway keeps per socket, on `socket.data`: the signed-in user and its event budget's window. */
export interface SocketState {
  user: User;
  /** The token version the socket signed in with; an event after it changed is refused and the socket closed. */
  tokenVersion: number;
  /** The client's network, networkOf(address): IPv4 whole, IPv6 its /64 (the Play now queue's farming rule; docs/limits.md). */
  address: string;
  windowStart: number;
  inWindow: number;
}

/** Nothing goes between nodes over socket.io itself: the Redis adapter carries broadcasts, cluster/bus.ts the rest. */
export type InterServerEvents = Record<string, never>;

export type GameServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketState>;
export type GameSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketState>;

/**
 * Sends one server event, checked against the protocol's map. socket.io spells an event's arguments
 * `Parameters<Map[E]>`, which TypeScript cannot reduce for a generic event (or a union of them, as in
 * a rejoin); the protocol's `ServerArgs<E>` is that same list spelt out, and is what callers are held to.
 */
export function emitTo<E extends ServerEventName>(
  target: GameSocket | ReturnType<GameServer['to']>,
  event: E,
  ...args: ServerArgs<E>
): void {
  (target as { emit(event: string, ...args: unknown[]): boolean }).emit(event, ...args);
}
