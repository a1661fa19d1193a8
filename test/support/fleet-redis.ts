import type { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { parseQueueUrl } from '../../src/fleet/queue-address.js';
import { connectRedis } from '../../src/fleet/redis-connection.js';
import { RedisServer } from './redis-server.js';

/**
 * For a unit test file of the fleet: a real redis-server for each test and a connection to it, made
 * as the fleet makes its own, both gone after the test. Call once, at the top of the file.
 */
export function useFleetRedis(): { readonly redis: Redis; readonly server: RedisServer } {
  let server: RedisServer | undefined;
  let redis: Redis | undefined;
  beforeEach(async () => {
    server = await RedisServer.start();
    redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 5000 });
  });
  afterEach(async () => {
    redis?.disconnect();
    await server?.remove();
  });
  return {
    get redis() {
      if (!redis) throw new Error('useFleetRedis: no test is running');
      return redis;
    },
    get server() {
      if (!server) throw new Error('useFleetRedis: no test is running');
      return server;
    },
  };
}
