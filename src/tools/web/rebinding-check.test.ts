import { describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../policy/index.js';
import { addressesToConnect } from './rebinding-check.js';

const answering = (addresses: ResolvedAddress[]) => async () => addresses;

describe('addressesToConnect', () => {
  it('keeps the addresses the policy judged, whatever a new lookup says', async () => {
    const judged = [{ address: '93.184.216.34', family: 4 as const }];
    expect(
      await addressesToConnect('localhost', judged, answering([{ address: '127.0.0.1', family: 4 }])),
    ).toBe(judged);
  });

  it('resolves a host judged by name alone, and refuses it when it now leads to this machine', async () => {
    const refused = await addressesToConnect(
      'late.invalid',
      [],
      answering([{ address: '127.0.0.1', family: 4 }]),
    );
    expect(refused).toMatchObject({ is_error: true });
    expect((refused as { message: string }).message).toContain('now resolves to 127.0.0.1');
    const publicNow = [{ address: '93.184.216.34', family: 4 as const }];
    expect(await addressesToConnect('late.invalid', undefined, answering(publicNow))).toEqual(publicNow);
  });
});
