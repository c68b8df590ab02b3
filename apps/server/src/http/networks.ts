/** The client-network rule lives in ../networks.ts (below the games, auth and HTTP layers); the socket layer imports it from here. */
export * from '../networks.ts';
