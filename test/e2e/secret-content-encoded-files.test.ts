import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "secrets by name and content" (red team red3): the content scan reads a file's bytes as
 * Latin-1 text, up to 64 MiB, and a name is secret only as the file's own. A credential in the
 * workspace that is UTF-16, compressed (gzip; git's own objects: `git show HEAD:file`, the history;
 * a `.env` in a backup tar.gz), base64 (a Kubernetes Secret), past 64 MiB, or longer than the
 * chunks' overlap across a chunk boundary is not seen, and a print-mode command (or Grep) hands it
 * to the model. (The same JWT in a small file is refused: the table knows it.)
 */

const cli = useScriptedCli();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

function toolMessages(body: unknown): string {
  const { messages } = body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

async function runOne(command: string, plant: (workDir: string) => Promise<void>): Promise<string> {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  await plant(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  return toolMessages(server.requests[1]!.body);
}

// A token saved by a Windows editor as UTF-16 (BOM and all) is read by iconv in print mode.
it('a UTF-16 file holding a GitHub token is a secret for a command that names it', async () => {
  const sent = await runOne('iconv -f UTF-16 -t UTF-8 deploy-notes.txt | rev', async (dir) => {
    const text = Buffer.from(`\ufeffpush with ${TOKEN}\n`, 'utf16le');
    await writeFile(join(dir, 'deploy-notes.txt'), text);
  });
  expect(sent).not.toContain(REVERSED);
});

// Grep (ripgrep decodes a UTF-16 file with a BOM) finds the token in print mode.
it('Grep does not hand over a token in a UTF-16 file', async () => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 'g', name: 'Grep', args: { pattern: 'ghp_\\w+', output_mode: 'content', path: '.' } },
      ],
    },
    { text: 'done' },
  ]);
  await writeFile(
    join(sandbox.workDir, 'deploy-notes.txt'),
    Buffer.from(`\ufeffpush with ${TOKEN}\n`, 'utf16le'),
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  expect(toolMessages(server.requests[1]!.body)).not.toContain(TOKEN);
});

// A gzip'd backup of a notes file (deploy-notes.txt.gz) is read by zcat in print mode.
it('a gzip file holding a GitHub token is a secret for a command that names it', async () => {
  const sent = await runOne('zcat deploy-notes.txt.gz | rev', async (dir) => {
    await writeFile(join(dir, 'deploy-notes.txt.gz'), gzipSync(`push with ${TOKEN}\n`));
  });
  expect(sent).not.toContain(REVERSED);
});

/** 65 MiB of log lines, then the token. */
function bigLog(): Buffer {
  return Buffer.concat([Buffer.alloc(65 * 1024 * 1024, 'log line\n'), Buffer.from(`token ${TOKEN}\n`)]);
}

// A token after 64 MiB of a log file is read by tail in print mode.
it('a GitHub token past 64 MiB of a file is a secret for a command that names it', async () => {
  const sent = await runOne('tail -c 100 big.log | rev', async (dir) => {
    await writeFile(join(dir, 'big.log'), bigLog());
  });
  expect(sent).not.toContain(REVERSED);
});

// The same file, by Grep: ripgrep searches past 64 MiB.
it('Grep does not hand over a token past 64 MiB of a file', async () => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 'g', name: 'Grep', args: { pattern: 'ghp_\\w+', output_mode: 'content', path: '.' } },
      ],
    },
    { text: 'done' },
  ]);
  await writeFile(join(sandbox.workDir, 'big.log'), bigLog());
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  expect(toolMessages(server.requests[1]!.body)).not.toContain(TOKEN);
});

// The token in a committed file is read back from git's (compressed) objects: `git show HEAD:file`
// names the file in git's syntax, and the scan of .git's objects sees only deflated bytes.
it('git show HEAD:file of a committed file holding a token is a secret read', async () => {
  const sent = await runOne('git show HEAD:deploy-notes.txt | rev', async (dir) => {
    await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'notes');
  });
  expect(sent).not.toContain(REVERSED);
});

// A token committed once and removed since (the usual leak) is read from the history in print mode.
it('a token removed from the tree but in the git history is a secret read', async () => {
  const sent = await runOne('git log -p | rev', async (dir) => {
    await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'notes');
    await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
    git(dir, 'commit', '-qam', 'no token');
  });
  expect(sent).not.toContain(REVERSED);
});

// A JWT longer than the chunks' 4 KiB overlap (an identity token with its groups) across the 1 MiB
// chunk boundary: neither chunk holds all three parts.
it('a long JWT across the scan chunk boundary is a secret for a command that names it', async () => {
  const header = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9';
  const jwt = `${header}.eyJ${'a'.repeat(6000)}.${'s'.repeat(43)}`;
  const sent = await runOne("grep -o 'eyJ[^ ]*' session.log | rev", async (dir) => {
    const start = 1024 * 1024 - 4096 - 100;
    const pad = Buffer.alloc(start, 'x');
    pad.fill('\n', start - 1);
    await writeFile(join(dir, 'session.log'), Buffer.concat([pad, Buffer.from(`${jwt} end\n`)]));
  });
  expect(sent).not.toContain([...jwt].reverse().join('').slice(0, 60));
});

// A Kubernetes Secret manifest keeps its values base64-encoded (`data:`): the token is there, in
// base64, and `base64 -d` of it is not a secret read.
it('a token base64-encoded in a Kubernetes Secret manifest is a secret for a command that names it', async () => {
  const sent = await runOne("awk '/token:/ {print $2}' k8s/secret.yaml | base64 -d | rev", async (dir) => {
    await mkdir(join(dir, 'k8s'));
    const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: deploy\ndata:\n  token: ${Buffer.from(TOKEN).toString('base64')}\n`;
    await writeFile(join(dir, 'k8s', 'secret.yaml'), manifest);
  });
  expect(sent).not.toContain(REVERSED);
});

// A backup archive of the project's `.env` (secret by its name, with an opaque password no format
// knows): the member's name is inside the archive, and `tar xzOf` hands the file over.
it('a .env inside a tar.gz backup is a secret for a command that extracts it', async () => {
  const sent = await runOne('tar xzOf backup.tar.gz | rev', async (dir) => {
    await mkdir(join(dir, 'old'));
    await writeFile(join(dir, 'old', '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
    execFileSync('tar', ['czf', join(dir, 'backup.tar.gz'), '-C', join(dir, 'old'), '.env']);
    await rm(join(dir, 'old'), { recursive: true });
  });
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});

// The same for a committed `.env` (secret by its name, an opaque password): `git show HEAD:.env` is
// refused, but its blob by id (found at run time) is read.
it("a committed .env's blob read by its id is a secret read", async () => {
  const sent = await runOne(
    "git cat-file -p $(git ls-tree HEAD | awk '/env/ {print $3}') | rev",
    async (dir) => {
      await writeFile(join(dir, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
      git(dir, 'init', '-q');
      git(dir, 'add', '-f', '.env');
      git(dir, 'commit', '-qm', 'env');
    },
  );
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});
