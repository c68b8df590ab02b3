/**
 * The one real-time connection of a signed-in browser (docs/protocol.md, Connecting): a GET
 * /health first, then socket.io with the stored token, websocket then polling, 5 reconnection
 * attempts 1 s apart, a 20 s timeout and our own 15 s connect limit. Its state (unknown,
 * connecting, connected, reconnecting, error, with its message) is a small store React
 * reads through useConnection(). When socket.io gives up, the health check is polled quietly and
 * the connection comes back by itself once the server answers again.
 */
import {
  type Ack,
  type AckData,
  CONNECTION_TEXTS,
  type ClientEventName,
  type ClientPayload,
  type ClientToServerEvents,
  type HandshakeRefusal,
  SOCKET_RECONNECTION,
  SOCKET_TRANSPORTS,
  type ServerEventName,
  type ServerToClientEvents,
  ackError,
  connectionFailedText,
  connectionLostText,
  handshakeRefusalSchema,
} from '@memeslam/protocol';
import { useSyncExternalStore } from 'react';
import { type Socket, io } from 'socket.io-client';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { session } from '../auth/session.ts';

export type GameSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * socket.io's typed `on` and `emitWithAck` cannot follow a generic event name: the two functions
 * below take the protocol's maps for their types and reach the socket through its untyped face
 * (socket.io's default events map), the same object.
 */
function untyped(socket: GameSocket): Socket {
  return socket;
}

/** Listens to server event `event` with its listener of the protocol's map (`ServerToClientEvents[event]`). */
export function listenTo(
  socket: GameSocket,
  event: ServerEventName,
  listener: ServerToClientEvents[ServerEventName],
): void {
  const name: string = event;
  untyped(socket).on(name, listener);
}

export type ConnectionStatus = 'unknown' | 'connecting' | 'connected' | 'reconnecting' | 'error';

export interface ConnectionState {
  readonly status: ConnectionStatus;
  /** The text for the last problem (CONNECTION_TEXTS); null while all is well. */
  readonly message: string | null;
}

/** How long an acknowledged event may take before it counts as failed. */
export const ACK_TIMEOUT_MS = 10_000;
/** After socket.io gives up, how often the health check is tried again in the background. */
const RECOVERY_POLL_MS = 5000;
const HEALTH_TIMEOUT_MS = 5000;
/** How long a socket closed by the server waits for this tab's own sign-out or new token before saying so. */
const SERVER_DISCONNECT_GRACE_MS = 1500;

let state: ConnectionState = { status: 'unknown', message: null };
const listeners = new Set<() => void>();
let socket: GameSocket | null = null;
let connecting: Promise<GameSocket> | null = null;
let recoveryTimer: ReturnType<typeof setTimeout> | null = null;
/** Everything that wants every socket (the live game store) registers here once. */
const attachers = new Set<(socket: GameSocket) => void>();

function setState(next: ConnectionState): void {
  if (next.status === state.status && next.message === state.message) return;
  state = next;
  for (const listener of listeners) listener();
}

export const connection = {
  get: (): ConnectionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useConnection(): ConnectionState {
  return useSyncExternalStore(connection.subscribe, connection.get);
}

/** The live socket when it is connected. */
export function currentSocket(): GameSocket | null {
  return socket?.connected ? socket : null;
}

/** Registers a function run on every new socket (listeners for server events). */
export function onSocket(attach: (socket: GameSocket) => void): () => void {
  attachers.add(attach);
  if (socket) attach(socket);
  return () => attachers.delete(attach);
}

async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`/health?_t=${Date.now()}`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = (await response.json()) as { ok?: unknown };
    return response.ok && body.ok === true;
  } catch {
    return false;
  }
}

function scheduleRecovery(): void {
  if (recoveryTimer || !session.get().token) return;
  recoveryTimer = setTimeout(() => {
    recoveryTimer = null;
    void connect().catch(() => scheduleRecovery());
  }, RECOVERY_POLL_MS);
}

function stopRecovery(): void {
  if (recoveryTimer) clearTimeout(recoveryTimer);
  recoveryTimer = null;
}

