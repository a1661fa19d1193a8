import { describe, expect, it, onTestFinished } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();
const HINT = "Try 'kimi-ts --help' for help.";

describe('usage errors exit 2 with a hint to --help, as Kimi CLI', () => {
  it.each([
    [['--config'], "option '--config <text>' argument missing"],
    [
      ['--session', 'abc', '--continue', '--print', '-p', 'hi'],
      'Invalid value for --continue: Cannot combine --continue, --session.',
    ],
    [
      ['--continue', '--print', '-p', 'hi'],
      'Invalid value for --continue: No previous session found for the working directory',
    ],
    [['--print', '--wire'], 'Cannot combine --print and --wire.'],
    [['--no-such-flag'], "unknown option '--no-such-flag'"],
  ])('%j', async (args, message) => {
    const { server, sandbox } = await cli.setup([]);
    const result = await sandbox.run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(HINT);
    expect(result.stderr).toContain(`Error: ${message}`);
    expect(server.requests).toHaveLength(0);
  });
});

it('config text that does not validate is a bad value of --config: exit 2', async () => {
  const { server, sandbox } = await cli.setup([]);
  const args = ['--config', '{"default_model": 1}', '-w', sandbox.workDir, '--print', '-p', 'hi'];
  const result = await sandbox.run(args, { bare: true });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(HINT);
  expect(result.stderr).toContain('Error: Invalid value for --config: Invalid config in --config');
  expect(server.requests).toHaveLength(0);
});

describe('mistyped commands and prompts on the command line', () => {
  it('suggests the nearest command for one word close to a command name', async () => {
    const { server, sandbox } = await cli.setup([]);
    for (const [typed, meant] of [
      ['sesions', 'sessions'],
      ['doctr', 'doctor'],
      ['exprot', 'export'],
    ]) {
      const result = await sandbox.run([typed!]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`unknown command '${typed}'. Did you mean '${meant}'?`);
      expect(result.stderr).toContain(HINT);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('runs a prompt given as words with --print, headless', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'Fixed it.' }]);
    const result = await sandbox.run(['--print', 'fix the bug']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Fixed it.');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('fix the bug');
  });

  it('sends a prompt given as words first in the interactive shell', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'On it.' }]);
    const result = await sandbox.run(['--ui', 'line', 'fix', 'the', 'bug'], { input: '/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('On it.');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('fix the bug');
  });

  it('refuses a prompt given both ways, and one given to --wire', async () => {
    const { sandbox } = await cli.setup([]);
    const both = await sandbox.run(['--print', '-p', 'one', 'two words']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give the prompt once');
    const wire = await sandbox.run(['--wire', 'fix the bug']);
    expect(wire.code).toBe(2);
  });

  it('says in --help how a prompt is told from a command, and the exit codes', async () => {
    const { sandbox } = await cli.setup([]);
    const help = await sandbox.run(['--help'], { bare: true });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('kimi-ts "fix the failing test"');
    expect(help.stdout).toContain('mistyped command');
    expect(help.stdout).toContain('2 usage error');
    expect(help.stdout).toContain('doctor');
  });
});

// `web` and `vis` own `-p` (the port) after their names, as in Kimi CLI: a bad port is refused
// before anything is served. The main command's `-p` (the prompt) would take it and serve instead.
it.each([['web'], ['vis']])('%s -p takes a port after the subcommand', async (subcommand) => {
  const { server, sandbox } = await cli.setup([]);
  const child = sandbox.spawn([subcommand, '-p', 'not-a-port', '--no-open'], { input: '' });
  // Were `-p` taken as the prompt, the server would start and serve until stopped: never left running.
  onTestFinished(() => void child.kill());
  const result = await collect(child);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('must be a port (0-65535).');
  expect(server.requests).toHaveLength(0);
});

it('a prompt that is the word "vis" is still a prompt', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'seen' }]);
  const result = await sandbox.run(['--print', '-p', 'vis']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('seen');
  expect(server.requests).toHaveLength(1);
});
