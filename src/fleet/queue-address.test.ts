import { expect, it } from 'vitest';
import { parseQueueUrl, QueueUrlError } from './queue-address.js';

it('takes host, port, db and credentials; what it shows is host:port only', () => {
  const address = parseQueueUrl('redis://ops:p%40ss-w0rd@redis.internal:6380/2');
  expect(address).toMatchObject({
    host: 'redis.internal',
    port: 6380,
    db: 2,
    username: 'ops',
    password: 'p@ss-w0rd',
  });
  expect(address.display).toBe('redis.internal:6380');
  expect(parseQueueUrl('rediss://[::1]').display).toBe('[::1]:6379');
  expect(parseQueueUrl('rediss://[::1]').tls).toBe(true);
});

it('a bad --queue is refused without quoting it (it may carry a password)', () => {
  for (const bad of ['http://u:hunter2@host:1', 'u:hunter2@host', 'redis://u:hunter2@host:1/x']) {
    let error: unknown;
    try {
      parseQueueUrl(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QueueUrlError);
    expect(String(error)).not.toContain('hunter2');
  }
});
