/**
 * socket.io's adapter in cluster mode: the Redis adapter's sharded pub/sub (SPUBLISH/SSUBSCRIBE,
 * Redis ≥ 7), one channel per room ("dynamic"), so that a node hears only the rooms it holds sockets
 * in (docs/cluster.md, "What crosses Redis"): a game's broadcasts reach the nodes of its players and
 * spectators, a user's own events the nodes of that user's sockets. With the classic adapter every
 * node received and decoded every broadcast of the cluster. Joins and leaves across nodes, disconnects
 * and `present()`'s socket lookups still go to every node, on the namespace's one channel.
 *
 * socket.io-adapter's ClusterAdapter delivers a broadcast to this node's own sockets only once its
 * publish is answered; with Redis away that publish waits in `pub`'s offline queue (cluster/redis.ts),
 * and so would the players of the games this node runs on (docs/cluster.md, "Redis away"). It is
 * therefore not waited for, as the classic adapter did not: this node's sockets get a broadcast at
 * once, the other nodes' once Redis has it.
 */
import { createShardedAdapter } from '@socket.io/redis-adapter';
import type { ClusterRedis } from './redis.ts';

export function shardedAdapter(redis: ClusterRedis) {
  const create = createShardedAdapter(redis.pub, redis.sub, {
    channelPrefix: redis.key('io'),
    subscriptionMode: 'dynamic',
  });
  // socket.io calls it with `new`: a function, not an arrow, whose returned object is the adapter.
  return function adapter(nsp: unknown) {
    const sharded = create(nsp);
    const publish = sharded.doPublish.bind(sharded);
    sharded.doPublish = (message) => {
      // `pub` keeps a publish until Redis has it (cluster/redis.ts); it fails only as the node closes.
      publish(message).catch(() => {});
      return Promise.resolve('');
    };
    return sharded;
  };
}
