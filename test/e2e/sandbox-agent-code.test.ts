import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * An agent spec given with `--agent-file` from inside the workspace, with a tool module of its own
 * (examples/custom-tool): kimi-ts loads that module into its own process at the next start, outside any
 * sandbox. A hostile model tries to change the module, the spec (to name a module of its own), or move
 * their folder away and make a new one, through a command and through the file tools.
 */

const cli = useScriptedCli();
const example = resolve(import.meta.dirname, '../../examples/custom-tool');

it('a command cannot change the agent spec or its tool module, nor move their folder; the file tools cannot either', async () => {
  const attack = [
    'echo "process.exit(7)" >> agent/word-count.mjs',
    'echo "    - ./evil.mjs:Evil" >> agent/agent.yaml',
    'mv agent agent-old',
    'echo fine > fine.txt',
    'echo finished',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'agent/word-count.mjs', content: 'evil' } }] },
    { text: 'Done.' },
  ]);
  const agent = join(sandbox.workDir, 'agent');
  await cp(example, agent, { recursive: true });
  // The example's tools and WriteFile, for the file tools' attempt.
  const withWrite = (await readFile(join(agent, 'agent.yaml'), 'utf8')).replace(
    '    - "./word-count.mjs:WordCount"',
    '    - "kimi-ts/tools/file/write-file:WriteFile"\n    - "./word-count.mjs:WordCount"',
  );
  await writeFile(join(agent, 'agent.yaml'), withWrite);
  const before = await readFile(join(agent, 'word-count.mjs'), 'utf8');
  const spec = await readFile(join(agent, 'agent.yaml'), 'utf8');
  const result = await sandbox.run([
    '--agent-file',
    join(agent, 'agent.yaml'),
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(result.code, result.stderr).toBe(0);
  const [shellResult, writeResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain('Read-only file system');
  expect(shellResult).toContain("cannot move 'agent' to 'agent-old': Device or resource busy");
  expect(writeResult).toContain('agent spec');
  expect(await readFile(join(agent, 'word-count.mjs'), 'utf8')).toBe(before);
  expect(await readFile(join(agent, 'agent.yaml'), 'utf8')).toBe(spec);
  expect(existsSync(join(sandbox.workDir, 'agent-old'))).toBe(false);
  expect(await readFile(join(sandbox.workDir, 'fine.txt'), 'utf8')).toBe('fine\n');
});

it('without the sandbox, kimi-ts says at start that commands could change the agent spec it loads', async () => {
  const { sandbox } = await cli.setup([{ text: 'Done.' }, { text: 'Done.' }]);
  const agent = join(sandbox.workDir, 'agent');
  await cp(example, agent, { recursive: true });
  const result = await sandbox.run([
    '--agent-file',
    join(agent, 'agent.yaml'),
    '--sandbox',
    'off',
    '--print',
    '-p',
    'go',
  ]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    `${join(agent, 'agent.yaml')}, which kimi-ts loads or runs outside any sandbox`,
  );
  expect(result.stderr).toContain('the sandbox is not on');
  // With the default agent (kimi-ts's own spec, outside the workspace) there is nothing to say.
  const plain = await sandbox.run(['--sandbox', 'off', '--print', '-p', 'go']);
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stderr).not.toContain('which kimi-ts loads or runs outside any sandbox');
});

it("a command cannot change a script the person's hook runs (hooks run outside the sandbox); the rest of its folder stays writable", async () => {
  const server = await cli.startServer();
  const { sandbox } = {
    sandbox: await cli.createSandbox({
      baseUrl: server.baseUrl,
      extraToml: '[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Shell$"\ncommand = "sh scripts/hook.sh"\n',
    }),
  };
  const marker = join(sandbox.workDir, '..', 'hook-ran-planted-code');
  const attack = [
    `echo "touch '${marker}'" >> scripts/hook.sh`,
    'echo fine > scripts/other.sh',
    'echo finished',
  ].join('; ');
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo again' } }] },
    { text: 'Done.' },
  );
  await mkdir(join(sandbox.workDir, 'scripts'));
  await writeFile(join(sandbox.workDir, 'scripts', 'hook.sh'), 'exit 0\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  const [shellResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain('Read-only file system');
  expect(existsSync(marker)).toBe(false);
  expect(await readFile(join(sandbox.workDir, 'scripts', 'hook.sh'), 'utf8')).toBe('exit 0\n');
  expect(await readFile(join(sandbox.workDir, 'scripts', 'other.sh'), 'utf8')).toBe('fine\n');
});
