import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();
const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });

describe('#12: the line shell offers Kimi CLI’s approval choices and scopes', () => {
  it('approves a command prefix for the session and saves it as a rule; an empty line never approves; 4 rejects with feedback', async () => {
    const { server, sandbox } = await cli.setup([
      shell('s1', 'echo one'),
      { text: 'ok1' },
      shell('s2', 'echo two && echo three'),
      { text: 'ok2' },
      shell('s3', 'touch evil'),
      { text: 'Understood.' },
    ]);
    const input = [
      'first',
      '2', // approve for the session…
      '2', // …commands starting with `echo`
      'p', // and save it as a rule of this project
      'second', // `echo two && echo three`: every part starts with `echo`, nothing asked
      'third',
      '', // an empty line: asked again, nothing approved
      '4', // reject, saying what to do instead
      'leave the files alone',
      '/exit',
    ].join('\n');
    const result = await sandbox.run(['--ui', 'line'], { input: `${input}\n` });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('1 approve once');
    expect(out).toContain('2 approve for this session');
    expect(out).toContain('3 reject');
    expect(out).toContain('4 reject, saying what to do instead');
    expect(out).toContain('1 this exact command');
    expect(out).toContain('2 commands starting with `echo`');
    expect(out).toContain('3 every `run command`');
    expect(out.match(/approve\? /g)).toHaveLength(3); // first call, third call, once more after the empty line
    expect(out).toContain('ok2');
    expect(existsSync(join(sandbox.workDir, 'evil'))).toBe(false);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('leave the files alone');
    const rules = await readFile(join(sandbox.workDir, '.kimi-ts', 'permissions.toml'), 'utf8');
    expect(rules).toContain('pattern = "Shell(echo *)"');
  });

  it('approves every `run command` for the session with scope 3, without saving a rule', async () => {
    const { sandbox } = await cli.setup([
      shell('s1', 'touch a.txt'),
      { text: 'made a' },
      shell('s2', 'touch b.txt'),
      { text: 'made b' },
    ]);
    const result = await sandbox.run(['--ui', 'line'], { input: 'one\n2\n3\nn\ntwo\n/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/approve\? /g)).toHaveLength(1);
    expect(existsSync(join(sandbox.workDir, 'a.txt'))).toBe(true);
    expect(existsSync(join(sandbox.workDir, 'b.txt'))).toBe(true);
    expect(existsSync(join(sandbox.workDir, '.kimi-ts', 'permissions.toml'))).toBe(false);
  });
});
