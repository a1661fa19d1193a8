import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createKimiPaths, createSession, isLoggedIn, login, logout } from '@moonshot-ai/kimi-agent-sdk';
import { describe, expect, it } from 'vitest';
import { KimiCodeServer } from '../support/kimi-code-server.js';
import { CLI } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** An executable the SDK can spawn: the built CLI under this Node. */
async function kimiExecutable(dir: string): Promise<string> {
  const path = join(dir, 'kimi');
  await writeFile(path, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  await chmod(path, 0o755);
  return path;
}

const SDK_SESSION = '5d4e0000-0000-4000-8000-0000000005d4';

/** The sandbox's environment without KIMI_TS_HOME: what a program using the SDK passes. */
function sdkEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = cli.sandbox.env(extra) as Record<string, string>;
  delete env.KIMI_TS_HOME;
  return env;
}

describe("Moonshot's kimi-agent-sdk with its shareDir and CLI helpers", () => {
  it('a session made through shareDir lands where the SDK looks for it', async () => {
    await cli.setup([{ text: 'Stored where you look.' }]);
    const share = join(cli.sandbox.root, 'share');
    await mkdir(share);
    await copyFile(cli.sandbox.configFile, join(share, 'config.toml'));
    const session = createSession({
      workDir: cli.sandbox.workDir,
      // The SDK makes a UUID when none is given; a chosen id must be one too (a short id names a saved session).
      sessionId: SDK_SESSION,
      shareDir: share,
      executable: await kimiExecutable(cli.sandbox.root),
      env: sdkEnv(),
    });
    try {
      const turn = session.prompt('hi');
      for await (const _event of turn) {
        // drain
      }
      expect((await turn.result).status).toBe('finished');
    } finally {
      await session.close();
    }
    const dir = createKimiPaths(share).sessionDir(cli.sandbox.workDir, SDK_SESSION);
    expect(existsSync(join(dir, 'wire.jsonl'))).toBe(true);
    expect(existsSync(join(dir, 'context.jsonl'))).toBe(true);
  });

  it('login() and logout() run `kimi-ts login --json` / `logout`; isLoggedIn() follows', async () => {
    await cli.setup([]);
    const oauth = await KimiCodeServer.start();
    cli.defer(() => oauth.http.close());
    const share = join(cli.sandbox.root, 'share');
    const env = sdkEnv({
      KIMI_SHARE_DIR: share,
      KIMI_CODE_OAUTH_HOST: oauth.url,
      KIMI_CODE_BASE_URL: `${oauth.url}/coding/v1`,
    });
    const executable = await kimiExecutable(cli.sandbox.root);
    const urls: string[] = [];
    expect(isLoggedIn(share)).toBe(false);
    expect(await login({ executable, env, onUrl: (url) => urls.push(url) })).toEqual({ success: true });
    expect(urls).toEqual([`${oauth.url}/device?user_code=WXYZ-1234`]);
    expect(isLoggedIn(share)).toBe(true);
    expect(await logout({ executable, env })).toEqual({ success: true });
    expect(isLoggedIn(share)).toBe(false);
  });
});
