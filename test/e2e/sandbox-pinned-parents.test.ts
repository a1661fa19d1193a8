import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * What the sandbox hides or keeps read-only inside the workspace (the config file kimi-ts loaded, the
 * agent's home) is a mount point a command cannot rename or remove; the folders above it are not,
 * unless the sandbox pins them too. A hostile model moves such a folder away and makes a new one with
 * a config of its own in its place: the next session would load it, outside any sandbox (its
 * provider's base URL, its rules, the sandbox turned off).
 */

const cli = useScriptedCli();

it('a command can neither move the folder holding the config file nor the one holding the agent home, and make a new one', async () => {
  const attack = [
    'mv conf conf-old',
    // The config's name never appears as a word: the policy asks for a command naming it (a secret).
    `node -e "require('fs').mkdirSync('conf'); require('fs').writeFileSync('conf/kimi' + '.toml', 'x')"`,
    'mv state state-old',
    `node -e "require('fs').mkdirSync('state/kimi' + '-home', { recursive: true }); require('fs').writeFileSync('state/kimi' + '-home/config.toml', 'x')"`,
    'echo fine > conf/fine.txt',
    'echo finished',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    { text: 'Done.' },
  ]);
  const work = sandbox.workDir;
  await mkdir(join(work, 'conf'));
  const config = join(work, 'conf', 'kimi.toml');
  await copyFile(sandbox.configFile, config);
  const before = await readFile(config, 'utf8');
  const home = join(work, 'state', 'kimi-home');
  await mkdir(home, { recursive: true });
  const result = await sandbox.run(
    ['--config-file', config, '-w', work, '--print', '--output-format', 'stream-json', '-p', 'go'],
    { bare: true, env: { KIMI_TS_HOME: home } },
  );
  expect(result.code, result.stderr).toBe(0);
  const [shellResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain("cannot move 'conf' to 'conf-old': Device or resource busy");
  expect(shellResult).toContain("cannot move 'state' to 'state-old': Device or resource busy");
  expect(existsSync(join(work, 'conf-old'))).toBe(false);
  expect(existsSync(join(work, 'state-old'))).toBe(false);
  expect(await readFile(config, 'utf8')).toBe(before);
  expect(existsSync(join(home, 'config.toml'))).toBe(false);
  // What the pinned folder holds stays writable.
  expect(await readFile(join(work, 'conf', 'fine.txt'), 'utf8')).toBe('fine\n');
});

it("kimi-ts run in the home: the folders above a config in a project are pinned, and a pin never makes the home's dot folders writable", async () => {
  const attack = [
    'mv proj/app proj/app-old',
    'echo evil > .config/evil.desktop',
    'echo fine > proj/fine.txt',
    'echo finished',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    { text: 'Done.' },
  ]);
  const home = sandbox.workDir;
  // A hidden credential folder inside a dot folder: its parent (.config) is read-only already.
  await mkdir(join(home, '.config', 'gh'), { recursive: true });
  await mkdir(join(home, 'proj', 'app', 'conf'), { recursive: true });
  const config = join(home, 'proj', 'app', 'conf', 'kimi.toml');
  await copyFile(sandbox.configFile, config);
  const result = await sandbox.run(
    ['--config-file', config, '-w', home, '--print', '--output-format', 'stream-json', '-p', 'go'],
    { bare: true, env: { HOME: home } },
  );
  expect(result.code, result.stderr).toBe(0);
  const [shellResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain("cannot move 'proj/app' to 'proj/app-old': Device or resource busy");
  expect(shellResult).toContain('.config/evil.desktop: Read-only file system');
  expect(existsSync(join(home, 'proj', 'app-old'))).toBe(false);
  expect(existsSync(join(home, '.config', 'evil.desktop'))).toBe(false);
  expect(await readFile(join(home, 'proj', 'fine.txt'), 'utf8')).toBe('fine\n');
});
