/** The token buckets live in ../token-buckets.ts (below the games, cluster and HTTP layers); the socket layer imports them from here. */
export * from '../token-buckets.ts';
