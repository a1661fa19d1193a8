import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * The file tools run in kimi-ts's own process: `/proc/self/environ` is kimi-ts's environment (the
 * person's credentials in it), `/proc/self/mem` its memory. A model reading or searching them in
 * print mode (nobody to ask) is refused; other `/proc` files stay readable.
 */

const cli = useScriptedCli();
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

it.each([
  ['Grep', { pattern: 'ghp_', path: '/proc/self/environ', output_mode: 'content' }],
  ['Grep', { pattern: 'GITHUB', path: '/proc/self', output_mode: 'content' }],
  ['ReadFile', { path: '/proc/self/environ' }],
  ['ReadFile', { path: '/proc/thread-self/environ' }],
])("%s %j: kimi-ts's own process files are secret", async (name, args) => {
  const { sandbox } = await cli.setup([{ toolCalls: [{ id: 'c1', name, args }] }, { text: 'Done.' }]);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look'], {
    env: { GITHUB_TOKEN: TOKEN },
  });
  expect(result.code).toBe(0);
  expect(result.stdout).not.toContain(TOKEN);
  expect(result.stdout).not.toContain('GITHUB_TOKEN=');
  expect(result.stdout).toMatch(/secret|refused|not allowed|denied/i);
});

it('other /proc files are read as usual', async () => {
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Grep',
          args: { pattern: 'MemTotal', path: '/proc/meminfo', output_mode: 'content' },
        },
      ],
    },
    { text: 'Done.' },
  ]);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('MemTotal');
});

it.each([['cat /proc/$PPID/environ'], ["tr '\\0' '\\n' < /proc/$PPID/environ"], ['cat /proc/*/environ']])(
  'with the sandbox off, `%s` in print mode is a secret read, refused',
  async (command) => {
    const { sandbox } = await cli.setup(
      [{ toolCalls: [{ id: 'c1', name: 'Shell', args: { command } }] }, { text: 'Done.' }],
      { extraToml: '[sandbox]\nmode = "off"\n' },
    );
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look'], {
      env: { GITHUB_TOKEN: TOKEN },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stdout).toMatch(/secret/i);
  },
);
