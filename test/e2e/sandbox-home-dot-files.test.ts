import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * kimi-ts run in the person's home (HOME = the work dir): a command the model runs may write in the
 * workspace, but not the startup files that would run later outside any sandbox, existing or not.
 */

const cli = useScriptedCli();

it('a command run with the home as work dir cannot change or create the startup files there', async () => {
  const attack = [
    'echo evil >> ~/.bashrc',
    'echo evil > ~/.bash_profile',
    'mkdir -p ~/.config/autostart && echo evil > ~/.config/autostart/x.desktop',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: `${attack}; echo finished` } }] },
    { text: 'Done.' },
  ]);
  const home = sandbox.workDir;
  await writeFile(join(home, '.bashrc'), 'original\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    env: { HOME: home },
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('finished');
  expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('original\n');
  expect(existsSync(join(home, '.bash_profile'))).toBe(false);
  expect(existsSync(join(home, '.config'))).toBe(false);
});

it('the file tools, even in yolo, do not write the startup files of a home that is the work dir', async () => {
  const write = (id: string, path: string) => ({ id, name: 'WriteFile', args: { path, content: 'evil\n' } });
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        write('w1', '.bashrc'),
        write('w2', '.bash_profile'),
        write('w3', 'bin/git'),
        write('w4', '.config/fish/config.fish'),
        write('w5', 'notes.txt'),
      ],
    },
    { text: 'Done.' },
  ]);
  const home = sandbox.workDir;
  await writeFile(join(home, '.bashrc'), 'original\n');
  const result = await sandbox.run(['--print', '--yolo', '--output-format', 'stream-json', '-p', 'go'], {
    env: { HOME: home },
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('a startup file of your home');
  expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('original\n');
  expect(existsSync(join(home, '.bash_profile'))).toBe(false);
  expect(existsSync(join(home, 'bin', 'git'))).toBe(false);
  expect(existsSync(join(home, '.config'))).toBe(false);
  expect(await readFile(join(home, 'notes.txt'), 'utf8')).toBe('evil\n');
});
