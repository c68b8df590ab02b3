/**
 * Clients behind a trusted proxy (a server booted with TRUST_PROXY naming 127.0.0.1): the
 * X-Forwarded-For header names the client's address, for tests of per-address rules (docs/limits.md).
 */
import { io } from 'socket.io-client';
import { Client } from './sockets.ts';

/** Headers of a request the proxy forwards for `address`. */
export const from = (address: string) => ({ 'x-forwarded-for': address });

/** A socket whose handshake comes through the trusted proxy for `address`; its connect_error's text if refused. */
export function connectFrom(base: string, token: string, address: string): Promise<Client | string> {
  const socket = io(base, {
    auth: { token },
    transports: ['websocket'],
    extraHeaders: from(address),
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(new Client(socket)));
    socket.once('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}