function fail(message: string, options: { toast?: boolean } = {}): Error {
  setState({ status: 'error', message });
  if (options.toast) toast.error(message);
  return new Error(message);
}

function authenticationFailed(): void {
  const message = CONNECTION_TEXTS.authFailed;
  disconnect();
  setState({ status: 'error', message });
  toast.error(message);
  session.clear();
  window.location.assign(`/login?from=${encodeURIComponent(window.location.pathname)}`);
}

/** The server closed a socket of a session that still works: say so and connect again in the background. */
function serverClosed(closed: GameSocket): void {
  if (socket !== closed || closed.connected) return;
  setState({ status: 'reconnecting', message: CONNECTION_TEXTS.serverDisconnected });
  toast.error(CONNECTION_TEXTS.serverDisconnected);
  // socket.io does not reconnect after the server closed the connection on purpose.
  scheduleRecovery();
}

/** What the server said when it refused the handshake (null: socket.io's own failure, not a refusal). */
function handshakeRefusal(error: Error): HandshakeRefusal | null {
  const parsed = handshakeRefusalSchema.safeParse((error as Error & { data?: unknown }).data);
  return parsed.success ? parsed.data : null;
}

/**
 * The server could not check the token (its database is away): it says so with `data.retry`. The
 * session stays; socket.io does not retry a refused handshake by itself, so we do, a second apart.
 */
function isServerError(error: Error): boolean {
  return handshakeRefusal(error)?.retry === true;
}

/** No token, or one that does not sign in: the session is over. */
function isAuthenticationRefused(error: Error): boolean {
  return handshakeRefusal(error)?.code === 'AUTHENTICATION_FAILED';
}

function open(token: string): Promise<GameSocket> {
  const created: GameSocket = io({
    auth: { token },
    transports: [...SOCKET_TRANSPORTS],
    reconnection: true,
    reconnectionAttempts: SOCKET_RECONNECTION.attempts,
    reconnectionDelay: SOCKET_RECONNECTION.delayMs,
    timeout: SOCKET_RECONNECTION.timeoutMs,
  });
  socket = created;
  for (const attach of attachers) attach(created);

  let everConnected = false;
  created.on('connect', () => {
    const recovered = everConnected || state.status === 'error' || state.status === 'reconnecting';
    everConnected = true;
    stopRecovery();
    setState({ status: 'connected', message: null });
    if (recovered) toast.success(CONNECTION_TEXTS.connected);
  });
  created.on('disconnect', (reason) => {
    if (socket !== created) return;
    if (reason === 'io client disconnect') return;
    if (reason === 'io server disconnect') {
      // The server closes a session's sockets when it revokes its tokens, most often at this tab's
      // own request (sign-out, a password change, account deletion), whose answer then clears or
      // replaces the session and with it this socket. Only when nothing did so is it news: GET
      // /auth/me tells a session revoked elsewhere (a 401: the HTTP client says "Session expired.
      // Please login again." and goes to /login after a second, docs/accounts.md) from a server
      // that closed it for another reason (a restart: the health check and a new handshake follow).
      setTimeout(() => {
        if (socket !== created || created.connected) return;
        void api('me', { quiet: true }).then(
          () => serverClosed(created),
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 401) return;
            serverClosed(created);
          },
        );
      }, SERVER_DISCONNECT_GRACE_MS);
      return;
    }
    const message = connectionLostText(reason);
    setState({ status: 'reconnecting', message });
    toast.error(message);
  });
  let attempt = 0;
  created.io.on('reconnect_attempt', (n) => {
    attempt = n;
    if (socket === created) setState({ status: 'reconnecting', message: state.message });
  });
  created.on('connect_error', (error) => {
    if (socket !== created) return;
    if (isServerError(error)) {
      attempt = (attempt % SOCKET_RECONNECTION.attempts) + 1;
      setState({ status: 'reconnecting', message: connectionFailedText(attempt, error.message) });
      setTimeout(() => {
        if (socket === created && !created.connected && !created.active) created.connect();
      }, SOCKET_RECONNECTION.delayMs);
      return;
    }
    if (isAuthenticationRefused(error)) return authenticationFailed();
    if (!everConnected && !created.active) setState({ status: 'error', message: error.message });
  });
  created.io.on('reconnect_error', (error) => {
    if (socket !== created) return;
    setState({ status: 'reconnecting', message: connectionFailedText(attempt, error.message) });
  });
  created.io.on('reconnect_failed', () => {
    if (socket !== created) return;
    fail(CONNECTION_TEXTS.unableToConnect, { toast: true });
    scheduleRecovery();
  });

  return new Promise<GameSocket>((resolve, reject) => {
    const limit = setTimeout(() => {
      cleanup();
      reject(fail(CONNECTION_TEXTS.timeout));
      scheduleRecovery();
    }, SOCKET_RECONNECTION.connectTimeoutMs);
    const onConnect = () => {
      cleanup();
      resolve(created);
    };
    const onError = (error: Error) => {
      if (!isAuthenticationRefused(error)) return;
      cleanup();
      reject(new Error(CONNECTION_TEXTS.authFailed));
    };
    const cleanup = () => {
      clearTimeout(limit);
      created.off('connect', onConnect);
      created.off('connect_error', onError);
    };
    created.on('connect', onConnect);
    created.on('connect_error', onError);
  });
}

