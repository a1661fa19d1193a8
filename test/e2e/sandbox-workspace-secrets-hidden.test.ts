import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWireSession } from '../support/wire-session.js';

/**
 * Issue #24, the workspace's own secret files (found by a red team, written as the attacks first):
 * with the sandbox on (the default), a command that reads whole folders named no secret file, so the
 * policy asked nothing, and `.env`'s values reached the model in print mode while `cat .env` was
 * refused. The sandbox now hides every secret file of the workspace: it reads as empty.
 */

const cli = useScriptedCli();

/** What the model was sent back from the tools of the step `request` answers (only the tool messages). */
function toolMessages(body: unknown): string {
  const { messages } = body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

/** The workspace's secret files, each with a value of its own the model must never see. */
const SECRETS: Record<string, string> = {
  '.env': 'API_KEY=dotenv-secret-value-0001\n',
  'services/api/.env': 'API_KEY=nested-secret-value-0002\n',
  'deploy/prod.env': 'API_KEY=prodenv-secret-value-0003\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npmrc-secret-value-0004\n',
  '.envrc': 'export API_KEY=envrc-secret-value-0005\n',
};

async function writeSecrets(workDir: string): Promise<void> {
  for (const [name, content] of Object.entries(SECRETS)) {
    await mkdir(dirname(join(workDir, name)), { recursive: true });
    await writeFile(join(workDir, name), content);
  }
  // A remote's URL with a token: `.git/config` is secret by its content.
  await mkdir(join(workDir, '.git'), { recursive: true });
  await writeFile(
    join(workDir, '.git', 'config'),
    `[remote "origin"]\n\turl = https://x-access-token:${TOKEN}@github.com/o/r.git\n`,
  );
  await writeFile(join(workDir, 'README.md'), 'API_KEY is read from the environment\n');
}

/** Which of the secret values (and the token) `text` holds. */
function leaked(text: string): string[] {
  const values = Object.values(SECRETS).map((content) => /[a-z]+-secret-value-\d+/.exec(content)![0]);
  return [...values, TOKEN].filter((value) => text.includes(value));
}

// Each reads every file of the tree, none by a name the policy could see (the red team's, made to
// print the values in clear where they first did so encoded: `tar c . | base64` is the same leak).
const READ_EVERYTHING = [
  'grep -r API_KEY . ; grep -r x-access-token .',
  'tar c . | tar xO',
  'find . -type f -exec cat {} +',
  'cat $(ls -a | grep env) "$(printf .gi)t/c$(echo onfig)"',
];

describe('the workspace secret files are hidden from sandboxed commands (print mode)', () => {
  it.each(READ_EVERYTHING)('`%s` hands none of them to the model', async (command) => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] },
      { text: 'done' },
    ]);
    await writeSecrets(sandbox.workDir);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look around']);
    expect(result.code).toBe(0);
    const sent = toolMessages(server.requests[1]!.body);
    expect(leaked(sent)).toEqual([]);
    // The command did run, and read the rest of the tree.
    // Each hidden file reads as empty: `cat` of them all succeeds with nothing to show.
    expect(sent).toContain(
      command.startsWith('cat') ? 'Command executed successfully' : 'API_KEY is read from the environment',
    );
  });

  // Issue #24 (red4): a symlink named `.env` leads to the values it names, under a plain name; the
  // file it leads to reads as empty (it read whole before). A folder named `.env` stays as it is.
  it('a folder named .env stays as it is, a symlink named .env reads as empty; a test command runs', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'c',
            name: 'Shell',
            args: {
              command:
                'e=.e$(echo nv); cat link/$e; ls dir/$e; cat dir/$e/notes.txt; npm test 2>&1 | grep -o "tests passed"',
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    await writeSecrets(sandbox.workDir);
    await writeFile(join(sandbox.workDir, 'plain.txt'), 'plain-visible-text\n');
    await mkdir(join(sandbox.workDir, 'link'));
    await symlink('../plain.txt', join(sandbox.workDir, 'link', '.env'));
    await mkdir(join(sandbox.workDir, 'dir', '.env'), { recursive: true });
    await writeFile(join(sandbox.workDir, 'dir', '.env', 'notes.txt'), 'folder-visible-text\n');
    await writeFile(
      join(sandbox.workDir, 'package.json'),
      JSON.stringify({ name: 'p', scripts: { test: 'node -e "console.log(\'tests passed\')"' } }),
    );
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look around']);
    expect(result.code).toBe(0);
    const sent = toolMessages(server.requests[1]!.body);
    expect(sent).not.toContain('plain-visible-text');
    expect(sent).toContain('notes.txt');
    expect(sent).toContain('folder-visible-text');
    expect(sent).toContain('tests passed');
    expect(leaked(sent)).toEqual([]);
  });

  it('a write to a hidden secret file fails with a read-only error and leaves the file as it was', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [{ id: 'c', name: 'Shell', args: { command: 'echo EXTRA=1 >> "$(echo .e)nv"' } }],
      },
      { text: 'done' },
    ]);
    await writeSecrets(sandbox.workDir);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'add a variable']);
    expect(result.code).toBe(0);
    expect(toolMessages(server.requests[1]!.body)).toContain('Read-only file system');
    expect(await readFile(join(sandbox.workDir, '.env'), 'utf8')).toBe(SECRETS['.env']);
  });

  it('[sandbox] hide_workspace_secrets = false in the person config shows them again', async () => {
    const { server, sandbox } = await cli.setup(
      [
        { toolCalls: [{ id: 'c', name: 'Shell', args: { command: 'cat "$(echo .e)nv"' } }] },
        { text: 'done' },
      ],
      { extraToml: '\n[sandbox]\nhide_workspace_secrets = false\n' },
    );
    await writeSecrets(sandbox.workDir);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
    expect(result.code).toBe(0);
    expect(toolMessages(server.requests[1]!.body)).toContain('dotenv-secret-value-0001');
  });
});

