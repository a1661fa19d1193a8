import { link, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (red4, finding 3): a token in a plain-named file of the workspace that nothing scanned
 * yet. The sandbox scans the work tree's files and binds, over each one holding a token, a read-only
 * copy with every token replaced by a marker of the same length: commands read the rest of the file
 * (a test reading its sample data still runs), never the token, however they name or reverse it.
 */

const cli = useScriptedCli();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');
/** What a command can print to rebuild the token without naming it (the model's trick). */
const PRINT_TOKEN = `printf '%s%s\\n' ghp_ ${TOKEN.slice(4)}`;

/** The default config: the content scan is on. */
const SCAN_TOKENS = '';
/** The person's opt-out (`[sandbox] scan_workspace_tokens = false`). */
const NO_SCAN = '[sandbox]\nscan_workspace_tokens = false\n';

/** The tool messages the model was sent in `request`, as one string. */
function toolMessages(body: unknown): string {
  const { messages } = body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

/** Runs the commands in order (one step each) in a workspace `plant` fills; what the model got back. */
async function sentBy(
  commands: readonly string[],
  plant: (dir: string) => Promise<void>,
  extraToml = SCAN_TOKENS,
): Promise<string> {
  const { server, sandbox } = await cli.setup(
    [
      ...commands.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'Shell', args: { command } }] })),
      { text: 'done' },
    ],
    { extraToml },
  );
  await plant(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  return toolMessages(server.requests[commands.length]!.body);
}

describe('a token in a plain-named file reaches no sandboxed command', () => {
  it('a token one command appends to a file already scanned clean is not read by the next', async () => {
    const sent = await sentBy([`${PRINT_TOKEN} >> notes.txt`, 'cat "$(ls | grep notes)" | rev'], (dir) =>
      writeFile(join(dir, 'notes.txt'), 'deploy notes\n'),
    );
    expect(sent).not.toContain(REVERSED);
    // The rest of the file is there, and the first command did write.
    expect(sent).toContain('seton yolped');
    expect(sent).toContain('_phg');
  });

  it('a file renamed into place from a folder the scan skips is not read whole', async () => {
    const sent = await sentBy(
      ['mv "$(find node_modules -type f)" notes.txt', 'cat "$(ls | grep notes)" | rev'],
      async (dir) => {
        await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true });
        await writeFile(join(dir, 'node_modules', 'pkg', 'stash'), `push with ${TOKEN}\n`);
      },
    );
    expect(sent).not.toContain(REVERSED);
    expect(sent).toContain('htiw hsup');
  });

  // The scan reads a file's first MiB and on to the end of a token that runs past it.
  it('a token across the first MiB of a file is replaced whole', async () => {
    const sent = await sentBy(['tail -c 200 "$(ls | grep big)" | rev'], (dir) =>
      writeFile(join(dir, 'big.log'), `${'x'.repeat(1024 * 1024 - 10)} ${TOKEN}\nend\n`),
    );
    expect(sent).not.toContain(REVERSED.slice(0, 20));
    expect(sent).not.toContain(REVERSED.slice(-20));
    expect(sent).toContain('dne');
  });

  it('the copies are gone when the session ends', async () => {
    const sent = await sentBy(['cat "$(ls | grep notes)" | rev'], (dir) =>
      writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`),
    );
    expect(sent).toContain('htiw hsup');
    const cache = join(cli.sandbox.home, 'cache');
    const folders = (await readdir(cache)).filter((name) => name.startsWith('redacted-copies-'));
    expect(folders).toEqual([]);
  });

  it('a symlink to a token file reads the copy', async () => {
    const sent = await sentBy(['cat "$(ls | grep li)" | rev'], async (dir) => {
      await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
      await symlink('deploy-notes.txt', join(dir, 'link'));
    });
    expect(sent).not.toContain(REVERSED);
    expect(sent).toContain('htiw hsup');
  });

  it('the copy keeps the file’s shape: the same size, the token’s prefix, the lines around it', async () => {
    const sent = await sentBy(['f="$(ls | grep notes)"; wc -c < "$f"; grep -c ghp_ "$f"; cat "$f"'], (dir) =>
      writeFile(join(dir, 'deploy-notes.txt'), `first line\npush with ${TOKEN}\nlast line\n`),
    );
    expect(sent).not.toContain(TOKEN);
    expect(sent).toContain(`${'first line\npush with '.length + TOKEN.length + '\nlast line\n'.length}`);
    expect(sent).toContain('last line');
    expect(sent).toMatch(/ghp_\[REDACTED/);
  });

  // Hidden whole for being `.env` under another name: a copy would take out the token, not the password.
  it('a hard link of .env holding a token too reads as empty, not as a copy', async () => {
    const sent = await sentBy(['cat "$(ls | grep backup)" | rev; echo done'], async (dir) => {
      await writeFile(join(dir, '.env'), `DB_PASSWORD=correct-horse-battery-staple\nGH=${TOKEN}\n`);
      await link(join(dir, '.env'), join(dir, 'env-backup'));
    });
    expect(sent).not.toContain('elpats-yrettab');
    expect(sent).not.toContain(REVERSED);
    expect(sent).toContain('done');
  });

  // A read-only bind: the write fails, and the command's result says why.
  it('a command that writes a token file fails, and is told why', async () => {
    const sent = await sentBy(['echo more >> "$(ls | grep notes)"'], (dir) =>
      writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`),
    );
    expect(sent).toContain('Read-only file system');
    expect(sent).toContain('deploy-notes.txt');
    expect(sent).not.toContain(TOKEN);
  });

  // A workspace `.npmrc` was hidden whole (npm lost its registry): now a copy without its credential
  // lines, with the content scan off too (the default).
  it('.npmrc reads without its credential lines, its registry kept (content scan off)', async () => {
    const sent = await sentBy(
      ['cat "$(ls -A | grep npm)"'],
      (dir) =>
        writeFile(
          join(dir, '.npmrc'),
          'registry=https://npm.example.test/\n//npm.example.test/:_authToken=npmrc-secret-value-0004\nsave-exact=true\n',
        ),
      NO_SCAN,
    );
    expect(sent).not.toContain('npmrc-secret-value-0004');
    expect(sent).toContain('registry=https://npm.example.test/');
    expect(sent).toContain('save-exact=true');
  });
});

// Turned off: plain-named files are not scanned, so a command may rewrite one holding a token
// (a build writing its output, a test fixture): no copy is bound over it.
it('with the scan turned off, a command rewrites a plain-named file holding a token', async () => {
  const sent = await sentBy(
    ['echo more >> "$(ls | grep notes)" && wc -l < "$(ls | grep notes)"'],
    (dir) => writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`),
    NO_SCAN,
  );
  expect(sent).not.toContain('Read-only file system');
  expect(sent).toMatch(/\b2\b/);
});
