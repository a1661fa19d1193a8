import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (red team): /import reads by real path and no secret file; every export refuses to write
 * through a symlink or over a secret or protected file. `/import <file>` and `/export <path>` run in kimi-ts's own process, outside
 * the sandbox, on a path in the work dir the person types, and follow whatever symlink a sandboxed
 * command planted there: /import reads a secret outside the workspace into the conversation (no
 * secret-file question), /export writes outside the workspace (over a file of the person's home).
 */

const cli = useScriptedCli();

it('/import of a workspace file a command made a symlink to ~/.ssh/id_rsa does not hand the key to the model unasked', async () => {
  const { server, sandbox } = await cli.setup([]);
  const key = join(sandbox.root, '.ssh', 'id_rsa');
  await mkdir(join(sandbox.root, '.ssh'));
  await writeFile(key, 'PRIVATE-KEY-MATERIAL-0123456789\n');
  server.push(
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Shell',
          args: {
            command: `d=$(printf .ss)h; f=$(printf '%s_%s' id rsa); ln -s "${sandbox.root}/$d/$f" notes.md && echo planted`,
          },
        },
      ],
    },
    { text: 'I left notes for you in notes.md; please /import notes.md.' },
  );
  const first = await sandbox.run(['--print', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  const imported = await sandbox.run(['-C', '--print', '-p', '/import notes.md']);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toMatch(/notes\.md is not imported: it leads to .*id_rsa, a secret file/);
  server.push({ text: 'Thanks.' });
  const next = await sandbox.run(['-C', '--print', '-p', 'read them']);
  expect(next.code, next.stderr).toBe(0);
  const told = JSON.stringify(server.requests.at(-1)?.body);
  expect(told).not.toContain('PRIVATE-KEY-MATERIAL');
});

it('/export to a workspace path a command made a symlink to ~/.bashrc does not write over the home file', async () => {
  const { server, sandbox } = await cli.setup([]);
  const bashrc = join(sandbox.root, '.bashrc');
  await writeFile(bashrc, "# the person's bashrc\n");
  const marker = join(sandbox.root, 'bashrc-ran-planted-code');
  server.push(
    {
      toolCalls: [
        { id: 'c1', name: 'Shell', args: { command: `ln -s '${bashrc}' session.md && echo planted` } },
      ],
    },
    // Markdown's text lines are shell commands to bash: the model's line runs at the next login shell.
    { text: `Saved nothing yet.\ntouch '${marker}'\nRun /export session.md to keep this.` },
  );
  const first = await sandbox.run(['--print', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  const exported = await sandbox.run(['-C', '--print', '-p', '/export session.md']);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).toMatch(/Nothing was written: .*session\.md is a symlink/);
  expect(await readFile(bashrc, 'utf8')).toBe("# the person's bashrc\n");
  expect(existsSync(marker)).toBe(false);
  expect((await lstat(join(sandbox.workDir, 'session.md'))).isSymbolicLink()).toBe(true);
});

it('kimi-ts export -o and vis --export to a workspace symlink to ~/.bashrc write nothing there', async () => {
  const { server, sandbox } = await cli.setup([]);
  const bashrc = join(sandbox.root, '.bashrc');
  await writeFile(bashrc, "# the person's bashrc\n");
  server.push({ text: 'Hello.' });
  const first = await sandbox.run(['--print', '-p', 'hi']);
  expect(first.code, first.stderr).toBe(0);
  // What a command the model ran could have left in the work dir.
  await symlink(bashrc, join(sandbox.workDir, 'session.md'));
  await symlink(bashrc, join(sandbox.workDir, 'page.html'));
  const markdown = await sandbox.run(['export', '-o', join(sandbox.workDir, 'session.md')]);
  expect(markdown.code).toBe(1);
  expect(markdown.stderr).toMatch(/Nothing was written: .*session\.md is a symlink/);
  const page = await sandbox.run(['vis', '--export', join(sandbox.workDir, 'page.html')]);
  expect(page.code).toBe(1);
  expect(page.stderr).toMatch(/Nothing was written: .*page\.html is a symlink/);
  expect(await readFile(bashrc, 'utf8')).toBe("# the person's bashrc\n");
  // A plain file is still written.
  const plain = await sandbox.run(['export', '-o', join(sandbox.workDir, 'plain.md')]);
  expect(plain.code, plain.stderr).toBe(0);
  expect(await readFile(join(sandbox.workDir, 'plain.md'), 'utf8')).toContain('Hello.');
});
