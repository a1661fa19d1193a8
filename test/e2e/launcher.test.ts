import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
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

/** Runs the CLI with its code cache in the sandbox home (the default place), reporting its verdict. */
function runWithHomeCache(args: string[], bare = false) {
  return sandbox.run(args, {
    bare,
    env: { KIMI_TS_CODE_CACHE_DIR: '', KIMI_TS_DEBUG_CODE_CACHE: '1' },
  });
}

describe('the kimi-ts launcher and its code cache', () => {
  it("saves a code cache after a run (dropping older builds' caches), uses it next time, and replaces a damaged one", async () => {
    server = await ScriptedLLMServer.start([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
    const cacheDir = join(sandbox.home, 'cache', 'v8');

    await mkdir(cacheDir, { recursive: true });
    await writeFile(join(cacheDir, 'cli-v0.0.0-x64-1-1.bin'), 'the cache of an older build');
    const first = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('one\n');
    expect(first.stderr).toContain('kimi-ts code cache: none');
    const [file, ...others] = await readdir(cacheDir);
    expect(file).toMatch(/^cli-v\d+.*\.bin$/);
    expect(others).toEqual([]);
    const written = await stat(join(cacheDir, file!));

    const second = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(second.stdout).toBe('two\n');
    expect(second.stderr).toContain('kimi-ts code cache: accepted');
    expect((await stat(join(cacheDir, file!))).mtimeMs).toBe(written.mtimeMs);

    await writeFile(join(cacheDir, file!), 'not a code cache');
    const third = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('three\n');
    expect(third.stderr).toContain('kimi-ts code cache: rejected');
    expect((await readFile(join(cacheDir, file!))).length).toBeGreaterThan(1000);
    expect(await readdir(cacheDir)).toEqual([file]);
  });

  it('writes no cache for a run that never reached a turn, and none when turned off', async () => {
    server = await ScriptedLLMServer.start([{ text: 'answer' }]);
    sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
    const version = await runWithHomeCache(['--version'], true);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/\d+\.\d+\.\d+/);
    const off = await sandbox.run(['--print', '-p', 'hi'], {
      env: { KIMI_TS_CODE_CACHE_DIR: '', KIMI_TS_NO_CODE_CACHE: '1' },
    });
    expect(off.stdout).toBe('answer\n');
    await expect(readdir(join(sandbox.home, 'cache'))).rejects.toThrow(/ENOENT/);
  });
});

describe('--debug', () => {
  it('runs the unbundled CLI so a fatal error shows a stack trace in the TypeScript sources', async () => {
    server = await ScriptedLLMServer.start([]);
    sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
    const agentFile = join(sandbox.root, 'agent.yaml');
    await writeFile(join(sandbox.root, 'system.md'), 'You help.');
    await writeFile(
      agentFile,
      'version: 1\nagent:\n  name: broken\n  system_prompt_path: ./system.md\n  tools:\n    - "./nowhere.mjs:Nothing"\n',
    );
    const plain = await sandbox.run(['--print', '-p', 'hi', '--agent-file', agentFile]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('Run with --debug for the full traceback.');
    const debug = await sandbox.run(['--print', '-p', 'hi', '--agent-file', agentFile, '--debug']);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/at .*src\/toolset\/tool-loader\.ts:\d+/);
  });
});