describe('the workspace secret files in a wire session', () => {
  it('a .env the person makes between two turns is hidden from the next turn', async () => {
    const command = 'cat "$(echo .e)nv" sub/"$(echo .e)nv"; echo read-done';
    await cli.setup([
      { toolCalls: [{ id: 'a', name: 'Shell', args: { command } }] },
      { text: 'first done' },
      { toolCalls: [{ id: 'b', name: 'Shell', args: { command } }] },
      { text: 'second done' },
    ]);
    const { server, sandbox } = cli;
    const wire = await startWireSession(sandbox);
    await wire.prompt('first');
    await mkdir(join(sandbox.workDir, 'sub'));
    await writeFile(join(sandbox.workDir, '.env'), 'API_KEY=later-secret-value-0006\n');
    await writeFile(join(sandbox.workDir, 'sub', '.env'), 'API_KEY=later-secret-value-0007\n');
    await wire.prompt('second');
    await wire.close();
    const sent = toolMessages(server.requests[3]!.body);
    expect(sent).toContain('read-done');
    expect(sent).not.toContain('later-secret-value');
  });

  it('an approved `cat .env` shows its value; the other secret files stay hidden', async () => {
    await cli.setup([
      {
        toolCalls: [{ id: 'a', name: 'Shell', args: { command: 'cat .env; cat deploy/"$(echo prod)".env' } }],
      },
      { text: 'done' },
    ]);
    const { server, sandbox } = cli;
    await writeSecrets(sandbox.workDir);
    const asked: string[] = [];
    const wire = await startWireSession(sandbox, [], (request) => {
      asked.push(request.action);
      return 'approve';
    });
    await wire.prompt('show me the env');
    await wire.close();
    expect(asked.some((action) => action.startsWith('secret:'))).toBe(true);
    const sent = toolMessages(server.requests[1]!.body);
    expect(sent).toContain('dotenv-secret-value-0001');
    expect(sent).not.toContain('prodenv-secret-value-0003');
  });
});
