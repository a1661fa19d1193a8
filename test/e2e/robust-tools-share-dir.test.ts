import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/** A session made with a chosen id: a full UUID (a short one must name an existing session). */
const S1 = '0c1d2e3f-0000-4000-8000-000000000001';
const S2 = '0c1d2e3f-0000-4000-8000-000000000002';

const cli = useScriptedCli();

describe('KIMI_SHARE_DIR (the agent SDK passes its shareDir so)', () => {
  it('is the home folder when KIMI_TS_HOME is not set; KIMI_TS_HOME wins when both are', async () => {
    const { sandbox } = await cli.setup([{ text: 'one' }, { text: 'two' }]);
    const share = join(sandbox.root, 'share');
    const first = await sandbox.run(['--print', '--session', S1, '-p', 'hi'], {
      env: { KIMI_TS_HOME: '', KIMI_SHARE_DIR: share },
    });
    expect(first.code).toBe(0);
    const [key] = await readdir(join(share, 'sessions'));
    expect(existsSync(join(share, 'sessions', key!, S1, 'context.jsonl'))).toBe(true);
    expect(existsSync(join(sandbox.home, 'sessions'))).toBe(false);

    const second = await sandbox.run(['--print', '--session', S2, '-p', 'hi'], {
      env: { KIMI_SHARE_DIR: share },
    });
    expect(second.code).toBe(0);
    expect(existsSync(join(sandbox.home, 'sessions', key!, S2, 'context.jsonl'))).toBe(true);
    expect(existsSync(join(share, 'sessions', key!, S2))).toBe(false);
  });
});
