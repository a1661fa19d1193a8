import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../support/run-cli.js';
import { ScriptedLLMServer } from '../support/scripted-llm-server.js';

let server: ScriptedLLMServer;
let sandbox: CliSandbox;

afterEach(async () => {
  await server?.close();
  await sandbox?.remove();
});

describe('KIMI_SHARE_DIR (the agent SDK passes its shareDir so)', () => {
  it('is the home folder when KIMI_TS_HOME is not set; KIMI_TS_HOME wins when both are', async () => {
    server = await ScriptedLLMServer.start([{ text: 'one' }, { text: 'two' }]);
    sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
    const share = join(sandbox.root, 'share');
    const first = await sandbox.run(['--print', '--session', 's1', '-p', 'hi'], {
      env: { KIMI_TS_HOME: '', KIMI_SHARE_DIR: share },
    });
    expect(first.code).toBe(0);
    const [key] = await readdir(join(share, 'sessions'));
    expect(existsSync(join(share, 'sessions', key!, 's1', 'context.jsonl'))).toBe(true);
    expect(existsSync(join(sandbox.home, 'sessions'))).toBe(false);

    const second = await sandbox.run(['--print', '--session', 's2', '-p', 'hi'], {
      env: { KIMI_SHARE_DIR: share },
    });
    expect(second.code).toBe(0);
    expect(existsSync(join(sandbox.home, 'sessions', key!, 's2', 'context.jsonl'))).toBe(true);
    expect(existsSync(join(share, 'sessions', key!, 's2'))).toBe(false);
  });
});
