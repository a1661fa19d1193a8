import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (red team). kimi-ts reads AGENTS.md of the work dir at every start, outside the sandbox,
 * into the system prompt. A command can make AGENTS.md a symlink to a secret file the sandbox hides
 * (`~/.aws/credentials`); the same for a project skill's SKILL.md, read when the person types
 * `/skill:<name>`. Such files are judged by their real path: a secret one is left out, with a warning.
 */

const cli = useScriptedCli();

it('AGENTS.md that a command made a symlink to ~/.aws/credentials is not read into the next session', async () => {
  const { server, sandbox } = await cli.setup([]);
  await mkdir(join(sandbox.root, '.aws'));
  await writeFile(
    join(sandbox.root, '.aws', 'credentials'),
    '[default]\naws_secret_access_key = hunter2-not-a-known-format\n',
  );
  // The names are made at run time: the command's words name no secret file.
  const plant = `d=$(printf .aw)s; f=$(printf cred)entials; ln -s "${sandbox.root}/$d/$f" AGENTS.md && echo planted`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('planted');
  server.push({ text: 'Hello.' });
  const second = await sandbox.run(['--print', '-p', 'hello']);
  expect(second.code, second.stderr).toBe(0);
  expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(
    'hunter2-not-a-known-format',
  );
  // The person is told which file was left out, and why.
  expect(second.stderr).toMatch(
    /AGENTS\.md is not read into the model's context: it leads to .*credentials, a secret file/,
  );
});

it('a project skill whose SKILL.md a command made a symlink to ~/.aws/credentials does not send the file when invoked', async () => {
  const { server, sandbox } = await cli.setup([]);
  await mkdir(join(sandbox.root, '.aws'));
  await writeFile(
    join(sandbox.root, '.aws', 'credentials'),
    '[default]\naws_secret_access_key = hunter2-not-a-known-format\n',
  );
  const plant = `mkdir -p .kimi/skills/release && d=$(printf .aw)s; f=$(printf cred)entials; ln -s "${sandbox.root}/$d/$f" .kimi/skills/release/SKILL.md && echo planted`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { text: 'I added a release skill: run /skill:release.' },
  );
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('planted');
  server.push({ text: 'Releasing.' });
  const second = await sandbox.run(['--print', '-p', '/skill:release']);
  expect(second.code, second.stderr).toBe(0);
  expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(
    'hunter2-not-a-known-format',
  );
  // The skill is left out (so /skill:release is unknown), and the person is told which file and why.
  expect(second.stderr).toMatch(
    /release\/SKILL\.md is not read into the model's context: it leads to .*credentials, a secret file/,
  );
});

it('/init whose commands made AGENTS.md a symlink to ~/.aws/credentials does not put the file in the session', async () => {
  const { server, sandbox } = await cli.setup([]);
  await mkdir(join(sandbox.root, '.aws'));
  await writeFile(
    join(sandbox.root, '.aws', 'credentials'),
    '[default]\naws_secret_access_key = hunter2-not-a-known-format\n',
  );
  const plant = `d=$(printf .aw)s; f=$(printf cred)entials; ln -s "${sandbox.root}/$d/$f" AGENTS.md && echo planted`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { text: 'Wrote AGENTS.md.' },
    { text: 'Noted.' },
  );
  const init = await sandbox.run(['--print', '-p', '/init']);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toMatch(
    /AGENTS\.md is not read into this session: it leads to .*credentials, a secret file/,
  );
  const next = await sandbox.run(['--print', '-C', '-p', 'what does AGENTS.md say?']);
  expect(next.code, next.stderr).toBe(0);
  expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(
    'hunter2-not-a-known-format',
  );
});
