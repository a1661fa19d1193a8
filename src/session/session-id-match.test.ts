import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionAt } from './session.js';
import { isFullSessionUuid, matchSessionId, resolveSessionId, SessionIdError } from './session-id-match.js';

let home: string;
const workDir = '/work/project';

async function made(id: string, withContext = true): Promise<void> {
  const session = sessionAt(home, workDir, id);
  await mkdir(session.dir, { recursive: true });
  if (withContext) await writeFile(session.contextFile, '');
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-session-ids-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('matchSessionId', () => {
  it('takes a whole id, a unique prefix, and says when a prefix is ambiguous or names nothing', async () => {
    await made('abc12345-0000-4000-8000-000000000001');
    await made('abc12399-0000-4000-8000-000000000002');
    await made('abc');
    await made('half-made', false);
    const where = { home, workDir };
    expect(await matchSessionId(where, 'abc123')).toEqual({
      kind: 'ambiguous',
      given: 'abc123',
      ids: ['abc12345-0000-4000-8000-000000000001', 'abc12399-0000-4000-8000-000000000002'],
    });
    expect(await matchSessionId(where, 'abc1234')).toEqual({
      kind: 'found',
      id: 'abc12345-0000-4000-8000-000000000001',
    });
    // An exact id wins over the longer ids it starts.
    expect(await matchSessionId(where, 'abc')).toEqual({ kind: 'found', id: 'abc' });
    expect(await matchSessionId(where, 'half')).toEqual({ kind: 'none', given: 'half' });
    expect(await matchSessionId(where, '../x')).toEqual({ kind: 'none', given: '../x' });
    await expect(resolveSessionId(where, 'zzz')).rejects.toBeInstanceOf(SessionIdError);
  });

  it('knows a full UUID', () => {
    expect(isFullSessionUuid('0b7c2a4e-5d7f-4c3e-9a51-2f1e8d6c4b3a')).toBe(true);
    expect(isFullSessionUuid('0b7c2a4e')).toBe(false);
    expect(isFullSessionUuid('my-session')).toBe(false);
  });
});