/**
 * Connects if needed and resolves with the connected socket. Fails with a connection text: no token,
 * the health check failing, a bad token, or no connection within 15 s.
 */
export function connect(): Promise<GameSocket> {
  const live = currentSocket();
  if (live) return Promise.resolve(live);
  if (connecting) return connecting;
  const token = session.get().token;
  if (!token) return Promise.reject(fail(CONNECTION_TEXTS.authRequired));
  connecting = (async () => {
    setState({ status: 'connecting', message: null });
    if (socket) {
      // A socket.io manager that gave up: drop it and start afresh.
      socket.removeAllListeners();
      socket.io.removeAllListeners();
      socket.disconnect();
      socket = null;
    }
    if (!(await serverAnswers())) {
      scheduleRecovery();
      throw fail(CONNECTION_TEXTS.serverNotResponding);
    }
    return open(token);
  })().finally(() => {
    connecting = null;
  });
  return connecting;
}

/** The Retry buttons: try again now, telling the user how it went. */
export function retryConnection(): void {
  stopRecovery();
  connect().then(
    () => undefined,
    (error: Error) => toast.error(error.message),
  );
}

/** Sign-out: close the socket and forget the connection. */
export function disconnect(): void {
  stopRecovery();
  if (socket) {
    socket.removeAllListeners();
    socket.io.removeAllListeners();
    socket.disconnect();
  }
  socket = null;
  connecting = null;
  setState({ status: 'unknown', message: null });
}

/**
 * Sends a client event and resolves with its ack `{success, error, code, data}`. Never rejects: no
 * connection or no answer within 10 s come back as a failed ack with a connection text (codes
 * NOT_CONNECTED and TIMEOUT).
 */
export async function emitAck<E extends ClientEventName>(
  event: E,
  payload: ClientPayload<E>,
  options: { readonly timeoutMs?: number; readonly timeoutText?: string } = {},
): Promise<Ack<AckData<E>>> {
  const live = currentSocket();
  if (!live) return ackError('NOT_CONNECTED');
  try {
    // The protocol's map types the answer (see `untyped`).
    const ack: Ack<AckData<E>> = await untyped(live)
      .timeout(options.timeoutMs ?? ACK_TIMEOUT_MS)
      .emitWithAck(event, payload);
    return ack;
  } catch {
    return ackError('TIMEOUT', options.timeoutText ?? CONNECTION_TEXTS.timeout);
  }
}

// A different account (or none) must never inherit the previous one's socket.
let lastToken = session.get().token;
session.subscribe(() => {
  const token = session.get().token;
  if (token === lastToken) return;
  lastToken = token;
  disconnect();
});
