import { describe, expect, it } from 'vitest';
import { reboundToPrivate } from './rebinding-check.js';

describe('reboundToPrivate', () => {
  it('refuses a host judged public that now resolves to this machine', async () => {
    const refused = await reboundToPrivate('localhost', [{ address: '93.184.216.34', family: 4 }]);
    expect(refused?.is_error).toBe(true);
    expect(refused?.message).toContain('now resolves to');
  });

  it('lets through a host judged private (a person approved it) or still resolving the same', async () => {
    expect(await reboundToPrivate('localhost', [{ address: '127.0.0.1', family: 4 }])).toBeNull();
    expect(await reboundToPrivate('127.0.0.1', undefined)).toBeNull();
  });
});
